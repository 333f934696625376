#include "rules/catalogue_image.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace eqsat {

namespace {

// The layout, field by field, is the order of the calls below; integers are little
// endian (the build and the program run on the same machine, but a fixed order keeps
// the image a function of the rules alone). Change kFormat with the layout.
constexpr std::string_view kMagic = "EQSATCAT";
constexpr uint32_t kFormat = 1;

class ImageWriter {
 public:
  void u8(uint8_t value) { out_.push_back(static_cast<char>(value)); }
  void u32(uint32_t value) {
    for (int shift = 0; shift < 32; shift += 8) u8(static_cast<uint8_t>(value >> shift));
  }
  void u64(uint64_t value) {
    for (int shift = 0; shift < 64; shift += 8) u8(static_cast<uint8_t>(value >> shift));
  }
  void i128(Int value) {
    const auto bits = static_cast<UInt>(value);
    u64(static_cast<uint64_t>(bits));
    u64(static_cast<uint64_t>(bits >> 64));
  }
  void f64(double value) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    u64(bits);
  }
  void text(std::string_view value) {
    u32(static_cast<uint32_t>(value.size()));
    out_.append(value);
  }
  void count(std::size_t n) { u32(static_cast<uint32_t>(n)); }

  void pattern(const Pattern& p) {
    count(p.nodes.size());
    for (const PatternNode& node : p.nodes) {
      u8(static_cast<uint8_t>(node.kind));
      u8(static_cast<uint8_t>(node.op));
      u8(static_cast<uint8_t>(node.dtype));
      u8(static_cast<uint8_t>(node.children.size()));
      for (uint32_t child : node.children) u32(child);
      u32(node.var);
      u32(node.constant);
    }
    count(p.constants.size());
    for (const Value& value : p.constants) {
      u8(static_cast<uint8_t>(value.dtype));
      i128(value.i);
      f64(value.f);
    }
    u32(p.root);
  }

  void guard(const Guard& g) {
    count(g.nodes.size());
    for (const GuardNode& node : g.nodes) {
      u8(static_cast<uint8_t>(node.kind));
      u8(static_cast<uint8_t>(node.op));
      i128(node.literal);
      u32(node.var);
      u8(static_cast<uint8_t>(node.children.size()));
      for (uint32_t child : node.children) u32(child);
    }
    u32(g.root);
    text(g.text);
  }

  void rewrite(const Rewrite& r) {
    text(r.name);
    u8(r.fast_math.bits());
    u8(static_cast<uint8_t>(r.vars.size()));
    for (const PatternVar& var : r.vars) {
      text(var.name);
      u8(static_cast<uint8_t>(var.dtype));
      u8(var.const_only ? 1 : 0);
    }
    pattern(r.lhs);
    pattern(r.rhs);
    u8(r.guard ? 1 : 0);
    if (r.guard) guard(*r.guard);
  }

  void rule(const Rule& r) {
    text(r.name);
    text(r.file);
    u32(static_cast<uint32_t>(r.line));
    text(r.comment);
    text(r.scope_text);
    u8(r.fast_math.bits());
    text(r.lhs_text);
    text(r.rhs_text);
    text(r.guard_text);
    u8(static_cast<uint8_t>(r.dtypes.size()));
    for (DType dtype : r.dtypes) u8(static_cast<uint8_t>(dtype));
    count(r.rewrites.size());
    for (const Rewrite& rewrite : r.rewrites) this->rewrite(rewrite);
  }

  std::string take() && { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what ImageWriter wrote. Every read checks that the bytes are there and every
// enumeration and index that its value is in range; the first that is not makes the
// reader `failed` (and every read after it return zeros), so that an image of another
// format is refused, never half read.
class ImageReader {
 public:
  explicit ImageReader(std::string_view bytes) : bytes_(bytes) {}

  bool failed() const { return failed_; }
  bool at_end() const { return pos_ == bytes_.size(); }
  void fail() { failed_ = true; }

  bool take_magic() {
    if (bytes_.substr(0, kMagic.size()) != kMagic) return false;
    pos_ = kMagic.size();
    return true;
  }

  uint8_t u8() {
    if (failed_ || pos_ >= bytes_.size()) {
      failed_ = true;
      return 0;
    }
    return static_cast<uint8_t>(bytes_[pos_++]);
  }
  uint32_t u32() {
    uint32_t value = 0;
    for (int shift = 0; shift < 32; shift += 8) value |= uint32_t{u8()} << shift;
    return value;
  }
  uint64_t u64() {
    uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 8) value |= uint64_t{u8()} << shift;
    return value;
  }
  Int i128() {
    const UInt low = u64();
    const UInt high = u64();
    return static_cast<Int>(low | (high << 64));
  }
  double f64() {
    const uint64_t bits = u64();
    double value = 0;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  std::string text() {
    const uint32_t size = u32();
    if (failed_ || size > bytes_.size() - pos_) {
      failed_ = true;
      return {};
    }
    std::string value(bytes_.substr(pos_, size));
    pos_ += size;
    return value;
  }
  // A count of items that each take at least `min_bytes` more of the image: a count
  // the rest of the image cannot hold is refused before anything is reserved for it.
  uint32_t count(std::size_t min_bytes) {
    const uint32_t n = u32();
    if (!failed_ && n > (bytes_.size() - pos_) / min_bytes) failed_ = true;
    return failed_ ? 0 : n;
  }
  // `value` if it is below `limit`; else the reader fails and it is 0 (the reads after
  // a failure must not act on the bad value, as a count of operands).
  uint32_t below(uint32_t value, std::size_t limit) {
    if (value < limit) return value;
    failed_ = true;
    return 0;
  }
  DType dtype() { return static_cast<DType>(below(u8(), kNumDTypes)); }
  Op op() { return static_cast<Op>(below(u8(), kNumOps)); }
  FastMath fast_math() {
    const uint8_t bits = static_cast<uint8_t>(below(u8(), FastMath::all().bits() + 1u));
    FastMath flags;
    for (FastMathFlag flag : {FastMathFlag::Nsz, FastMathFlag::Nnan, FastMathFlag::Ninf, FastMathFlag::Reassoc}) {
      if (bits & static_cast<uint8_t>(flag)) flags |= flag;
    }
    return flags;
  }

  Pattern pattern(std::size_t num_vars) {
    Pattern p;
    const uint32_t num_nodes = count(4 + 4 + 4);  // its bytes, operation and dtype, var, constant
    p.nodes.resize(num_nodes);
    for (uint32_t i = 0; i < num_nodes && !failed_; ++i) {
      PatternNode& node = p.nodes[i];
      node.kind = static_cast<PatternNode::Kind>(below(u8(), 3));
      node.op = op();
      node.dtype = dtype();
      const uint8_t arity = static_cast<uint8_t>(below(u8(), InlineChildren<uint32_t>::kCapacity + 1));
      // Children come before their parents.
      for (uint8_t c = 0; c < arity; ++c) node.children.push_back(below(u32(), i));
      node.var = u32();
      node.constant = u32();
      if (node.kind == PatternNode::Kind::Var) below(node.var, num_vars);
    }
    const uint32_t num_constants = count(1 + 16 + 8);
    p.constants.resize(num_constants);
    for (Value& value : p.constants) {
      value.dtype = dtype();
      value.i = i128();
      value.f = f64();
    }
    for (const PatternNode& node : p.nodes) {
      if (node.kind == PatternNode::Kind::Const) below(node.constant, num_constants);
    }
    p.root = below(u32(), num_nodes);
    return p;
  }

  Guard guard(std::size_t num_vars) {
    Guard g;
    const uint32_t num_nodes = count(2 + 16 + 4 + 1);
    g.nodes.resize(num_nodes);
    for (uint32_t i = 0; i < num_nodes && !failed_; ++i) {
      GuardNode& node = g.nodes[i];
      node.kind = static_cast<GuardNode::Kind>(below(u8(), static_cast<uint32_t>(GuardNode::Kind::Apply) + 1));
      node.op = op();
      node.literal = i128();
      node.var = u32();
      if (node.kind != GuardNode::Kind::Literal && node.kind != GuardNode::Kind::Apply) below(node.var, num_vars);
      const uint8_t arity = u8();
      for (uint8_t c = 0; c < arity && !failed_; ++c) node.children.push_back(below(u32(), i));
    }
    g.root = below(u32(), num_nodes);
    g.text = text();
    return g;
  }

  Rewrite rewrite() {
    Rewrite r;
    r.name = text();
    r.fast_math = fast_math();
    const uint8_t num_vars = u8();
    r.vars.resize(num_vars);
    for (PatternVar& var : r.vars) {
      var.name = text();
      var.dtype = dtype();
      var.const_only = below(u8(), 2) != 0;
    }
    r.lhs = pattern(num_vars);
    r.rhs = pattern(num_vars);
    if (below(u8(), 2) != 0) r.guard = guard(num_vars);
    return r;
  }

  // A rule without its instances, which go into `instances`; returns how many it has.
  uint32_t rule(Rule& r) {
    r.name = text();
    r.file = text();
    r.line = static_cast<int>(u32());
    r.comment = text();
    r.scope_text = text();
    r.fast_math = fast_math();
    r.lhs_text = text();
    r.rhs_text = text();
    r.guard_text = text();
    const uint8_t num_dtypes = u8();
    r.dtypes.resize(num_dtypes);
    for (DType& dtype : r.dtypes) dtype = this->dtype();
    return u32();
  }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
  bool failed_ = false;
};

}  // namespace

std::string write_catalogue_image(const RuleSet& rules) {
  ImageWriter out;
  for (char c : kMagic) out.u8(static_cast<uint8_t>(c));
  out.u32(kFormat);
  out.count(rules.rules.size());
  std::size_t total = 0;
  for (const Rule& rule : rules.rules) total += rule.rewrites.size();
  out.count(total);
  for (const Rule& rule : rules.rules) out.rule(rule);
  return std::move(out).take();
}

std::optional<RuleSet> read_catalogue_image(std::string_view image) {
  ImageReader in(image);
  if (!in.take_magic() || in.u32() != kFormat) return std::nullopt;
  // A rule takes at least 38 bytes of the image (its texts' lengths and counts), an
  // instance at least 20.
  const uint32_t num_rules = in.count(38);
  const uint32_t num_rewrites = in.count(20);
  auto storage = std::make_shared<std::vector<Rewrite>>();
  storage->reserve(num_rewrites);
  std::vector<std::pair<std::size_t, std::size_t>> stretches;  // first, count per rule
  stretches.reserve(num_rules);
  RuleSet set;
  set.rules.resize(num_rules);
  for (Rule& rule : set.rules) {
    const uint32_t num_instances = in.rule(rule);
    if (in.failed() || num_instances > num_rewrites - storage->size()) return std::nullopt;
    stretches.emplace_back(storage->size(), num_instances);
    for (uint32_t i = 0; i < num_instances && !in.failed(); ++i) storage->push_back(in.rewrite());
  }
  if (in.failed() || !in.at_end() || storage->size() != num_rewrites) return std::nullopt;
  const std::shared_ptr<const std::vector<Rewrite>> shared = std::move(storage);
  for (std::size_t i = 0; i < set.rules.size(); ++i) {
    set.rules[i].rewrites = RuleInstances(shared, stretches[i].first, stretches[i].second);
  }
  return set;
}

}  // namespace eqsat
