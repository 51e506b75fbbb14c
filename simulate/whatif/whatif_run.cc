#include "simulate/whatif/whatif_run.h"

#include <cmath>

#include "base/input_error.h"
#include "simulate/whatif/route_changes.h"
#include "simulate/whatif/seeded_random.h"
#include "simulate/whatif/whatif_policies.h"
#include "simulate/whatif/workload_replay.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

using json = nlohmann::ordered_json;

json number(double x) { return std::isfinite(x) ? json(std::round(x * 1000) / 1000 + 0.0) : json(nullptr); }

uint64_t unit_seed(uint64_t seed, int unit) { return seed * 1000003u + static_cast<uint64_t>(unit); }

// Placements to cost in one batch per case, and where each answer goes.
struct Batch {
  std::vector<std::vector<std::string>> placements;
  std::vector<json*> targets;
  bool bottlenecks = false;  // edits: say what limits each placement, before and after
  void cost(PlacementCosts* costs, unsigned threads) {
    if (!costs) return;
    const std::vector<PlacementCosts::Cost> found = costs->costs(placements, threads);
    for (size_t i = 0; i < found.size(); ++i) {
      (*targets[i])["busbw_gbs"] = number(found[i].busbw);
      if (bottlenecks) (*targets[i])["bottleneck"] = found[i].bottleneck;
    }
  }
};

json placement_json(const WhatifCase& c, const PolicyPlacement& p) {
  json j;
  j["policy"] = to_string(p.policy);
  if (p.nodes.empty()) {
    j["started"] = false;
    j["reason"] = p.reason;
    return j;
  }
  j["started"] = true;
  j["hostlist"] = compress_hostlist(c.names_of(p.nodes));
  j["leaves"] = p.leaves;
  j["groups"] = p.groups;
  j["busbw_gbs"] = nullptr;
  return j;
}

json distribution_json(const Distribution& d) {
  return {{"count", d.count}, {"mean", number(d.mean)}, {"p50", number(d.p50)},
          {"p90", number(d.p90)}, {"p99", number(d.p99)}, {"max", number(d.max)}};
}

json metrics_json(const ReplayMetrics& m) {
  return {{"jobs", m.jobs},
          {"started", m.started},
          {"backfilled", m.backfilled},
          {"multi_node", m.multi_node},
          {"span_leaves", m.span_leaves},
          {"span_groups", m.span_groups},
          {"slowdown", distribution_json(m.slowdown)},
          {"slowed", m.slowed},
          {"busbw_gbs", distribution_json(m.busbw)},
          {"fragmentation", number(m.fragmentation)},
          {"utilisation", number(m.utilisation)},
          {"mean_wait_s", number(m.mean_wait)},
          {"p90_wait_s", number(m.p90_wait)},
          {"makespan_s", m.makespan}};
}

std::vector<char> busy_of(const WhatifCase& c, const std::vector<std::string>& names) {
  std::vector<char> busy(c.node_names().size(), 0);
  for (const auto& n : names) {
    const int i = c.slurm->node_index(n);
    if (i < 0) throw InputError("--busy", 0, "node " + n + " is not in --nodes");
    busy[i] = 1;
  }
  return busy;
}

struct Variant {
  const char* name;
  bool after;
  Policy policy;
};
constexpr Variant kVariants[] = {
    {"slurm", false, Policy::Slurm}, {"no-topology", false, Policy::NoTopology}, {"slurm after edits", true, Policy::Slurm}};

}  // namespace

const char* to_string(WhatifMode mode) {
  switch (mode) {
    case WhatifMode::Policies: return "policies";
    case WhatifMode::Edits: return "edits";
    case WhatifMode::Replay: return "replay";
  }
  return "?";
}

WhatifMode whatif_mode(const WhatifRequest& r) {
  if (r.workload) return WhatifMode::Replay;
  return r.edits.empty() ? WhatifMode::Policies : WhatifMode::Edits;
}

int whatif_units(const WhatifRequest& r) {
  switch (whatif_mode(r)) {
    case WhatifMode::Policies: return static_cast<int>(r.sizes.size());
    case WhatifMode::Edits: return r.samples;
    case WhatifMode::Replay: return r.edits.empty() ? 2 : 3;
  }
  return 0;
}

json whatif_run_header(const WhatifRequest& r, const WhatifInputs& in, const std::vector<std::string>& sources) {
  json h;
  h["command"] = "slurmtopo whatif";
  h["mode"] = to_string(whatif_mode(r));
  h["fabric"] = sources;
  h["nodes"] = in.before->node_names().size();
  h["topology"] = in.before->placed_with;
  if (!r.slurm_release.empty()) h["slurm"] = r.slurm_release;
  if (in.before_costs) {
    h["profile"] = in.before_costs->profile().name;
    h["size"] = format_size(in.before_costs->bytes());
  }
  h["seed"] = r.seed;
  if (whatif_mode(r) != WhatifMode::Replay) h["sizes"] = r.sizes;
  if (whatif_mode(r) != WhatifMode::Replay) h["busy"] = compress_hostlist(r.busy);
  if (whatif_mode(r) == WhatifMode::Edits) {
    h["samples"] = r.samples;
    h["max_busy_share"] = r.max_busy_share;
  }
  h["edits"] = describe(r.edits);
  // The engine that routes each side: an edit can make OpenSM's ftree refuse the fabric and
  // fall back to minhop, which changes every figure after it.
  h["routing"] = {{"before", in.before->fabric->routing().engine()}};
  if (in.after) h["routing"]["after"] = in.after->fabric->routing().engine();
  if (r.workload)
    h["workload"] = {{"source", r.workload->source},
                     {"jobs", r.workload->jobs.size()},
                     {"skipped_unknown", r.workload->skipped_unknown},
                     {"skipped_too_large", r.workload->skipped_too_large},
                     {"bf_max_job_test", r.max_job_test}};
  std::vector<std::string> notes = in.before->notes;
  if (in.after) notes.insert(notes.end(), in.after->notes.begin(), in.after->notes.end());
  h["notes"] = notes;
  h["units"] = whatif_units(r);
  return h;
}

std::vector<json> run_whatif_units(const WhatifRequest& r, const WhatifInputs& in, const std::vector<int>& units,
                                   const UnitProgress& progress) {
  std::vector<json> out(units.size());
  const WhatifMode mode = whatif_mode(r);
  const WhatifCase& before = *in.before;
  if (mode == WhatifMode::Replay) {
    for (size_t u = 0; u < units.size(); ++u) {
      const Variant& v = kVariants[units[u]];
      const WhatifCase& c = v.after ? *in.after : before;
      ReplayOptions options;
      options.policy = v.policy;
      options.seed = unit_seed(r.seed, units[u]);
      options.backfill.max_job_test = r.max_job_test;
      options.threads = in.threads;
      options.cost_every_job = !r.edits.empty();
      ReplayProgress jobs_done;
      if (progress)
        jobs_done = [&](int done, int total) { progress(static_cast<double>(u) + 0.9 * done / std::max(total, 1), static_cast<int>(units.size())); };
      const Replay replay = replay_workload(c, *r.workload, options, v.after ? in.after_costs : in.before_costs, jobs_done);
      out[u] = {{"unit", units[u]}, {"variant", v.name}, {"placed_with", v.policy == Policy::Slurm ? c.placed_with : "no topology"},
                {"metrics", metrics_json(replay.metrics)}};
      if (progress) progress(static_cast<double>(u + 1), static_cast<int>(units.size()));
    }
    return out;
  }
  Batch before_batch, after_batch;
  const std::vector<char> given_busy = busy_of(before, r.busy);
  for (size_t u = 0; u < units.size(); ++u) {
    const int k = units[u];
    json& rec = out[u];
    rec["unit"] = k;
    if (mode == WhatifMode::Policies) {
      const int n = r.sizes[k];
      rec["job_nodes"] = n;
      rec["policies"] = json::array();
      for (Policy p : kPolicies) rec["policies"].push_back(placement_json(before, place_by(before, p, n, given_busy, unit_seed(r.seed, k))));
      continue;
    }
    SeededRandom rng(unit_seed(r.seed, k));
    const double share = rng.unit() * r.max_busy_share;
    std::vector<char> busy(before.node_names().size(), 0);
    for (size_t i = 0; i < busy.size(); ++i) {
      const bool drawn = rng.unit() < share;  // drawn for every node, so --busy changes no other draw
      busy[i] = (drawn || given_busy[i]) && !before.down[i];
    }
    rec["busy_nodes"] = std::count(busy.begin(), busy.end(), 1);
    rec["jobs"] = json::array();
    for (int n : r.sizes)
      rec["jobs"].push_back({{"job_nodes", n},
                             {"before", placement_json(before, place_by(before, Policy::Slurm, n, busy, 0))},
                             {"after", placement_json(*in.after, place_by(*in.after, Policy::Slurm, n, busy, 0))}});
  }
  // Cost every placement of the shard in one batch per case (both cores, each placement once).
  // Placements are rebuilt from the records' hostlists so the batch holds exactly what is shown.
  auto add = [](Batch& b, json& p) {
    if (!p["started"].get<bool>()) return;
    b.placements.push_back(expand_hostlist(p["hostlist"].get<std::string>()));
    b.targets.push_back(&p);
  };
  for (json& rec : out) {
    if (mode == WhatifMode::Policies)
      for (auto& p : rec["policies"]) add(before_batch, p);
    else
      for (auto& j : rec["jobs"]) {
        add(before_batch, j["before"]);
        add(after_batch, j["after"]);
      }
  }
  if (progress) progress(0.5, 1);
  before_batch.bottlenecks = after_batch.bottlenecks = mode == WhatifMode::Edits;
  before_batch.cost(in.before_costs, in.threads);
  after_batch.cost(in.after_costs, in.threads);
  // The same hosts before and after: how many of the flows between them the edit moved to other
  // cables (static routing recomputed), which is what changes a busbw that no removed cable
  // carried.
  if (mode == WhatifMode::Edits)
    for (json& rec : out)
      for (auto& j : rec["jobs"]) {
        if (!j["before"]["started"].get<bool>() || !j["after"]["started"].get<bool>()) continue;
        const std::string hosts = j["before"]["hostlist"].get<std::string>();
        if (hosts != j["after"]["hostlist"].get<std::string>()) continue;
        const RouteChanges moved = job_route_changes(before, *in.after, expand_hostlist(hosts));
        j["flows"] = moved.flows;
        j["flows_moved"] = moved.moved;
      }
  if (progress) progress(1, 1);
  return out;
}

}  // namespace slurmtopo
