#include "verify/verify_rules.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <thread>

#include "rules/rule_digest.h"
#include "rules/rule_lock.h"
#include "verify/rule_prover.h"

namespace eqsat::verify {

std::string default_lock_path() { return std::string(EQSAT_RULES_DIR) + "/rules.lock"; }

std::vector<InstanceResult> verify_rule_set(const RuleSet& rules, const ProverOptions& options, unsigned threads,
                                            const ProgressFn& progress) {
  struct Job {
    const Rule* rule;
    std::size_t instance;
  };
  std::vector<Job> jobs;
  for (const Rule& rule : rules.rules) {
    for (std::size_t i = 0; i < rule.dtypes.size(); ++i) jobs.push_back({&rule, i});
  }
  std::vector<InstanceResult> results(jobs.size());
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex mutex;
  auto worker = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      const Job& job = jobs[i];
      InstanceResult r{job.rule, job.rule->dtypes[job.instance],
                       prove_rewrite(job.rule->rewrites[job.instance], options)};
      std::lock_guard<std::mutex> lock(mutex);
      results[i] = std::move(r);
      ++done;
      if (progress) progress(done, jobs.size(), i, results[i]);
    }
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(jobs.size(), 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  return results;
}

namespace {

// Whether the constant folder computes the same two sides on the counterexample's
// values. It may decline where Z3 does not (float min/max of NaN, huge INDEX values):
// then it neither confirms nor denies, as for a counterexample with an undefined
// variable.
std::string folder_check(const Rewrite& rewrite, const Counterexample& cex) {
  if (!cex.undefined.empty()) return "";  // the folder evaluates defined values only
  std::vector<Value> values;
  for (const auto& b : cex.vars) values.push_back(b.value);
  const std::optional<Value> lhs = fold_pattern(rewrite.lhs, values);
  const std::optional<Value> rhs = fold_pattern(rewrite.rhs, values);
  if (!lhs) return "";  // the folder declines the left side: nothing to compare
  if (lhs == cex.lhs && rhs == cex.rhs) return "";
  auto text = [](const std::optional<Value>& v) { return v ? value_text(*v) : std::string("undefined"); };
  return " [the constant folder computes lhs = " + text(lhs) + ", rhs = " + text(rhs) + "]";
}

}  // namespace

std::string result_line(const InstanceResult& r) {
  const Rule& rule = *r.rule;
  std::string line = rule.file + ":" + std::to_string(rule.line) + ": " + rule.name + " " +
                     std::string(dtype_name(r.dtype)) +
                     (rule.fast_math.none() ? "" : " {" + fast_math_text(rule.fast_math) + "}") + ": ";
  switch (r.outcome.verdict) {
    case Verdict::Proved:
      return line + "proved (" + std::string(proof_kind_name(r.outcome.kind)) + ")";
    case Verdict::Unknown:
      return line + "unknown (" + r.outcome.unknown_reason + ")";
    case Verdict::Counterexample: {
      const Rewrite* rewrite = nullptr;
      for (std::size_t i = 0; i < rule.dtypes.size(); ++i) {
        if (rule.dtypes[i] == r.dtype) rewrite = &rule.rewrites[i];
      }
      line += "counterexample: " + r.outcome.counterexample->text();
      if (rewrite) line += folder_check(*rewrite, *r.outcome.counterexample);
      return line;
    }
  }
  return line;
}

namespace {

Result<RuleSet> load_all_rules(const VerifyOptions& options) {
  if (options.files.empty()) return builtin_rules_unverified();
  return load_rule_files(options.files);
}

// The rules named by --rule (all of them when none is named).
Result<RuleSet> chosen_rules(const RuleSet& all, const VerifyOptions& options) {
  if (options.only.empty()) return all;
  RuleSet chosen;
  for (const std::string& name : options.only) {
    const Rule* rule = all.find(name);
    if (!rule) return Error{"no rule named '" + name + "'"};
    chosen.rules.push_back(*rule);
  }
  return chosen;
}

// The instances of `rules` that `lock` does not prove (new or edited since their proof);
// a rule none of whose instances is left is dropped.
RuleSet unproved_subset(const RuleSet& rules, const RuleLock& lock) {
  RuleSet out;
  for (const Rule& rule : rules.rules) {
    Rule left = rule;
    left.dtypes.clear();
    std::vector<Rewrite> instances;
    for (std::size_t i = 0; i < rule.dtypes.size(); ++i) {
      if (lock.proves(rule, rule.dtypes[i])) continue;
      left.dtypes.push_back(rule.dtypes[i]);
      instances.push_back(rule.rewrites[i]);
    }
    left.rewrites = RuleInstances(std::move(instances));
    if (!left.dtypes.empty()) out.rules.push_back(std::move(left));
  }
  return out;
}

int check_lock(const RuleSet& rules, const std::string& path, std::ostream& out, std::ostream& err) {
  Result<RuleLock> lock = load_rule_lock(path);
  if (!lock) {
    err << "eqsat: error: " << lock.error().describe() << '\n';
    return 1;
  }
  const std::vector<std::string> differences = lock_differences(rules, *lock);
  for (const std::string& d : differences) err << path << ": stale: " << d << '\n';
  if (!differences.empty()) {
    err << "eqsat: the lock file is stale; run `eqsat verify-rules --write-lock`\n";
    return 1;
  }
  out << path << ": current (" << lock->entries.size() << " proved rule instances)\n";
  return 0;
}

// Writes the lock of `all`: each instance gets this run's proof if it was proved now,
// otherwise the entry `previous` holds for it when that entry still proves it (an
// unchanged instance keeps its proof under --changed or --rule). Entries of instances that
// no longer exist are dropped.
int write_lock(const RuleSet& all, const std::vector<InstanceResult>& results, const RuleLock& previous,
               const std::string& path, std::ostream& err) {
  std::map<std::pair<std::string, DType>, const InstanceResult*> proved_now;
  for (const InstanceResult& r : results) proved_now[{r.rule->name, r.dtype}] = &r;
  RuleLock lock;
  for (const Rule& rule : all.rules) {
    for (DType dtype : rule.dtypes) {
      auto now = proved_now.find({rule.name, dtype});
      if (now != proved_now.end()) {
        lock.entries.push_back({rule.name, dtype, std::string(proof_kind_name(now->second->outcome.kind)),
                                rule_digest(rule, dtype), rule.fast_math});
      } else if (previous.proves(rule, dtype)) {
        lock.entries.push_back(*previous.find(rule.name, dtype));
      }
    }
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << format_rule_lock(lock);
  if (!file.flush()) {
    err << "eqsat: error: " << path << ": cannot write the lock file\n";
    return 1;
  }
  err << "eqsat: wrote " << path << " (" << lock.entries.size() << " rule instances, " << results.size()
      << " proved by this run)\n";
  return 0;
}

}  // namespace

int run_verify_rules(const VerifyOptions& options, std::ostream& out, std::ostream& err) {
  Result<RuleSet> all = load_all_rules(options);
  if (!all) {
    err << "eqsat: error: " << all.error().describe() << '\n';
    return 1;
  }
  Result<RuleSet> rules = chosen_rules(*all, options);
  if (!rules) {
    err << "eqsat: error: " << rules.error().describe() << '\n';
    return 1;
  }
  const std::string lock_path = options.lock_path.empty() ? default_lock_path() : options.lock_path;
  if (options.check_lock) return check_lock(*all, lock_path, out, err);

  // The lock as it is: what --changed skips and what --write-lock keeps for instances
  // this run does not prove. A lock file that does not exist yet is an empty lock.
  RuleLock previous;
  if (options.changed || options.write_lock) {
    if (std::filesystem::exists(lock_path)) {
      Result<RuleLock> loaded = load_rule_lock(lock_path);
      if (loaded) {
        previous = std::move(loaded).value();
      } else if (options.changed) {
        err << "eqsat: error: " << loaded.error().describe() << '\n';
        return 1;
      } else {
        // A full run proves everything anyway: a broken lock (say, merge conflict
        // markers) is replaced, not a reason to stop.
        err << "eqsat: warning: ignoring the unreadable lock: " << loaded.error().describe() << '\n';
      }
    }
  }
  if (options.changed) {
    rules = unproved_subset(*rules, previous);
    std::size_t kept = 0;
    for (const Rule& rule : all->rules) {
      for (DType dtype : rule.dtypes) kept += previous.proves(rule, dtype) ? 1 : 0;
    }
    out << lock_path << ": " << kept << " rule instances proved and unchanged, not proved again\n";
  }

  // Lines go out in file order as soon as every earlier instance is done.
  std::vector<const InstanceResult*> finished;
  std::size_t printed = 0;
  const bool terminal = options.progress && isatty(STDERR_FILENO);
  std::size_t total_instances = 0;
  for (const Rule& rule : rules->rules) total_instances += rule.dtypes.size();
  finished.assign(total_instances, nullptr);

  std::vector<InstanceResult> results = verify_rule_set(
      *rules, options.prover, options.threads,
      [&](std::size_t done, std::size_t total, std::size_t index, const InstanceResult& r) {
        finished[index] = &r;
        if (terminal) err << "\r\033[K";
        for (; printed < finished.size() && finished[printed]; ++printed)
          out << result_line(*finished[printed]) << '\n';
        out.flush();
        if (terminal && done < total) {
          err << "[" << done << "/" << total << "] " << r.rule->name << " " << dtype_name(r.dtype) << std::flush;
        }
      });

  std::size_t exact = 0, fallback = 0, reassoc = 0, refuted = 0, unknown = 0;
  for (const InstanceResult& r : results) {
    switch (r.outcome.verdict) {
      case Verdict::Proved:
        ++(r.outcome.kind == ProofKind::Exact ? exact : r.outcome.kind == ProofKind::BvFallback ? fallback : reassoc);
        break;
      case Verdict::Counterexample:
        ++refuted;
        break;
      case Verdict::Unknown:
        ++unknown;
        break;
    }
  }
  out << results.size() << " rule instances: " << exact + fallback + reassoc << " proved (" << exact << " exact, "
      << fallback << " bv-fallback";
  if (reassoc > 0) out << ", " << reassoc << " assumed-reassoc";
  out << "), " << refuted << " refuted, " << unknown << " unknown\n";
  out.flush();
  const bool all_proved = refuted == 0 && unknown == 0;
  if (options.write_lock) {
    if (!all_proved) {
      err << "eqsat: error: not writing " << lock_path << ": some rule instances are not proved\n";
      return 1;
    }
    return write_lock(*all, results, previous, lock_path, err);
  }
  return all_proved ? 0 : 1;
}

}  // namespace eqsat::verify
