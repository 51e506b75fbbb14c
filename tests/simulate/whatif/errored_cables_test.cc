// What `whatif --drain-errored` takes out, on the ibsim fabric of tests/data/counters (2 rail
// leaves of 2 hosts, one spine) whose counters were set through ibsim's console: the two
// cables with cable-errors (su1-rail0[1] seen from the switch, dgx003's from the host end) go;
// the spine cable's discards (congestion) and su2-rail0[3]'s remote physical errors (upstream)
// do not. Both ends of one cable over is one cable; an end below every threshold is none.
#include "simulate/whatif/errored_cables.h"

#include <doctest/doctest.h>

#include "base/input_error.h"
#include "discover/counters_file.h"
#include "discover/fabric_file.h"

using namespace slurmtopo;

namespace {

const std::string kData = SLURMTOPO_SOURCE_DIR "/tests/data/counters/";

Cluster counted(const std::vector<std::string>& files, const CounterThresholds& thresholds = default_counter_thresholds()) {
  ClusterOptions o;
  o.site.counter_thresholds = thresholds;
  for (const auto& f : files) o.counters.push_back(load_counters_file(kData + f));
  return build_cluster(load_fabric_file(kData + "fabric.ibnetdiscover"), o);
}

std::string error_of(const Cluster& c) {
  try {
    cables_to_drain(c);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

const SwitchInfo& named(const Cluster& c, const std::string& name) {
  for (const SwitchInfo& s : c.switches)
    if (s.name == name) return s;
  FAIL("no switch " << name);
  return c.switches.front();
}

// The (GUID, port) of the far end of the cable on switch `name` port `port`.
std::pair<uint64_t, int> far_end(const Cluster& c, const std::string& name, int port) {
  const uint64_t guid = named(c, name).guid;
  for (const Link& l : c.fabrics[0].links) {
    if (l.a.guid == guid && l.a.port == port) return {l.b.port_guid ? l.b.port_guid : l.b.guid, l.b.port};
    if (l.b.guid == guid && l.b.port == port) return {l.a.port_guid ? l.a.port_guid : l.a.guid, l.a.port};
  }
  FAIL("no cable on " << name << " port " << port);
  return {};
}

}  // namespace

TEST_CASE("drain-errored: the cables with cable-errors, switch end first, with the counters that condemn them") {
  const Cluster c = counted({"ibqueryerrors.txt"});
  const std::vector<ErroredCable> cables = cables_to_drain(c);
  REQUIRE(cables.size() == 2);
  CHECK(cables[0].cable == "su1-rail0[1] - dgx001 mlx5_0");
  CHECK(cables[0].why == "SymbolErrorCounter 500, LinkErrorRecoveryCounter 12 at su1-rail0[1]");
  CHECK(cables[0].guid == named(c, "su1-rail0").guid);
  CHECK(cables[0].port == 1);
  // Counted at the host end, still named and found from the switch's port.
  CHECK(cables[1].cable == "su2-rail0[1] - dgx003 mlx5_0");
  CHECK(cables[1].why == "PortRcvErrors 25 at dgx003 mlx5_0");
  CHECK(cables[1].guid == named(c, "su2-rail0").guid);
  CHECK(cables[1].port == 1);

  WhatifEdits e;
  e.errored_cables = cables;
  CHECK(e.changes_fabric());
  CHECK(describe(e) == std::vector<std::string>{
                           "remove the erroring cable su1-rail0[1] - dgx001 mlx5_0 (cable-errors: SymbolErrorCounter 500, "
                           "LinkErrorRecoveryCounter 12 at su1-rail0[1])",
                           "remove the erroring cable su2-rail0[1] - dgx003 mlx5_0 (cable-errors: PortRcvErrors 25 at "
                           "dgx003 mlx5_0)"});
  const EditedFabrics out = edit_fabrics(c, e);
  CHECK(out.fabrics[0].links.size() == c.fabrics[0].links.size() - 2);
  CHECK(out.hosts_cut == std::vector<std::string>{"dgx001", "dgx003"});
  // The congested spine cable and the one with upstream errors stay.
  const Cluster after = build_cluster(out.fabrics, ClusterOptions{});
  CHECK(named(after, "su2-rail0").uplinks == named(c, "su2-rail0").uplinks);
  CHECK(after.host_index("dgx001") < 0);
  CHECK(after.host_index("dgx002") >= 0);
}

TEST_CASE("drain-errored: the same as --remove-cable SWITCH/PORT, and no error when another edit took it first") {
  const Cluster c = counted({"ibqueryerrors.txt"});
  WhatifEdits errored, named_cables;
  errored.errored_cables = cables_to_drain(c);
  named_cables.remove_cables = {parse_cable_ref("su1-rail0/1"), parse_cable_ref("su2-rail0/1")};
  const EditedFabrics a = edit_fabrics(c, errored), b = edit_fabrics(c, named_cables);
  CHECK(a.hosts_cut == b.hosts_cut);
  REQUIRE(a.fabrics[0].links.size() == b.fabrics[0].links.size());
  for (size_t i = 0; i < a.fabrics[0].links.size(); ++i) {
    CHECK(a.fabrics[0].links[i].a.guid == b.fabrics[0].links[i].a.guid);
    CHECK(a.fabrics[0].links[i].a.port == b.fabrics[0].links[i].a.port);
  }
  WhatifEdits both = errored;
  both.remove_cables = {parse_cable_ref("su1-rail0/1")};
  both.drain_switches = {"su2-rail0"};
  const EditedFabrics out = edit_fabrics(c, both);
  CHECK(out.hosts_cut == std::vector<std::string>{"dgx001", "dgx003", "dgx004"});
}

TEST_CASE("drain-errored: every form of the same counters drains the same cables, an end two inputs give only once") {
  auto cables_of = [](const std::vector<std::string>& files) {
    std::vector<std::string> out;
    for (const ErroredCable& e : cables_to_drain(counted(files))) out.push_back(e.cable + " | " + e.why);
    return out;
  };
  const auto iqe = cables_of({"ibqueryerrors.txt"});
  CHECK(cables_of({"ibdiagnet2.pm"}) == iqe);
  CHECK(cables_of({"ibqueryerrors-details.txt"}) == iqe);
  CHECK(cables_of({"ibqueryerrors.txt", "perfquery-all.txt"}) == iqe);  // su1-rail0[1] read by both
}

TEST_CASE("drain-errored: both ends of one cable over are one cable, its counters at each end") {
  Cluster base = counted({});
  const auto [hca, hca_port] = far_end(base, "su2-rail0", 2);
  CounterReadings r;
  r.source = "both-ends.txt";
  r.form = "ibqueryerrors";
  PortCounters sw;
  sw.guid = named(base, "su2-rail0").guid;
  sw.port = 2;
  sw.set(PortCounter::SymbolErrorCounter, 40, 16);
  PortCounters host;
  host.guid = hca;
  host.port_guid = true;
  host.port = hca_port;
  host.set(PortCounter::LinkDownedCounter, 255, 8);  // stuck at its maximum
  r.ports = {host, sw};
  ClusterOptions o;
  o.counters = {r};
  const Cluster c = build_cluster(load_fabric_file(kData + "fabric.ibnetdiscover"), o);
  const std::vector<ErroredCable> cables = cables_to_drain(c);
  REQUIRE(cables.size() == 1);
  CHECK(cables[0].cable == "su2-rail0[2] - dgx004 mlx5_0");
  CHECK(cables[0].why.find("SymbolErrorCounter 40 at su2-rail0[2]") != std::string::npos);
  CHECK(cables[0].why.find("LinkDownedCounter at least 255 at dgx004 mlx5_0") != std::string::npos);
}

TEST_CASE("drain-errored: counters read with the sweep (a snapshot's) count as --counters do") {
  std::vector<Fabric> fabrics = load_fabric_file(kData + "fabric.ibnetdiscover");
  fabrics[0].counters = load_counters_file(kData + "ibqueryerrors.txt");
  const Cluster c = build_cluster(std::move(fabrics), ClusterOptions{});
  CHECK(cables_to_drain(c).size() == 2);
}

TEST_CASE("drain-errored: nothing to judge, or nothing over a cable-errors threshold, is an error naming the option") {
  CHECK(error_of(counted({})).starts_with("--drain-errored: no port counters to judge the cables by: give --counters FILE"));
  // Thresholds above the cable-errors counters: only the congestion and upstream ends are over.
  CounterThresholds high = default_counter_thresholds();
  for (PortCounter pc : {PortCounter::SymbolErrorCounter, PortCounter::LinkErrorRecoveryCounter, PortCounter::PortRcvErrors})
    high[static_cast<size_t>(pc)] = 1000;
  const std::string none = error_of(counted({"ibqueryerrors.txt"}, high));
  CHECK(none.starts_with("--drain-errored: no cable end is over a cable-errors threshold in "));
  CHECK(none.find("ibqueryerrors.txt (5 of 6 ports on cables): nothing to drain") != std::string::npos);
  CHECK(none.find("(2 cable ends are over congestion, upstream-errors or config-errors thresholds") != std::string::npos);
  // Ends kept with counters below every threshold (over == 0) drain nothing either.
  Cluster below = counted({"ibqueryerrors.txt"});
  for (CableEndHealth& h : below.cable_health) h.over = 0;
  CHECK(error_of(below).find("nothing to drain") != std::string::npos);
}
