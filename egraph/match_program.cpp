#include "egraph/match_program.h"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cassert>
#include <numeric>
#include <utility>

namespace eqsat {

namespace {

// The dtype every well-typed node of `op` and `dtype` gives its operand `i`, if the
// operation fixes it: an arithmetic, bitwise or logic operation computes in the dtype of
// its operands, select's condition is BOOL. (A comparison's operands and a cast's have
// a dtype of their own.)
std::optional<DType> operand_dtype(Op op, DType dtype, std::size_t i) {
  switch (op) {
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Neg:
    case Op::FloorDiv:
    case Op::FloorMod:
    case Op::TruncDiv:
    case Op::TruncMod:
    case Op::Div:
    case Op::Min:
    case Op::Max:
    case Op::Abs:
    case Op::BitAnd:
    case Op::BitOr:
    case Op::BitXor:
    case Op::BitNot:
    case Op::Shl:
    case Op::Shr:
    case Op::And:
    case Op::Or:
    case Op::Not:
      return dtype;
    case Op::Select:
      return i == 0 ? DType::Bool : dtype;
    default:
      return std::nullopt;
  }
}

// A class's node list is sorted by operation, then dtype, then payload (0 for an
// operation), then operands: the nodes of one operation and dtype are one range of it,
// and within it those with a given first operand.
uint64_t sort_key(Op op, DType dtype) {
  return (uint64_t{static_cast<uint8_t>(op)} << 8) | static_cast<uint8_t>(dtype);
}
uint64_t sort_key(const ENode& node) { return sort_key(node.op, node.dtype); }

// Sets [lo, hi) to the nodes of `op` and `dtype` in a class's list. (Written through
// references: a pair returned was stored and reloaded on the way into a scan's frame,
// a stall on every scan.)
void op_range(const ClassList<ENode>& nodes, Op op, DType dtype, const ENode*& lo, const ENode*& hi) {
  const uint64_t key = sort_key(op, dtype);
  const ENode* begin = nodes.data();
  const ENode* end = begin + nodes.size();
  // Most classes hold a few nodes: a walk costs less than a binary search there.
  constexpr std::size_t kWalked = 8;
  if (nodes.size() <= kWalked) {
    lo = begin;
    while (lo != end && sort_key(*lo) < key) ++lo;
    hi = lo;
    while (hi != end && sort_key(*hi) == key) ++hi;
    return;
  }
  lo = std::partition_point(begin, end, [key](const ENode& n) { return sort_key(n) < key; });
  hi = std::partition_point(lo, end, [key](const ENode& n) { return sort_key(n) == key; });
}

// op_range of class `id`, from `runs` if given. (Inline: it is a branch in front of
// either; a call of its own cost 0.4% more instructions over the corpora.)
__attribute__((always_inline)) inline void op_range(const EGraph& egraph, const OpRuns* runs, ClassId id, Op op,
                                                    DType dtype, const ENode*& lo, const ENode*& hi) {
  const ClassList<ENode>& nodes = egraph.eclass(id).nodes;
  if (runs) {
    runs->range(id, nodes.data(), OpRuns::key(op, dtype), lo, hi);
  } else {
    op_range(nodes, op, dtype, lo, hi);
  }
}

// Narrows the range [lo, hi) of one operation to the nodes whose first operand is `first`.
__attribute__((always_inline)) inline void narrow_to_first_operand(ClassId first, const ENode*& lo, const ENode*& hi) {
  lo = std::partition_point(lo, hi, [first](const ENode& n) { return n.children[0] < first; });
  hi = std::partition_point(lo, hi, [first](const ENode& n) { return n.children[0] == first; });
}

// Puts the `count` matches of `width` ids from ids[start] (and their epochs from
// newest[newest_start], if given) in increasing order, and drops a match found twice,
// keeping the older epoch (see MatchProgram::run); returns how many are left.
std::size_t order_matches(std::vector<ClassId>& ids, std::size_t start, std::size_t count, std::size_t width,
                          std::vector<uint32_t>* newest, std::size_t newest_start) {
  if (width == 0) {
    // Every match is the empty one: one is left, the oldest way.
    if (count > 1 && newest) {
      uint32_t& first = (*newest)[newest_start];
      for (std::size_t m = 1; m < count; ++m) first = std::min(first, (*newest)[newest_start + m]);
      newest->resize(newest_start + 1);
    }
    return std::min<std::size_t>(count, 1);
  }
  const ClassId* base = ids.data() + start;
  auto less = [base, width](std::size_t a, std::size_t b) {
    return std::lexicographical_compare(base + a * width, base + (a + 1) * width, base + b * width,
                                        base + (b + 1) * width);
  };
  // A program goes through nodes in their sorted order, so matches often come out
  // increasing already.
  bool increasing = true;
  for (std::size_t m = 1; m < count && increasing; ++m) increasing = less(m - 1, m);
  if (increasing) return count;
  thread_local std::vector<uint32_t> order;
  thread_local std::vector<ClassId> sorted;
  thread_local std::vector<uint32_t> sorted_newest;
  order.resize(count);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), less);
  sorted.clear();
  sorted_newest.clear();
  std::size_t kept = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const uint32_t m = order[k];
    if (k > 0 && !less(order[k - 1], m)) {
      // The same match as the one before: keep the older way (an earlier search found it).
      if (newest) sorted_newest.back() = std::min(sorted_newest.back(), (*newest)[newest_start + m]);
      continue;
    }
    sorted.insert(sorted.end(), base + m * width, base + (m + 1) * width);
    if (newest) sorted_newest.push_back((*newest)[newest_start + m]);
    ++kept;
  }
  ids.resize(start);
  ids.insert(ids.end(), sorted.begin(), sorted.end());
  if (newest) {
    newest->resize(newest_start);
    newest->insert(newest->end(), sorted_newest.begin(), sorted_newest.end());
  }
  return kept;
}

}  // namespace

// Where a scan of a running program is: the rest of its range, the node chosen, whether
// that node's other operand order is still to come, the epoch of what was read before
// it. (Set when the scan starts.)
struct MatchProgram::Frame {
  const ENode* next;
  const ENode* end;
  const ENode* node;
  // With a partner (Instr::partner): the partner's nodes, from the first whose first
  // operand is not below that of the node chosen.
  const ENode* partner;
  const ENode* partner_end;
  uint32_t outer;
  bool swaps;
  bool swap_pending;
  bool partnered;
};

// Moves a partnered scan's `next` to its next node whose first operand is among the
// partner's; false if there is none. Both lists are sorted by first operand: the nodes
// without a partner are passed over in one walk of the two, not a scan of the partner's
// nodes for each. (Out of line: inline, it made every program's steps slower.)
bool MatchProgram::skip_to_partnered(Frame& frame) {
  for (; frame.next != frame.end; ++frame.next) {
    const ClassId first = frame.next->children[0];
    while (frame.partner != frame.partner_end && frame.partner->children[0] < first) ++frame.partner;
    if (frame.partner == frame.partner_end) return false;
    if (frame.partner->children[0] == first) return true;
  }
  return false;
}

MatchProgram::MatchProgram(const Pattern& pattern, const std::vector<PatternVar>& vars) : width_(vars.size()) {
  distinct_ = std::none_of(pattern.nodes.begin(), pattern.nodes.end(),
                           [](const PatternNode& node) { return node.kind == PatternNode::Kind::Const; });
  std::vector<bool> bound(vars.size(), false);
  // An instruction per pattern node and the yield: one allocation. (The command line
  // compiles the catalogue's 1,904 left sides at every start, docs/performance.md.)
  code_.reserve(pattern.nodes.size() + 1);
  compile(pattern, vars, pattern.root, 0, bound, std::nullopt);
  code_.push_back(Instr{});  // yield
  // A failure resumes the last scan before it: its next node.
  uint32_t last_scan = kDone;
  for (uint32_t pc = 0; pc < code_.size(); ++pc) {
    code_[pc].back = last_scan;
    if (code_[pc].kind == Instr::Kind::Scan) last_scan = pc;
  }
  // The scan writing each register (register 0, the class searched, is given).
  std::vector<uint32_t> written_at(registers_, 0);
  for (uint32_t pc = 0; pc < code_.size(); ++pc) {
    const Instr& instr = code_[pc];
    if (instr.kind != Instr::Kind::Scan) continue;
    for (uint16_t k = 0; k < instr.arity; ++k) written_at[instr.out + k] = pc;
  }
  // Partners (Instr::partner): a scan narrowed by a variable bound to the first operand
  // of an earlier scan, over a class known before that one (`x * y + x * z`: the second
  // `*` for the first).
  // (A variable is bound before any scan narrowed by it: bound_by[v] is the scan whose
  // first operand v is, if it is one.)
  std::vector<uint32_t> bound_by(width_, kDone);
  for (uint32_t pc = 0; pc < code_.size(); ++pc) {
    const Instr& instr = code_[pc];
    if (instr.kind == Instr::Kind::Bind && instr.in != 0 && code_[written_at[instr.in]].out == instr.in) {
      bound_by[instr.var] = written_at[instr.in];
    } else if (instr.kind == Instr::Kind::Scan && instr.var != kNoKey && bound_by[instr.var] != kDone) {
      Instr& scan = code_[bound_by[instr.var]];
      if ((instr.in == 0 || written_at[instr.in] < bound_by[instr.var]) && scan.partner == kDone) {
        scan.partner = pc;
        has_partners_ = true;
      }
    }
  }
  // The countable rest (see the header): only scans of registers written before it,
  // binds of variables without a check, the yield; and a scan at least. No two ways
  // through it give the same match (distinct_), so its matches are the product of the
  // node counts of its scans.
  for (uint32_t from = 0; distinct_ && from < code_.size() && count_from_ == kDone; ++from) {
    bool countable = code_[from].kind == Instr::Kind::Scan;
    for (uint32_t pc = from; pc < code_.size() && countable; ++pc) {
      const Instr& instr = code_[pc];
      switch (instr.kind) {
        case Instr::Kind::Scan:
          countable = instr.in == 0 || written_at[instr.in] < from;
          break;
        case Instr::Kind::Bind:
          countable = !instr.check_dtype && !instr.const_only;
          break;
        case Instr::Kind::Yield:
          break;
        default:
          countable = false;
      }
    }
    if (countable) count_from_ = from;
  }
  // The last scan lists its matches in a loop of its own (a ListingScan) if its rest
  // allows. (Made last: the analyses above take it for the scan it is.)
  uint32_t listing_scan = kDone;
  if (last_scan != kDone) {
    const Instr& scan = code_[last_scan];
    bool tail = true;
    for (uint32_t pc = last_scan + 1; tail && code_[pc].kind != Instr::Kind::Yield; ++pc) {
      const Instr& instr = code_[pc];
      if (instr.kind == Instr::Kind::Bind && instr.in >= scan.out && instr.in < scan.out + scan.arity &&
          !instr.check_dtype && !instr.const_only) {
        tail_operands_[tail_binds_] = static_cast<uint8_t>(instr.in - scan.out);
        tail_vars_[tail_binds_] = instr.var;
        ++tail_binds_;
      } else {
        tail = instr.kind == Instr::Kind::Check && instr.in == scan.out && instr.var == scan.var;
      }
    }
    if (tail) listing_scan = last_scan;
  }
  // Two levels (two_levels): the first scan is of the class searched (register 0), the
  // others of the registers it wrote; nothing reads a class's facts.
  two_levels_ = distinct_ && code_[0].kind == Instr::Kind::Scan;
  for (const Instr& instr : code_) {
    switch (instr.kind) {
      case Instr::Kind::Scan:
        two_levels_ = two_levels_ && (instr.in == 0 || written_at[instr.in] == 0);
        break;
      case Instr::Kind::Bind:
        two_levels_ = two_levels_ && !instr.const_only;
        break;
      case Instr::Kind::Const:
        two_levels_ = false;
        break;
      default:
        break;
    }
  }
  if (listing_scan != kDone) code_[listing_scan].kind = Instr::Kind::ListingScan;
}

void MatchProgram::compile(const Pattern& pattern, const std::vector<PatternVar>& vars, uint32_t p, uint16_t reg,
                           std::vector<bool>& bound, std::optional<DType> implied) {
  const PatternNode& node = pattern.nodes[p];
  Instr instr;
  instr.in = reg;
  instr.dtype = node.dtype;
  switch (node.kind) {
    case PatternNode::Kind::Var:
      instr.var = node.var;
      if (bound[node.var]) {
        instr.kind = Instr::Kind::Check;
      } else {
        instr.kind = Instr::Kind::Bind;
        instr.const_only = vars[node.var].const_only;
        instr.check_dtype = implied != node.dtype;
        bound[node.var] = true;
      }
      code_.push_back(instr);
      return;
    case PatternNode::Kind::Const:
      instr.kind = Instr::Kind::Const;
      instr.constant = static_cast<uint32_t>(constants_.size());
      constants_.push_back(pattern.value_of(node));
      code_.push_back(instr);
      return;
    case PatternNode::Kind::Op:
      break;
  }
  instr.kind = Instr::Kind::Scan;
  instr.op = node.op;
  instr.commutes = commutes_in_every_reading(node.op, node.dtype);
  instr.arity = static_cast<uint8_t>(node.children.size());
  instr.out = registers_;
  registers_ = static_cast<uint16_t>(registers_ + instr.arity);
  instr.frame = scans_++;
  // The root node is as old as its form, the others as their place in the class
  // scanned (egraph/enode.h: a node a merge moved is old at the root only).
  instr.epoch = reg == 0 ? &ENode::formed_at : &ENode::added_at;
  instr.var = kNoKey;
  if (!node.children.empty()) {
    const PatternNode& first = pattern.nodes[node.children[0]];
    if (first.kind == PatternNode::Kind::Var && bound[first.var]) instr.var = first.var;
  }
  code_.push_back(instr);
  // The operands that are leaves first: they only check, so a node that fails them is
  // left before its operands' classes are searched. (The matches are the same, found
  // in the same order.)
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < node.children.size(); ++i) {
      const bool leaf = pattern.nodes[node.children[i]].kind != PatternNode::Kind::Op;
      if (leaf == (pass == 0)) {
        compile(pattern, vars, node.children[i], static_cast<uint16_t>(instr.out + i), bound,
                operand_dtype(node.op, node.dtype, i));
      }
    }
  }
}

std::optional<std::size_t> MatchProgram::count_old(const EGraph& egraph, const OpRuns* runs, const ClassId* regs,
                                                   uint32_t seen) const {
  std::size_t total = 1;
  for (std::size_t pc = count_from_; pc < code_.size(); ++pc) {
    const Instr& instr = code_[pc];
    if (instr.kind != Instr::Kind::Scan && instr.kind != Instr::Kind::ListingScan) continue;
    // Both operand orders of a node would be two matches, or one: not counted here.
    if (instr.commutes && egraph.builtin_commutativity()) return std::nullopt;
    const ClassId in = regs[instr.in];
    // Its nodes are no newer than the class's last change (egraph/egraph.h): their
    // `added_at`, and so their `formed_at`, which a scan of the root reads instead.
    if (egraph.eclass(in).changed_at > seen) return std::nullopt;
    const ENode *lo, *hi;
    op_range(egraph, runs, in, instr.op, instr.dtype, lo, hi);
    total *= static_cast<std::size_t>(hi - lo);
  }
  return total;
}

template <bool kPartners>
MatchProgram::Found MatchProgram::execute(const EGraph& egraph, const OpRuns* runs, ClassId root, uint32_t seen,
                                          std::vector<ClassId>& ids, std::vector<uint32_t>* newest_out) const {
  // Registers, scan positions and variables on the stack: left uninitialized, as each is
  // written before it is read (but the variables, which a match lists all of).
  constexpr std::size_t kOnStack = 16;
  ClassId stack_regs[kOnStack];
  Frame stack_frames[kOnStack];
  ClassId stack_binding[kOnStack];
  std::vector<ClassId> heap_regs, heap_binding;
  std::vector<Frame> heap_frames;
  ClassId* regs = stack_regs;
  Frame* frames = stack_frames;
  ClassId* binding = stack_binding;
  if (registers_ > kOnStack) regs = (heap_regs.resize(registers_), heap_regs.data());
  if (scans_ > kOnStack) frames = (heap_frames.resize(scans_), heap_frames.data());
  if (width_ > kOnStack) binding = (heap_binding.resize(width_), heap_binding.data());
  std::fill(binding, binding + width_, ClassId());
  const bool sorts = egraph.builtin_commutativity();
  const bool counting = seen != kListAll;
  Found found;
  uint32_t newest = 0;  // of what the match in progress read
  regs[0] = root;

  // Takes the next choice of the scan at `pc`: false when it has none left. (This and
  // backtrack are forced inline: once a scan read one of two epochs (Instr::epoch),
  // GCC 12 left backtrack out of line, a call per node chosen and 15% more
  // instructions in the matcher on sum 9.)
  auto advance = [&](uint32_t pc) __attribute__((always_inline)) {
    const Instr& instr = code_[pc];
    Frame& frame = frames[instr.frame];
    ClassId* out = regs + instr.out;
    if (frame.swap_pending) {
      frame.swap_pending = false;
      out[0] = frame.node->children[1];
      out[1] = frame.node->children[0];
      newest = std::max<uint32_t>(frame.outer, frame.node->*instr.epoch);
      return true;
    }
    if (kPartners && frame.partnered && !skip_to_partnered(frame)) return false;
    if (frame.next == frame.end) return false;
    const ENode& node = *frame.next++;
    frame.node = &node;
    for (uint8_t k = 0; k < instr.arity; ++k) out[k] = node.children[k];
    newest = std::max<uint32_t>(frame.outer, node.*instr.epoch);
    frame.swap_pending = frame.swaps && node.children[0] != node.children[1];
    return true;
  };
  // At the first scan of the countable rest, when nothing read so far is newer than the
  // last search: counts the rest's matches, if all of them are as old (count_old).
  auto counts_the_rest = [&](uint32_t pc) __attribute__((always_inline)) {
    if (pc != count_from_ || !counting || newest > seen) return false;
    const std::optional<std::size_t> old = count_old(egraph, runs, regs, seen);
    if (old) found.counted += *old;
    return old.has_value();
  };
  // Sets up the scan `instr` of its class's nodes (before the first is taken).
  auto start_scan = [&](const Instr& instr) __attribute__((always_inline))->Frame& {
    Frame& frame = frames[instr.frame];
    const ClassId in = regs[instr.in];
    assert(egraph.find(in) == in && "a program runs on a rebuilt e-graph");
    op_range(egraph, runs, in, instr.op, instr.dtype, frame.next, frame.end);
    frame.swaps = sorts && instr.commutes;
    if (instr.var != kNoKey && !frame.swaps) narrow_to_first_operand(binding[instr.var], frame.next, frame.end);
    frame.outer = newest;
    frame.swap_pending = false;
    // (A scan of one node or none has nothing to pass over. A partner that reads both
    // operand orders is not narrowed to its first operand: none is passed over then.)
    frame.partnered = kPartners && instr.partner != kDone && !frame.swaps && frame.end - frame.next > 1 &&
                      !(sorts && code_[instr.partner].commutes);
    if (frame.partnered) {
      const Instr& partner = code_[instr.partner];
      op_range(egraph, runs, regs[partner.in], partner.op, partner.dtype, frame.partner, frame.partner_end);
    }
    return frame;
  };
  uint32_t pc = 0;
  // Resumes the last scan at or before `from` that has a choice left; false when none has.
  auto backtrack = [&](uint32_t from) __attribute__((always_inline)) {
    for (uint32_t s = from; s != kDone; s = code_[s].back) {
      if (advance(s)) {
        pc = s + 1;
        return true;
      }
    }
    return false;
  };

  for (;;) {
    const Instr& instr = code_[pc];
    bool failed = false;
    switch (instr.kind) {
      case Instr::Kind::Scan: {
        if (counts_the_rest(pc)) {
          failed = true;
          break;
        }
        start_scan(instr);
        if (!backtrack(pc)) return found;
        continue;
      }
      case Instr::Kind::ListingScan: {
        if (counts_the_rest(pc)) {
          failed = true;
          break;
        }
        Frame& frame = start_scan(instr);
        // (None or one node: through the instructions, which cost less than the list's
        // two resizes. Both operand orders of each node: through the instructions.)
        if (frame.swaps || frame.end - frame.next < 2) {
          if (!backtrack(pc)) return found;
          continue;
        }
        // Each node is a match, listed here: the same matches in the same order as
        // through the instructions after the scan, in a step per node instead of four
        // (`x + (y + z)` lists most of `pos 3`'s matches this way).
        const std::size_t first = ids.size();
        ids.resize(first + static_cast<std::size_t>(frame.end - frame.next) * width_);
        ClassId* out = ids.data() + first;
        for (const ENode* node = frame.next; node != frame.end; ++node) {
          const uint32_t at = std::max<uint32_t>(frame.outer, node->*instr.epoch);
          if (counting && at <= seen) {
            ++found.counted;
            continue;
          }
          for (uint8_t k = 0; k < tail_binds_; ++k) binding[tail_vars_[k]] = node->children[tail_operands_[k]];
          out = copy_ids(binding, width_, out);
          if (newest_out) newest_out->push_back(at);
          ++found.listed;
        }
        ids.resize(static_cast<std::size_t>(out - ids.data()));
        failed = true;
        break;
      }
      case Instr::Kind::Bind: {
        const ClassId in = regs[instr.in];
        if (instr.check_dtype || instr.const_only) {
          const EClass& eclass = egraph.eclass(in);
          if (eclass.dtype != instr.dtype || (instr.const_only && !eclass.known_constant)) {
            failed = true;
            break;
          }
          // A constant-only variable reads the class's facts.
          if (instr.const_only) newest = std::max(newest, eclass.changed_at);
        }
        binding[instr.var] = in;
        break;
      }
      case Instr::Kind::Check:
        failed = binding[instr.var] != regs[instr.in];
        break;
      case Instr::Kind::Const: {
        const EClass& eclass = egraph.eclass(regs[instr.in]);
        const std::optional<Value>& constant = egraph.data(eclass).constant;
        failed = eclass.dtype != instr.dtype || !constant || !(*constant == constants_[instr.constant]);
        if (!failed) newest = std::max(newest, eclass.changed_at);
        break;
      }
      case Instr::Kind::Yield:
        if (counting && newest <= seen) {
          ++found.counted;
        } else {
          // (A push per variable: a range insert was a call per match, not inlined.)
          for (std::size_t v = 0; v < width_; ++v) ids.push_back(binding[v]);
          if (newest_out) newest_out->push_back(newest);
          ++found.listed;
        }
        failed = true;
        break;
    }
    if (!failed) {
      ++pc;
    } else if (!backtrack(instr.back)) {
      return found;
    }
  }
}

MatchProgram::Found MatchProgram::run(const EGraph& egraph, ClassId id, uint32_t seen, std::vector<ClassId>& ids,
                                      std::vector<uint32_t>* newest, const OpRuns* runs) const {
  const ClassId root = egraph.find(id);
  const std::size_t start = ids.size();
  const std::size_t newest_start = newest ? newest->size() : 0;
  if (distinct_ || seen == kListAll) {
    Found found = execute(egraph, runs, root, distinct_ ? seen : kListAll, ids, newest);
    found.listed = order_matches(ids, start, found.listed, width_, newest, newest_start);
    return found;
  }
  // A pattern with constants may reach the same match two ways (two classes with the
  // same known value, until a rebuild merges them), one older than the other: the
  // match is as old as its older way. So all are listed, ordered, and then told apart.
  thread_local std::vector<ClassId> all;
  thread_local std::vector<uint32_t> all_newest;
  all.clear();
  all_newest.clear();
  const std::size_t count =
      order_matches(all, 0, execute(egraph, runs, root, kListAll, all, &all_newest).listed, width_, &all_newest, 0);
  Found found;
  for (std::size_t m = 0; m < count; ++m) {
    if (all_newest[m] <= seen) {
      ++found.counted;
      continue;
    }
    ids.insert(ids.end(), all.begin() + m * width_, all.begin() + (m + 1) * width_);
    if (newest) newest->push_back(all_newest[m]);
    ++found.listed;
  }
  return found;
}

std::string MatchProgram::listing() const {
  std::string out;
  auto reg = [](uint16_t r) { return "r" + std::to_string(r); };
  auto var = [](uint32_t v) { return "v" + std::to_string(v); };
  for (std::size_t pc = 0; pc < code_.size(); ++pc) {
    const Instr& instr = code_[pc];
    out += std::to_string(pc) + ": ";
    switch (instr.kind) {
      case Instr::Kind::Scan:
      case Instr::Kind::ListingScan:
        out += "scan " + reg(instr.in) + " " + std::string(op_info(instr.op).name) + "." +
               std::string(dtype_name(instr.dtype)) + " ->";
        for (uint16_t k = 0; k < instr.arity; ++k) out += " " + reg(static_cast<uint16_t>(instr.out + k));
        if (instr.var != kNoKey) out += " (first operand " + var(instr.var) + ")";
        if (instr.partner != kDone) out += " (first operands in " + std::to_string(instr.partner) + "'s)";
        if (instr.kind == Instr::Kind::ListingScan) out += " (lists each node)";
        break;
      case Instr::Kind::Bind:
        out += "bind " + var(instr.var) + " = " + reg(instr.in);
        if (instr.check_dtype) out += " (dtype " + std::string(dtype_name(instr.dtype)) + ")";
        if (instr.const_only) out += " (constant)";
        break;
      case Instr::Kind::Check:
        out += "check " + var(instr.var) + " == " + reg(instr.in);
        break;
      case Instr::Kind::Const:
        out += "const " + reg(instr.in) + " == " + value_text(constants_[instr.constant]);
        break;
      case Instr::Kind::Yield:
        out += "yield";
        break;
    }
    if (pc == count_from_) out += "  [counted from here]";
    out += '\n';
  }
  return out;
}

}  // namespace eqsat
