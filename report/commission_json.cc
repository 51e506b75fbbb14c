// The report as JSON (docs/report-json.md): the same facts and verdicts as the page, keys in a
// fixed order, numbers rounded to what the page shows, so the same input gives the same bytes.
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "report/cabling_plan_summary.h"
#include "report/commission.h"
#include "report/measured_report.h"
#include "report/port_counters_json.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

using json = nlohmann::ordered_json;

double rounded(double v) { return std::round(v * 1000.0) / 1000.0; }

json rows(const std::vector<CountRow>& r) {
  json out = json::array();
  for (const auto& x : r) out.push_back({{"name", x.name}, {"count", x.count}});
  return out;
}

json inventory(const Inventory& i) {
  json fabrics = json::array();
  for (const auto& f : i.fabrics)
    fabrics.push_back({{"name", f.name}, {"source", f.source},
                       {"captured", f.captured.empty() ? json(nullptr) : json(f.captured)},
                       {"switches", f.switches}, {"cas", f.cas},
                       {"cables", f.cables}, {"components", f.components}, {"partial", f.partial}});
  return {{"fabrics", fabrics}, {"switches_by_level", rows(i.switches_by_level)},
          {"switches_by_model", rows(i.switches_by_model)}, {"chassis", i.chassis}, {"hcas", i.hcas},
          {"unresolved_hcas", i.unresolved_hcas}, {"hosts", i.hosts}, {"groups", i.groups},
          {"aggregation_nodes", i.aggregation_nodes}, {"rails", rows(i.rails)}, {"node_classes", rows(i.node_classes)}};
}

json finding(const Finding& f) {
  return {{"source", f.source}, {"kind", f.kind},   {"subject", f.subject}, {"detail", f.detail},
          {"check", f.check},   {"severity", to_string(f.severity)}, {"count", f.count}};
}

json drawing(const Drawing& d) {
  json levels = json::array();
  for (const auto& level : d.levels) {
    json boxes = json::array();
    for (const auto& b : level)
      boxes.push_back({{"label", b.label}, {"members", b.members}, {"hosts", b.hosts}, {"findings", b.findings}});
    levels.push_back(boxes);
  }
  json edges = json::array();
  for (const auto& e : d.edges)
    edges.push_back({{"lower", e.lower}, {"upper", e.upper}, {"cables", e.cables}, {"flagged", e.flagged}});
  return {{"levels", levels}, {"edges", edges}, {"unplaced", d.unplaced}};
}

json classes(const std::vector<ClassNodes>& cs) {
  json out = json::array();
  for (const auto& c : cs) {
    json gpus = json::array();
    for (const auto& g : c.per_gpu)
      gpus.push_back({{"gpu", g.index}, {"nic", g.nic}, {"path", g.path}, {"link_layer", g.link_layer},
                      {"rail", g.rail}, {"leaves", g.leaves}, {"cores", g.cores}});
    out.push_back({{"hosts", c.hostlist}, {"representative", c.host}, {"summary", c.summary},
                   {"devices", [&] { json d = c.gpus; for (const auto& n : c.nics) d.push_back(n); return d; }()},
                   {"matrix", c.matrix}, {"gpus", gpus}, {"nccl_ib_hca", c.nccl_ib_hca}, {"node_line", c.node_line}});
  }
  return out;
}

json performance(const std::optional<Performance>& p) {
  if (!p) return nullptr;
  json curves = json::array();
  for (const auto& c : p->curves) {
    json points = json::array();
    for (size_t i = 0; i < c.bytes.size(); ++i) points.push_back({{"bytes", c.bytes[i]}, {"busbw_gbs", rounded(c.busbw_gbs[i])}});
    curves.push_back({{"name", c.name}, {"nodes", c.nodes}, {"limit_gbs", rounded(c.limit_gbs)},
                      {"limit", c.limit_what}, {"points", points}});
  }
  json sp = nullptr;
  if (p->spread_packed) {
    const auto& s = *p->spread_packed;
    json jobs = json::array();
    for (const auto& job : s.jobs) {
      json policies = json::array();
      for (const auto& row : job.policies)
        policies.push_back({{"policy", row.policy}, {"started", row.started}, {"reason", row.reason},
                            {"hostlist", row.hostlist}, {"leaves", row.leaves}, {"groups", row.groups},
                            {"busbw_gbs", row.busbw_gbs ? json(rounded(*row.busbw_gbs)) : json(nullptr)},
                            {"loss", row.loss ? json(rounded(*row.loss)) : json(nullptr)}});
      auto name = [&](int i) { return i < 0 ? json(nullptr) : json(job.policies[i].policy); };
      jobs.push_back({{"nodes", job.nodes}, {"packed", name(job.packed)}, {"spread", name(job.spread)},
                      {"policies", policies}});
    }
    sp = {{"bytes", s.bytes}, {"seed", s.seed}, {"placed_with", s.placed_with}, {"busy", s.busy}, {"jobs", jobs}};
  }
  return {{"collective", "allreduce"}, {"profile", p->profile}, {"routing", p->routing}, {"curves", curves},
          {"spread_vs_packed", sp}, {"warnings", p->warnings}};
}

json baseline(const std::optional<BaselineDiff>& b, const std::vector<Finding>& findings) {
  if (!b) return nullptr;
  json fresh = json::array(), open = json::array(), fixed = json::array();
  for (int i : b->new_findings) fresh.push_back(finding(findings[i]));
  for (int i : b->still_open) open.push_back(finding(findings[i]));
  for (const auto& f : b->fixed) fixed.push_back(finding(f));
  return {{"source", b->source}, {"new", fresh}, {"fixed", fixed}, {"still_open", open},
          {"hosts_added", b->hosts_added}, {"hosts_gone", b->hosts_gone},
          {"cables_added", b->cables_added}, {"cables_gone", b->cables_gone}};
}

}  // namespace

std::string commission_json(const CommissionReport& r) {
  json j;
  j["format"] = "slurmtopo-report";
  j["slurmtopo_version"] = slurmtopo_version();  // base/json_fields.h kSlurmtopoVersionKey
  j["schema_version"] = kReportSchemaVersion;
  j["command"] = r.command;
  j["cluster"] = r.cluster.empty() ? json(nullptr) : json({{"name", r.cluster}, {"from", r.cluster_from}});
  j["verdict"] = to_string(r.verdict);
  j["exit_code"] = r.exit_code();
  json checks = json::array();
  for (const auto& c : r.checks)
    checks.push_back({{"id", c.id}, {"verdict", to_string(c.verdict)}, {"what", c.what}, {"found", c.found},
                      {"count", c.count}});
  j["checks"] = checks;
  j["inventory"] = inventory(r.inventory);
  json findings = json::array();
  for (const auto& f : r.findings) findings.push_back(finding(f));
  j["findings"] = findings;
  j["drawing"] = drawing(r.drawing);
  json leaves = json::array();
  for (const auto& l : r.leaves)
    leaves.push_back({{"leaf", l.leaf}, {"group", l.group}, {"host_ports", l.host_ports}, {"uplinks", l.uplinks},
                      {"peer_uplinks", l.peer_uplinks}, {"down_gbps", rounded(l.down_gbps)},
                      {"up_gbps", rounded(l.up_gbps)}});
  j["leaves"] = leaves;
  std::vector<std::string> fabric_names;
  for (const auto& f : r.inventory.fabrics) fabric_names.push_back(f.name);
  add_port_counters_json(j, r.counter_sources, r.cable_health, fabric_names);  // as inspect --json
  // The plans as inspect --json gives them, with each switch's unit, the units' totals and the
  // plan's findings (indices into "findings").
  std::vector<PlanSummary> summaries;
  for (const PlanSection& p : r.plans) summaries.push_back(p.summary);
  add_plans_json(j, summaries);
  for (size_t k = 0; k < r.plans.size(); ++k) {
    json& plan = j["plans"][k];
    std::map<std::string, std::string> unit;
    for (const PlanSwitchRow& row : r.plans[k].switches) unit[row.name] = row.unit;
    for (json& sw : plan["switches"]) sw["unit"] = unit[sw["name"].get<std::string>()];
    json units = json::array();
    for (const PlanUnitRow& u : r.plans[k].units)
      units.push_back({{"unit", u.unit}, {"switches", u.switches}, {"planned", u.planned}, {"present", u.present},
                       {"findings", u.findings}});
    plan["units"] = std::move(units);
    plan["finding_indices"] = r.plans[k].findings;
  }
  j["node_classes"] = classes(r.classes);
  j["node_warnings"] = r.node_warnings;
  j["performance"] = performance(r.performance);
  j["measured"] = r.measured ? json{{"source", r.measured->source}, {"profile", r.measured->profile},
                                    {"routing", r.measured->routing}, {"runs", measured_runs_json(r.measured->runs)},
                                    {"probe_steps", probe_steps_json(r.measured->probe_steps, r.measured->runs)},
                                    {"warnings", r.measured->warnings}}
                             : json(nullptr);
  json slurm = json::array();
  for (const auto& f : r.slurm)
    slurm.push_back({{"name", f.name}, {"check", f.check.empty() ? json(nullptr) : json(f.check)},
                     {"errors", f.errors}, {"warnings", f.warnings}, {"text", f.text}});
  j["slurm"] = slurm;
  j["topology_diff"] = r.topology_in_service.empty()
                           ? json(nullptr)
                           : json{{"against", r.topology_in_service}, {"compared_with", r.topology_compared_with},
                                  {"lines", r.topology_diff}};
  j["baseline"] = baseline(r.baseline, r.findings);
  j["hosts"] = compress_hostlist(r.hosts);
  j["cables"] = r.cables;
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace slurmtopo
