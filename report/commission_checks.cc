// What each finding means for a handover. A cluster passes when every check passes; a check
// fails on what breaks jobs or Slurm (a bad cable, a rail on the wrong leaf, a file Slurm
// would refuse) and warns on what needs a look but may be on purpose (an HCA without a host
// name, separate fabrics, a file that differs from the one in service).
#include <map>
#include <set>

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

namespace {

struct Rule {
  const char* id;
  const char* what;
  std::set<std::string> fail, warn;  // finding kinds
};

// The finding kinds (graph/cluster.h, graph/node_join.h to_string) per check.
const std::vector<Rule>& rules() {
  static const std::vector<Rule> r{
      {"fabric.sweep", "the sweep reached every node, one fabric per subnet", {"partial-sweep"}, {"split-fabrics"}},
      {"fabric.cabling", "every cable runs at the fabric's width and speed, none loops back or joins two leaves",
       {"degraded-link", "loopback", "leaf-to-leaf"}, {}},
      {"fabric.uplinks", "every leaf has as many uplinks as its peers", {"missing-uplinks"}, {}},
      {"fabric.rails", "every host has every rail, each on its rail's leaf", {"missing-rail", "miscabled-rail"},
       {"secondary-leaf"}},
      {"fabric.hcas", "every HCA names its host", {}, {"unresolved-hca"}},
      {"nodes.layout", "every GPU has a near NIC, hosts of a class agree, GPU k of every host is on rail k's leaf",
       {"rail-leaf", "class-layout", "not-in-fabric", "nic-identity"}, {"no-close-nic", "shared-nic", "remote-nic"}},
  };
  return r;
}

Verdict worst(Verdict a, Verdict b) { return static_cast<int>(a) > static_cast<int>(b) ? a : b; }

}  // namespace

void decide_checks(CommissionReport& r) {
  r.checks.clear();
  for (const Rule& rule : rules()) {
    if (std::string(rule.id) == "nodes.layout" && r.classes.empty()) continue;
    Check c{rule.id, rule.what, "", Verdict::Pass, 0};
    std::map<std::string, int> kinds;
    for (const Finding& f : r.findings) {
      const bool fails = rule.fail.count(f.kind), warns = rule.warn.count(f.kind);
      if (!fails && !warns) continue;
      ++c.count;
      ++kinds[f.kind];
      c.verdict = worst(c.verdict, fails ? Verdict::Fail : Verdict::Warn);
    }
    for (const auto& [k, n] : kinds) c.found += (c.found.empty() ? "" : ", ") + std::to_string(n) + " " + k;
    if (c.found.empty()) c.found = "nothing wrong";
    r.checks.push_back(std::move(c));
  }
  // Kinds no rule knows (a newer graph/ than this table): a look, not a pass.
  {
    std::set<std::string> known;
    for (const Rule& rule : rules()) known.insert(rule.fail.begin(), rule.fail.end()), known.insert(rule.warn.begin(), rule.warn.end());
    Check c{"other", "no other finding", "", Verdict::Pass, 0};
    std::map<std::string, int> kinds;
    for (const Finding& f : r.findings)
      if (!known.count(f.kind)) ++c.count, ++kinds[f.kind];
    for (const auto& [k, n] : kinds) c.found += (c.found.empty() ? "" : ", ") + std::to_string(n) + " " + k;
    if (c.count) {
      c.verdict = Verdict::Warn;
      r.checks.push_back(std::move(c));
    }
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
    Check c{"baseline", "nothing new since " + b.source, "", Verdict::Pass,
            static_cast<int>(b.new_findings.size() + b.hosts_gone.size() + b.cables_gone.size())};
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
