#include "graph/plan_check.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "base/input_error.h"
#include "graph/cluster_cables.h"

namespace slurmtopo {

namespace {

using K = Anomaly::Kind;
// (device, port): how the two sides meet. Hashed, not ordered: a 100,000-host fabric has
// 600,000 ends a side, and ordered string keys cost most of the comparison's time.
std::string key(const PlanEnd& e) { return e.device + '\x1f' + e.port; }
bool same(const PlanEnd& x, const PlanEnd& y) { return x.device == y.device && x.port == y.port; }

// One side of the comparison: its cables, which cable is at each end, its devices.
struct Side {
  std::vector<PlannedCable> cables;
  std::unordered_map<std::string, int> at;
  std::unordered_map<std::string, std::vector<int>> devices;  // device → its cables
  std::vector<std::string> names;                             // the devices, sorted: findings in name order
  std::vector<bool> done;

  Side(std::vector<PlannedCable> all, const std::string& source) : cables(std::move(all)), done(cables.size()) {
    at.reserve(2 * cables.size());
    for (int i = 0; i < static_cast<int>(cables.size()); ++i)
      for (const PlanEnd* e : {&cables[i].a, &cables[i].b}) {
        auto [it, fresh] = at.emplace(key(*e), i);
        if (!fresh && !source.empty())
          throw InputError(source, cables[i].line,
                           "expected each port once in the plan, but " + named(*e) + " is also on line " +
                               std::to_string(cables[it->second].line));
        auto& list = devices[e->device];
        if (list.empty()) names.push_back(e->device);
        if (list.empty() || list.back() != i) list.push_back(i);
      }
    std::sort(names.begin(), names.end());
  }
  // The cable at this end, not yet in a finding; -1 if none.
  int open_at(const PlanEnd& e) const {
    auto it = at.find(key(e));
    return it != at.end() && !done[it->second] ? it->second : -1;
  }
  // The other end of cable i, seen from `e`.
  const PlanEnd& other(int i, const PlanEnd& e) const {
    return same(cables[i].a, e) ? cables[i].b : cables[i].a;
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

// A finding with the cable ends it names: which switches it counts at, which hosts it is about.
struct Found {
  Anomaly finding;
  std::vector<PlanEnd> ends;
};

// The kinds that say a host's cable is elsewhere or absent, as the symmetry checks also can.
bool replaces_symmetry(Anomaly::Kind k) {
  return k == K::PlanSwappedCables || k == K::PlanWrongPort || k == K::PlanWrongDevice || k == K::PlanMissingCable;
}

// The device's end of its first cable in the list: what a whole-device finding counts at.
PlanEnd first_end(const Side& side, const std::vector<int>& cables, const std::string& device) {
  const PlannedCable& c = side.cables[cables.front()];
  return c.a.device == device ? c.a : c.b;
}

// A host both sides give one HCA, one side by no name of its own ("port 1" for an ibdm plan's
// P1, "HCA-1" for its U1/P1; a fabric HCA whose description names none): the same HCA, so the
// plan's ends take the fabric's name, port kept.
std::vector<PlannedCable> one_hca_as_the_fabric_names_it(std::vector<PlannedCable> planned,
                                                         const std::vector<PlannedCable>& fabric) {
  auto hcas_of = [](const std::vector<PlannedCable>& cables) {
    std::map<std::string, std::set<std::string>> out;
    for (const PlannedCable& c : cables)
      for (const PlanEnd* e : {&c.a, &c.b})
        if (!e->switch_end) out[e->device].insert(split_hca_port(e->port).first);
    return out;
  };
  const auto want = hcas_of(planned), have = hcas_of(fabric);
  for (PlannedCable& c : planned)
    for (PlanEnd* e : {&c.a, &c.b}) {
      if (e->switch_end) continue;
      auto w = want.find(e->device);
      auto h = have.find(e->device);
      if (h == have.end() || w->second.size() != 1 || h->second.size() != 1 || *w->second.begin() == *h->second.begin())
        continue;
      // Only where one side gives no HCA name of its own: two names (mlx5_0, mlx5_1) are two HCAs.
      const std::string& planned_hca = *w->second.begin();
      if (!planned_hca.empty() && planned_hca.rfind("HCA-", 0) != 0 && !h->second.begin()->empty()) continue;
      e->port = hca_port(*h->second.begin(), split_hca_port(e->port).second);
    }
  return planned;
}

}  // namespace

void record_plan_findings(Cluster& c, const CablePlan& plan) {
  Side have(cluster_cables(c).cables, "");
  Side want(one_hca_as_the_fabric_names_it(plan.cables, have.cables), plan.source);
  std::vector<Found> found;
  PlanSummary summary;
  summary.source = plan.source;
  summary.planned = static_cast<int>(want.cables.size());
  summary.fabric_cables = static_cast<int>(have.cables.size());
  std::map<std::string, PlanSwitchTally> tally;
  for (const PlannedCable& p : want.cables)
    for (const PlanEnd* e : {&p.a, &p.b})
      if (e->switch_end) ++tally[e->device].planned;

  // As planned: the cable at one end reaches the other. Then its rate.
  for (int i = 0; i < static_cast<int>(want.cables.size()); ++i) {
    const PlannedCable& p = want.cables[i];
    const int j = have.open_at(p.a);
    if (j < 0 || !same(have.other(j, p.a), p.b)) continue;
    want.done[i] = have.done[j] = true;
    const PlannedCable& f = have.cables[j];
    if (below_plan(p, f)) {
      found.push_back({{K::PlanSlowCable, cable_name(p),
                        "runs at " + rate(f.width, f.speed) + ", the plan says " + rate(p.width, p.speed) +
                            on_line(plan, p) + ": reseat the cable at both ends, then replace it if it trains the same"},
                       {p.a, p.b}});
    } else {
      ++summary.present;
      for (const PlanEnd* e : {&p.a, &p.b})
        if (e->switch_end) ++tally[e->device].present;
    }
  }

  // Whole devices: absent from the fabric, or unknown to the plan. Their cables go with them.
  for (const std::string& device : want.names) {
    if (have.devices.count(device)) continue;
    const std::vector<int>& cables = want.devices.at(device);
    for (int i : cables) want.done[i] = true;
    found.push_back({{K::PlanMissingDevice, device,
                     "in the plan with " + std::to_string(cables.size()) + " cable" + (cables.size() == 1 ? "" : "s") +
                         " (" + cables_list(want, cables, device) + ")" + on_line(plan, want.cables[cables[0]]) +
                         ", absent from the fabric: power it on, check its cables, or its name in the plan"},
                     {first_end(want, cables, device)}});
  }
  for (const std::string& device : have.names) {
    if (want.devices.count(device)) continue;
    const std::vector<int>& cables = have.devices.at(device);
    for (int j : cables) have.done[j] = true;
    // An HCA no host claims (named by its GUID) in the switch port where the plan has a host's
    // HCA the fabric lacks: most likely that HCA, with no host name to match it by.
    if (device.rfind("0x", 0) == 0 && cables.size() == 1) {
      const PlanEnd& port = have.other(cables[0], first_end(have, cables, device));
      const int i = port.switch_end ? want.open_at(port) : -1;
      const PlanEnd* planned = i >= 0 ? &want.other(i, port) : nullptr;
      if (planned && !planned->switch_end && !have.at.count(key(*planned))) {
        want.done[i] = true;
        found.push_back({{K::PlanUnknownDevice, device,
                          "an HCA no host name claims, in " + said(port) + ", where the plan has " + named(*planned) +
                              on_line(plan, want.cables[i]) + ", which the fabric lacks: likely that HCA; set its node "
                              "description (or map its GUID with --node-name-map) so it is matched by name"},
                         {port}});
        continue;
      }
    }
    found.push_back({{K::PlanUnknownDevice, device,
                     "in the fabric with " + std::to_string(cables.size()) + " cable" + (cables.size() == 1 ? "" : "s") +
                         " (" + cables_list(have, cables, device) + "), not in the plan " + plan.source +
                         ": added since the plan, or named otherwise there (--plan-name-map relates the names)"},
                     {first_end(have, cables, device)}});
  }

  // Two cables with their ends exchanged: planned A - P and C - Q, found A - Q and C - P. One
  // finding, naming the two ports where swapping them is easiest: two ports of one device
  // where there are (two ports of a leaf, two HCAs of a host), else the two ports of P and Q.
  for (int i = 0; i < static_cast<int>(want.cables.size()); ++i) {
    if (want.done[i]) continue;
    for (bool flip : {false, true}) {
      const PlannedCable& p = want.cables[i];
      const PlanEnd& a = flip ? p.b : p.a;
      const PlanEnd& s_p = flip ? p.a : p.b;  // where A should be
      const int j = have.open_at(a);
      if (j < 0) continue;
      const PlanEnd& s_q = have.other(j, a);  // where A is
      if (same(s_q, s_p)) continue;
      const int k = want.open_at(s_q);  // the cable planned for Q
      const int m = have.open_at(s_p);  // the cable found in P
      if (k < 0 || m < 0 || k == i || m == j) continue;
      const PlanEnd& c_end = want.other(k, s_q);
      if (!same(have.other(m, s_p), c_end)) continue;
      want.done[i] = want.done[k] = have.done[j] = have.done[m] = true;
      // Where both ports are on one device; else at the switches, where the cables are traced.
      const bool far_side = s_p.device == s_q.device || (a.device != c_end.device && !a.switch_end);
      const PlanEnd& x = far_side ? s_p : a;
      const PlanEnd& y = far_side ? s_q : c_end;
      const PlanEnd& in_x = far_side ? c_end : s_q;  // what x holds now
      const PlanEnd& in_y = far_side ? a : s_p;
      // "dgx001 mlx5_0 is in su1-rail0 port 2", "dgx001 mlx5_1 is cabled to su1-rail0 port 1".
      auto holds = [](const PlanEnd& port, const PlanEnd& far, const char* verb) {
        return port.switch_end ? named(far) + verb + "in " + said(port) : said(port) + verb + "cabled to " + said(far);
      };
      // "su1-rail0 ports 1 and 2", "dgx001 mlx5_0 and mlx5_1", "leaf01 port 3 and leaf02 port 3".
      const std::string where = x.device != y.device ? said(x) + " and " + said(y)
                                : x.switch_end       ? x.device + " ports " + x.port + " and " + y.port
                                                     : x.device + " " + x.port + " and " + y.port;
      found.push_back({{K::PlanSwappedCables, where,
                        holds(y, in_y, " is ") + " and " + holds(x, in_x, " ") + ", the plan has them the other way" +
                            on_line(plan, p) + ": swap the cables in " + where,
                        2},
                       {a, s_p, c_end, s_q}});
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
          // Whatever holds the planned port now, named or not in a finding of its own.
          auto o = have.at.find(key(b));
          return o == have.at.end() ? std::string()
                                    : " (" + said(b) + " holds the cable to " + named(have.other(o->second, b)) + ")";
        }();
        if (same_device)
          found.push_back({{kind, cable_name(p),
                            "the cable from " + named(a) + " is in " + said(now) + ", the plan has " + said(b) +
                                on_line(plan, p) + occupant + ": move the cable in " + said(now) + " to " +
                                (b.switch_end ? "port " + b.port : b.port)},
                           {a, b, now}});
        else
          found.push_back({{kind, cable_name(p),
                            "the cable from " + named(a) + " reaches " + said(now) + " instead of " + said(b) +
                                on_line(plan, p) + occupant + ": move its end from " + said(now) + " to " + said(b)},
                           {a, b, now}});
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
    found.push_back({{K::PlanMissingCable, cable_name(p),
                      "in the plan" + on_line(plan, p) + ", not in the fabric; " + state(p.a) + ", " + state(p.b) +
                          ": lay the cable, or replace it if it is there (a port with no light is a dead cable or "
                          "transceiver)"},
                     {p.a, p.b}});
  }

  // Any other cable of the fabric: between devices the plan knows, on ports it does not plan.
  for (int j = 0; j < static_cast<int>(have.cables.size()); ++j) {
    if (have.done[j]) continue;
    found.push_back({{K::PlanExtraCable, cable_name(have.cables[j]),
                      "in the fabric, not in the plan " + plan.source +
                          ": remove it, or add it to the plan if it belongs there"},
                     {have.cables[j].a, have.cables[j].b}});
  }

  // The other checks' findings about the cables a plan finding names: the same fault, said
  // once, by the plan (which names the ports). The symmetry checks by host (a rail miscabled,
  // crossed or missing) and by leaf (uplinks short of its peers'), and a degraded cable the
  // plan finds slow.
  std::set<std::string> hosts_named, leaves_named, slow_cables;
  for (const Found& f : found) {
    if (f.finding.kind == K::PlanSlowCable) slow_cables.insert(f.finding.subject);
    if (!replaces_symmetry(f.finding.kind)) continue;
    bool switch_cable = true;
    for (const PlanEnd& e : f.ends) switch_cable = switch_cable && e.switch_end;
    for (const PlanEnd& e : f.ends) (e.switch_end ? leaves_named : hosts_named).insert(e.device);
    if (!switch_cable)
      for (const PlanEnd& e : f.ends)
        if (e.switch_end) leaves_named.erase(e.device);
  }
  const auto merged = std::remove_if(c.anomalies.begin(), c.anomalies.end(), [&](const Anomaly& a) {
    if (a.kind == K::MiscabledRail || a.kind == K::CrossedRails || a.kind == K::MissingRail) return hosts_named.count(a.subject) > 0;
    if (a.kind == K::MissingUplinks) return leaves_named.count(a.subject) > 0;
    return a.kind == K::DegradedLink && slow_cables.count(a.subject) > 0;
  });
  summary.merged = static_cast<int>(c.anomalies.end() - merged);
  c.anomalies.erase(merged, c.anomalies.end());

  for (Found& f : found) {
    std::set<std::string> switches;
    for (const PlanEnd& e : f.ends)
      if (e.switch_end) switches.insert(e.device);
    for (const auto& s : switches) ++tally[s].findings;
    c.anomalies.push_back(std::move(f.finding));
  }
  summary.findings = static_cast<int>(found.size());
  for (auto& [name, t] : tally) {
    t.name = name;
    summary.switches.push_back(t);
  }
  c.plan_checks.push_back(std::move(summary));
}

}  // namespace slurmtopo
