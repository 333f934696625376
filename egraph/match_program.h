// Patterns compiled to matching programs: the search's e-matching.
//
// A left side is compiled once (the rule index keeps a program per rewrite) into a flat
// list of instructions over a few class registers, register 0 the class searched:
//
//   x * (y + z)        0: scan r0 for `*`    -> r1 r2
//                      1: bind x = r1
//                      2: scan r2 for `+`    -> r3 r4
//                      3: bind y = r3
//                      4: bind z = r4
//                      5: yield
//
// A scan is the only instruction that chooses: it goes through the nodes of one
// operation and dtype in its class (a class's list is sorted, so they are one range,
// found by a walk or a binary search) and, where the e-graph keeps a commutative
// operation's operands sorted, through both operand orders of each. Every other instruction only
// checks (a repeated variable, a constant, a dtype) and sends the run back to the last
// scan when the check fails. So a run is a loop over an explicit stack of scan
// positions, with the matched classes written straight into the caller's flat list: no
// recursion, no closures, no substitution copied per match. And where every node of the
// last scan is a match (all that follows it binds its operands, as in `x + (y + z)`),
// that scan lists its nodes' matches in a loop of its own (a ListingScan), a step per
// match instead of four.
//
// Three things come with compiling:
//   - A scan whose first operand is a variable bound earlier (the `x` of `x * z` in
//     `x * y + x * z`) goes through the nodes whose first operand is that class only,
//     one range of the sorted list (when the e-graph does not sort its operands).
//     And the scan that bound it (the `x * y`), when the narrowed one's class is known
//     before it (the `+`'s second operand), is its partner's: it passes over its nodes
//     whose first operand no node of the narrowed scan has, in one walk of the two
//     sorted lists, instead of trying each (Instr::partner).
//   - Semi-naive counting (egraph/runner.cpp, SearchMemory): a match that reads nothing
//     newer than the last search of its rewrite is counted, not listed. Its root node
//     is as old as its form (`formed_at`: a node a merge moved without changing it
//     was matched in the class it came from), the nodes below it as old as their place
//     in the class scanned (`added_at`; egraph/enode.h). From the scan where the rest
//     of a program only scans classes known already and binds variables seen nowhere
//     else (the `+` of `x * (y + z)`), the matches below are counted without going
//     through them when those classes did not change since the last search: there
//     each node of the operation is one match, and an old one.
//
// Programs read the e-graph only: several threads may run them at once. The e-graph
// must be rebuilt (as the runner's search has it): the node lists sorted, their
// operands canonical. Its nodes are well typed (docs/expressions.md: the operands of an
// arithmetic operation have its dtype), so a variable under such an operation needs no
// dtype check.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "egraph/egraph.h"
#include "egraph/op_runs.h"
#include "egraph/pattern.h"

namespace eqsat {

class MatchProgram {
 public:
  // For `run`: list every match (count none as old).
  static constexpr uint32_t kListAll = static_cast<uint32_t>(-1);

  MatchProgram() = default;  // no program: not to be run
  MatchProgram(const Pattern& pattern, const std::vector<PatternVar>& vars);

  // Class ids a match has: one per variable of the rewrite (an invalid id for a
  // variable the left side does not use).
  std::size_t width() const { return width_; }

  // What a run found: the matches it listed, and those it counted instead.
  struct Found {
    std::size_t listed = 0;
    std::size_t counted = 0;
  };

  // Appends to `ids` the distinct matches of the pattern in class `id` (width() ids
  // each, the class of each variable), in increasing order (as arrays of ids).
  // With `seen` = kListAll, every match is listed; with `newest`, each listed match
  // also gets the newest change epoch (egraph/egraph.h) among what it read: its root
  // node's `formed_at`, its other nodes' `added_at`, and the `changed_at` of the
  // classes whose facts it checked (a constant, a constant-only variable).
  // Otherwise only the matches newer than epoch `seen` are listed; the others (an
  // earlier search found them) are counted.
  // With `runs` (made from this e-graph, every class recorded), a scan finds its
  // nodes there instead of in the class's list: the same nodes, found faster.
  Found run(const EGraph& egraph, ClassId id, uint32_t seen, std::vector<ClassId>& ids,
            std::vector<uint32_t>* newest = nullptr, const OpRuns* runs = nullptr) const;

  // Whether a run reads two levels of the e-graph only: the nodes of the class
  // searched, the nodes of the classes under them, and class ids (no constant, no
  // constant-only variable, whose class facts it would read). Its matches in a class
  // are then a function of those nodes (SearchMemory in egraph/runner.cpp).
  bool two_levels() const { return two_levels_; }
  // The instructions, one per line (as in the comment above), for tests and debugging.
  std::string listing() const;

 private:
  static constexpr uint32_t kDone = static_cast<uint32_t>(-1);
  static constexpr uint32_t kNoKey = static_cast<uint32_t>(-1);

  struct Instr {
    enum class Kind : uint8_t {
      Scan,  // the nodes of (op, dtype) in class `in`, their operands into `out`...
      // A scan whose every node is a match, listed by the scan itself (set once the
      // program is compiled, see tail_operands_)
      ListingScan,
      Bind,   // variable `var` = class `in` (its first occurrence)
      Check,  // variable `var` == class `in` (a later occurrence)
      Const,  // class `in` has the known value constants_[constant]
      Yield,  // a match
    };
    Kind kind = Kind::Yield;
    Op op = Op::Const;           // Scan
    DType dtype = DType::Index;  // Scan: the node's; Bind, Const: the class's
    bool commutes = false;       // Scan: both operand orders where the e-graph sorts operands
    bool check_dtype = false;    // Bind: the class's dtype is not implied by the node above
    bool const_only = false;     // Bind: a constant-only variable
    uint8_t arity = 0;           // Scan
    uint16_t in = 0;             // class register read
    uint16_t out = 0;            // Scan: register of its first operand (the others follow)
    uint16_t frame = 0;          // Scan: its position among the scans
    uint32_t var = 0;            // Bind, Check; Scan: kNoKey or the variable its first operand must be
    uint32_t constant = 0;       // Const
    uint32_t back = 0;           // where a failure resumes: the last scan before (kDone if none)
    // Scan: a later scan (kDone if none) over a class known before this one, narrowed to
    // the nodes whose first operand is this scan's first operand: only the nodes of this
    // scan whose first operand is among that scan's have matches (execute).
    uint32_t partner = kDone;
    // Scan: the epoch a chosen node adds to the match's (egraph/enode.h): `formed_at`
    // for the scan of the root (register 0), `added_at` below it. (A member pointer,
    // not a test of `in` per node: the scan's inner step stays small enough to inline.)
    uint16_t ENode::*epoch = &ENode::added_at;
  };

  void compile(const Pattern& pattern, const std::vector<PatternVar>& vars, uint32_t p, uint16_t reg,
               std::vector<bool>& bound, std::optional<DType> implied);
  // How many matches the rest of the program from count_from_ gives, if all of them
  // read nothing newer than `seen` (the classes it scans did not change since): else
  // nothing.
  std::optional<std::size_t> count_old(const EGraph& egraph, const OpRuns* runs, const ClassId* regs,
                                       uint32_t seen) const;
  // Where a scan of a running program is (match_program.cpp).
  struct Frame;
  // Moves a partnered scan to its next node with a partner; false if none is left.
  __attribute__((noinline)) static bool skip_to_partnered(Frame& frame);
  // The program's run (see run), with the partners' walk if kPartners: a program
  // without partners runs without a test for them at each step.
  template <bool kPartners>
  Found execute(const EGraph& egraph, const OpRuns* runs, ClassId root, uint32_t seen, std::vector<ClassId>& ids,
                std::vector<uint32_t>* newest) const;
  Found execute(const EGraph& egraph, const OpRuns* runs, ClassId root, uint32_t seen, std::vector<ClassId>& ids,
                std::vector<uint32_t>* newest) const {
    return has_partners_ ? execute<true>(egraph, runs, root, seen, ids, newest)
                         : execute<false>(egraph, runs, root, seen, ids, newest);
  }

  std::vector<Instr> code_;
  std::vector<Value> constants_;
  std::size_t width_ = 0;
  uint16_t registers_ = 1;
  uint16_t scans_ = 0;
  // No two ways through the program give the same match (the pattern has no constant
  // nodes: see run), so matches are counted as they are found.
  bool distinct_ = false;
  uint32_t count_from_ = kDone;  // the first instruction of the countable rest, if any
  bool has_partners_ = false;    // some scan has a partner (Instr::partner)
  // The last scan is a ListingScan if each of its nodes is a match once reached: what
  // follows it only binds variables to its operands (with no dtype or fact to check),
  // or checks its first operand against the variable it narrowed its nodes to, which
  // each passes. It lists its matches in a loop of its own (execute), binding variable
  // tail_vars_[k] to operand tail_operands_[k], for k < tail_binds_.
  uint8_t tail_binds_ = 0;
  std::array<uint8_t, NodeChildren::kCapacity> tail_operands_{};
  std::array<uint32_t, NodeChildren::kCapacity> tail_vars_{};
  bool two_levels_ = false;  // see two_levels()
};

}  // namespace eqsat
