#include "graph/plan_check.h"

#include <algorithm>
#include <map>

#include "base/input_error.h"
#include "graph/cluster_cables.h"

namespace slurmtopo {

namespace {

using K = Anomaly::Kind;
using Key = std::pair<std::string, std::string>;  // (device, port): how the two sides meet

Key key(const PlanEnd& e) { return {e.device, e.port}; }

// One side of the comparison: its cables, which cable is at each end, its devices.
struct Side {
  std::vector<PlannedCable> cables;
  std::map<Key, int> at;
  std::map<std::string, std::vector<int>> devices;  // device → its cables
  std::vector<bool> done;

  Side(std::vector<PlannedCable> all, const std::string& source) : cables(std::move(all)), done(cables.size()) {
    for (int i = 0; i < static_cast<int>(cables.size()); ++i)
      for (const PlanEnd* e : {&cables[i].a, &cables[i].b}) {
        auto [it, fresh] = at.emplace(key(*e), i);
        if (!fresh && !source.empty())
          throw InputError(source, cables[i].line,
                           "expected each port once in the plan, but " + named(*e) + " is also on line " +
                               std::to_string(cables[it->second].line));
        auto& list = devices[e->device];
        if (list.empty() || list.back() != i) list.push_back(i);
      }
  }
  // The cable at this end, not yet in a finding; -1 if none.
  int open_at(const PlanEnd& e) const {
    auto it = at.find(key(e));
    return it != at.end() && !done[it->second] ? it->second : -1;
  }
  // The other end of cable i, seen from `e`.
  const PlanEnd& other(int i, const PlanEnd& e) const {
    return key(cables[i].a) == key(e) ? cables[i].b : cables[i].a;
  }
};

std::string cable_name(const PlannedCable& c) { return named(c.a) + " - " + named(c.b); }

std::string rate(int width, LinkSpeed speed) {
  std::string out = width ? std::to_string(width) + "x" : "";
  if (speed != LinkSpeed::Unknown) out += to_string(speed);
  return out;
}

std::string on_line(const CablePlan& plan, const PlannedCable& c) {
  return c.line ? " (" + plan.source + ":" + std::to_string(c.line) + ")" : " (" + plan.source + ")";
}

bool below_plan(const PlannedCable& planned, const PlannedCable& found) {
  if (planned.width && found.width && found.width < planned.width) return true;
  return planned.speed != LinkSpeed::Unknown && found.speed != LinkSpeed::Unknown &&
         lane_gbps(found.speed) < lane_gbps(planned.speed);
}

std::string cables_list(const Side& side, const std::vector<int>& cables, const std::string& device) {
  std::string out;
  const size_t shown = std::min<size_t>(cables.size(), 3);
  for (size_t k = 0; k < shown; ++k) {
    const PlannedCable& c = side.cables[cables[k]];
    const PlanEnd& far = c.a.device == device ? c.b : c.a;
    const PlanEnd& near = c.a.device == device ? c.a : c.b;
    const bool number = near.port.find_first_not_of("0123456789") == std::string::npos;
    out += std::string(k ? ", " : "") + (number ? "port " : "") + near.port + " to " + named(far);
  }
  if (cables.size() > shown) out += ", and " + std::to_string(cables.size() - shown) + " more";
  return out;
}

}  // namespace

void record_plan_findings(Cluster& c, const CablePlan& plan) {
  Side want(plan.cables, plan.source);
  Side have(cluster_cables(c).cables, "");
  std::vector<Anomaly> found;
  PlanSummary summary{plan.source, static_cast<int>(want.cables.size()), 0, static_cast<int>(have.cables.size())};

  // As planned: the cable at one end reaches the other. Then its rate.
  for (int i = 0; i < static_cast<int>(want.cables.size()); ++i) {
    const PlannedCable& p = want.cables[i];
    const int j = have.open_at(p.a);
    if (j < 0 || key(have.other(j, p.a)) != key(p.b)) continue;
    want.done[i] = have.done[j] = true;
    const PlannedCable& f = have.cables[j];
    if (below_plan(p, f)) {
      found.push_back({K::PlanSlowCable, cable_name(p),
                       "runs at " + rate(f.width, f.speed) + ", the plan says " + rate(p.width, p.speed) +
                           on_line(plan, p) + ": reseat the cable at both ends, then replace it if it trains the same"});
    } else {
      ++summary.present;
    }
  }

  // Whole devices: absent from the fabric, or unknown to the plan. Their cables go with them.
  for (const auto& [device, cables] : want.devices) {
    if (have.devices.count(device)) continue;
    for (int i : cables) want.done[i] = true;
    found.push_back({K::PlanMissingDevice, device,
                     "in the plan with " + std::to_string(cables.size()) + " cable" + (cables.size() == 1 ? "" : "s") +
                         " (" + cables_list(want, cables, device) + ")" + on_line(plan, want.cables[cables[0]]) +
                         ", absent from the fabric: power it on, check its cables, or its name in the plan"});
  }
  for (const auto& [device, cables] : have.devices) {
    if (want.devices.count(device)) continue;
    for (int j : cables) have.done[j] = true;
    found.push_back({K::PlanUnknownDevice, device,
                     "in the fabric with " + std::to_string(cables.size()) + " cable" + (cables.size() == 1 ? "" : "s") +
                         " (" + cables_list(have, cables, device) + "), not in the plan " + plan.source +
                         ": added since the plan, or named otherwise there (a node-name map relates the names)"});
  }

  // Two cables in each other's ports of one device: planned A - S[p] and C - S[q], found
  // A - S[q] and C - S[p]. One finding, at the device where the swap is undone.
  for (int i = 0; i < static_cast<int>(want.cables.size()); ++i) {
    if (want.done[i]) continue;
    for (bool flip : {false, true}) {
      const PlannedCable& p = want.cables[i];
      const PlanEnd& a = flip ? p.b : p.a;
      const PlanEnd& s_p = flip ? p.a : p.b;  // where A should be
      const int j = have.open_at(a);
      if (j < 0) continue;
      const PlanEnd& s_q = have.other(j, a);  // where A is
      if (s_q.device != s_p.device || s_q.port == s_p.port) continue;
      const int k = want.open_at(s_q);  // the cable planned for S[q]
      const int m = have.open_at(s_p);  // the cable found in S[p]
      if (k < 0 || m < 0 || k == i || m == j) continue;
      const PlanEnd& c_end = want.other(k, s_q);
      if (key(have.other(m, s_p)) != key(c_end)) continue;
      want.done[i] = want.done[k] = have.done[j] = have.done[m] = true;
      // "su1-rail0 ports 1 and 2", "dgx001 mlx5_0 and mlx5_1": the subject, and where to swap.
      const std::string where = s_p.device + (s_p.switch_end ? " ports " : " ") + s_p.port + " and " + s_q.port;
      found.push_back({K::PlanSwappedCables, where,
                       named(a) + " is in " + said(s_q) + " and " + named(c_end) + " in " + said(s_p) +
                           ", the plan has them the other way" + on_line(plan, p) + ": swap the cables in " + where,
                       2});
      break;
    }
  }

  // The right device, another port; then another device. Seen from either end of the plan's cable.
  for (const K kind : {K::PlanWrongPort, K::PlanWrongDevice})
    for (int i = 0; i < static_cast<int>(want.cables.size()); ++i) {
      if (want.done[i]) continue;
      for (bool flip : {false, true}) {
        const PlannedCable& p = want.cables[i];
        const PlanEnd& a = flip ? p.b : p.a;
        const PlanEnd& b = flip ? p.a : p.b;
        const int j = have.open_at(a);
        if (j < 0) continue;
        const PlanEnd& now = have.other(j, a);
        const bool same_device = now.device == b.device;
        if (same_device != (kind == K::PlanWrongPort)) continue;
        want.done[i] = have.done[j] = true;
        const std::string occupant = [&] {
          const int o = have.open_at(b);
          return o < 0 ? std::string() : " (" + said(b) + " holds the cable to " + named(have.other(o, b)) + ")";
        }();
        if (same_device)
          found.push_back({kind, cable_name(p),
                           "the cable from " + named(a) + " is in " + said(now) + ", the plan has " + said(b) +
                               on_line(plan, p) + occupant + ": move the cable in " + said(now) + " to " +
                               (b.switch_end ? "port " + b.port : b.port)});
        else
          found.push_back({kind, cable_name(p),
                           "the cable from " + named(a) + " reaches " + said(now) + " instead of " + said(b) +
                               on_line(plan, p) + occupant + ": move its end from " + said(now) + " to " + said(b)});
        break;
      }
    }

  // In neither port. Both devices are in the fabric (absent ones were reported whole).
  for (int i = 0; i < static_cast<int>(want.cables.size()); ++i) {
    if (want.done[i]) continue;
    const PlannedCable& p = want.cables[i];
    auto state = [&](const PlanEnd& e) {
      auto it = have.at.find(key(e));
      return it == have.at.end() ? said(e) + " has no cable"
                                 : said(e) + " holds the cable to " + named(have.other(it->second, e));
    };
    found.push_back({K::PlanMissingCable, cable_name(p),
                     "in the plan" + on_line(plan, p) + ", not in the fabric; " + state(p.a) + ", " + state(p.b) +
                         ": lay the cable, or replace it if it is there (a port with no light is a dead cable or "
                         "transceiver)"});
  }

  // Any other cable of the fabric: between devices the plan knows, on ports it does not plan.
  for (int j = 0; j < static_cast<int>(have.cables.size()); ++j) {
    if (have.done[j]) continue;
    found.push_back({K::PlanExtraCable, cable_name(have.cables[j]),
                     "in the fabric, not in the plan " + plan.source +
                         ": remove it, or add it to the plan if it belongs there"});
  }

  c.plan_checks.push_back(summary);
  for (auto& a : found) c.anomalies.push_back(std::move(a));
}

}  // namespace slurmtopo
