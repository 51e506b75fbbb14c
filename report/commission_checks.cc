// The verdict per check. A cluster passes when every check passes. Each finding weighs what its
// kind declares where the kind is defined (graph/finding_kind.h: fail on what breaks jobs or
// Slurm, warn on what needs a look but may be on purpose, info for what slurmtopo decided);
// this file only adds them up, and adds the checks of Slurm's files, the topology in service
// and the baseline.
#include <map>
#include <set>
#include <string_view>

#include "base/text.h"
#include "report/commission.h"

namespace slurmtopo {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "pass";
    case Verdict::Warn: return "warn";
    case Verdict::Fail: return "fail";
  }
  return "?";
}

Finding make_finding(std::string source, const FindingKind& kind, std::string subject, std::string detail, int count) {
  return {std::move(source), kind.name, std::move(subject), std::move(detail), kind.check, kind.severity, count};
}

namespace {

Verdict worst(Verdict a, Verdict b) { return static_cast<int>(a) > static_cast<int>(b) ? a : b; }

Verdict verdict_of(Severity s) {
  switch (s) {
    case Severity::Info: return Verdict::Pass;
    case Severity::Warn: return Verdict::Warn;
    case Severity::Fail: return Verdict::Fail;
  }
  return Verdict::Warn;
}

// "74 unresolved-hca, 1 partial-host (info)": per kind, the things its findings are about.
std::string found_text(const std::map<std::string, std::pair<int, Severity>>& kinds) {
  std::string out;
  for (const auto& [k, n] : kinds)
    out += (out.empty() ? "" : ", ") + std::to_string(n.first) + " " + k +
           (n.second == Severity::Info ? " (info)" : "");
  return out;
}

}  // namespace

void decide_checks(CommissionReport& r) {
  r.checks.clear();
  // The finding checks, in graph/'s order; each finding decides the check its kind declares.
  for (const FindingCheck& fc : finding_checks()) {
    if (std::string_view(fc.id) == "nodes.layout" && r.classes.empty()) continue;
    Check c{fc.id, fc.what, "", Verdict::Pass, 0};
    std::map<std::string, std::pair<int, Severity>> kinds;
    bool any = false;
    for (const Finding& f : r.findings) {
      if (f.check != fc.id) continue;
      any = true;
      if (f.severity != Severity::Info) c.count += f.count;
      auto& k = kinds.try_emplace(f.kind, 0, f.severity).first->second;
      k.first += f.count;
      c.verdict = worst(c.verdict, verdict_of(f.severity));
    }
    // A check nothing can decide is left out (FindingCheck::always): "fabric.errors" without
    // port counters, "performance.profile" without a profile, …
    if (!any && !fc.always && !r.applicable.count(fc.id)) continue;
    c.found = kinds.empty() ? "nothing wrong" : found_text(kinds);
    r.checks.push_back(std::move(c));
  }
  for (const SlurmFile& f : r.slurm) {
    if (f.check.empty()) continue;
    Check c{f.check, "the generated " + f.name + " passes " + f.checked_by + "'s checks", "", Verdict::Pass,
            static_cast<int>(f.errors.size() + f.warnings.size())};
    c.verdict = !f.errors.empty() ? Verdict::Fail : !f.warnings.empty() ? Verdict::Warn : Verdict::Pass;
    c.found = counted(f.errors.size(), "error", "errors") + ", " + counted(f.warnings.size(), "warning", "warnings");
    r.checks.push_back(std::move(c));
  }
  if (!r.topology_in_service.empty()) {
    Check c{"slurm.in-service",
            "the topology file in service (" + r.topology_in_service + ") matches the generated " +
                r.topology_compared_with,
            "", r.topology_diff.empty() ? Verdict::Pass : Verdict::Warn, static_cast<int>(r.topology_diff.size())};
    c.found = r.topology_diff.empty() ? "no difference"
                                     : std::to_string(r.topology_diff.size()) +
                                           (r.topology_diff.size() == 1 ? " difference" : " differences");
    r.checks.push_back(std::move(c));
  }
  if (r.baseline) {
    const BaselineDiff& b = *r.baseline;
    // A new finding that is information only (a storage leaf recognised) changes nothing to act on.
    int fresh = 0;
    for (int i : b.new_findings) fresh += r.findings[i].severity != Severity::Info;
    Check c{"baseline", "nothing new since " + b.source, "", Verdict::Pass,
            static_cast<int>(fresh + b.hosts_gone.size() + b.cables_gone.size())};
    c.verdict = c.count ? Verdict::Warn : Verdict::Pass;
    c.found = std::to_string(b.new_findings.size()) + " new findings, " + std::to_string(b.fixed.size()) + " fixed, " +
              std::to_string(b.hosts_gone.size()) + " hosts and " + std::to_string(b.cables_gone.size()) +
              " cables gone";
    r.checks.push_back(std::move(c));
  }
  r.verdict = Verdict::Pass;
  for (const Check& c : r.checks) r.verdict = worst(r.verdict, c.verdict);
}

}  // namespace slurmtopo
