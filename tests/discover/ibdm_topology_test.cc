// ibdm topology files (discover/ibdm_topology.h): real ones from ibutils (tests/data/ibdm/,
// README.md there), the forms ibdiagnet -w writes for hosts, and every bad line named.
#include "discover/ibdm_topology.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "base/files.h"
#include "base/input_error.h"

using namespace slurmtopo;

namespace {

const std::string kData = std::string(SLURMTOPO_SOURCE_DIR) + "/tests/data/ibdm/";

std::string error_of(const std::string& text) {
  try {
    parse_ibdm_topology(text, "fabric.topo");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("ibdm topology: ibutils' demo fat tree, each cable once though both its switches list it") {
  const std::string text = read_file(kData + "network.topo");
  REQUIRE(looks_like_ibdm_topology(text));
  const CablePlan plan = parse_ibdm_topology(text, "network.topo");
  std::set<std::string> switches, hosts;
  int host_cables = 0, switch_cables = 0;
  for (const PlannedCable& c : plan.cables) {
    for (const PlanEnd* e : {&c.a, &c.b}) (e->switch_end ? switches : hosts).insert(e->device);
    (c.a.switch_end && c.b.switch_end ? switch_cables : host_cables) += 1;
    CHECK(c.width == 4);
    CHECK(c.speed == LinkSpeed::DDR);
  }
  // 11 leaves SL1-1..SL1-11 and 6 spines SL2-1..SL2-6. Seven leaves have 12 hosts and 12
  // uplinks, four (SL1-8 to SL1-11) 11 of each: 128 hosts and 128 uplinks, which the spines
  // list again.
  CHECK(switches.size() == 17);
  CHECK(switches.count("SL1-11"));
  CHECK(switches.count("SL2-6"));
  CHECK(hosts.size() == 128);
  CHECK(host_cables == 128);
  CHECK(switch_cables == 128);
  // A host's P1 is port 1 of its one HCA.
  const PlannedCable& first = plan.cables.front();
  CHECK(first.a.device == "SL1-1");
  CHECK(first.a.port == "1");
  CHECK(first.b.device == "H-1");
  CHECK(first.b.port == "port 1");
  CHECK(first.line == 6);
}

TEST_CASE("ibdm topology: ibmgtsim's 4-ary 2-tree, arrows without a rate, spines seen only as far ends") {
  const CablePlan plan = parse_ibdm_topology(read_file(kData + "4-ary-2-tree.topo"), "4-ary-2-tree.topo");
  REQUIRE(plan.cables.size() == 32);
  std::map<std::string, int> cables_of;
  for (const PlannedCable& c : plan.cables) {
    CHECK(c.width == 0);
    CHECK(c.speed == LinkSpeed::Unknown);
    if (c.b.switch_end) ++cables_of[c.b.device];
  }
  CHECK(cables_of["SW-0-0"] == 4);
  CHECK(cables_of["SW-0-3"] == 4);
}

TEST_CASE("ibdm topology: hosts as ibdiagnet -w writes them, U<n>/P<k> and <hca>/P<k>") {
  const std::string text =
      "# written by hand in ibdiagnet -w's form\n"
      "MQM8700 leaf01\n"
      "   P1 -4x-50G-> HCA_2 dgx1 U1/P1\n"
      "   P2 -4x-50G-> HCA_2 dgx1 U2/P1\n"
      "   P3 -4x-100G-> HCA_mlx5_3 swx-04 mlx5_0/P1\n"
      "   P4 -2X-100G-> HCA_mlx5_3 swx-04 mlx5_1/P2\n"
      "\n"
      "HCA_2 dgx1\n"
      "   U1/P1 -4x-50G-> MQM8700 leaf01 P1\n";
  const CablePlan plan = parse_ibdm_topology(text, "w.topo");
  REQUIRE(plan.cables.size() == 4);
  CHECK(plan.cables[0].b.device == "dgx1");
  CHECK(plan.cables[0].b.port == "HCA-1");
  CHECK(plan.cables[0].speed == LinkSpeed::HDR);
  CHECK(plan.cables[1].b.port == "HCA-2");
  CHECK(plan.cables[2].b.port == "mlx5_0");
  CHECK(plan.cables[2].speed == LinkSpeed::NDR);
  CHECK(plan.cables[3].b.port == "mlx5_1/2");
  CHECK(plan.cables[3].width == 2);
  CHECK(plan.cables[0].a.switch_end);
  CHECK_FALSE(plan.cables[0].b.switch_end);
}

TEST_CASE("ibdm topology: every bad line named by file and line") {
  CHECK(error_of("   P1 -> Cougar H-1 P1\n") ==
        "fabric.topo:1: expected a system line (`SYSTEM-TYPE SYSTEM-NAME`) before this port line, found \"P1 -> Cougar H-1 P1\"");
  CHECK(error_of("MTS800 SW-1\n   P1 -> Cougar H-1\n") ==
        "fabric.topo:2: expected a port line `LOCAL-PORT -4x-25G-> REMOTE-TYPE REMOTE-NAME REMOTE-PORT`, found "
        "\"P1 -> Cougar H-1\"");
  CHECK(error_of("MTS800\n") == "fabric.topo:1: expected a system line `SYSTEM-TYPE SYSTEM-NAME [CFG: ...]`, found \"MTS800\"");
  CHECK(error_of("MTS800 SW-1\n   P1 -4x-3G-> Cougar H-1 P1\n") ==
        "fabric.topo:2: expected the cable's width and speed as -4x-25G-> (1x/4x/8x/12x; 2.5G to 200G), found \"-4x-3G->\"");
  CHECK(error_of("MTS800 SW-1\n   P1 -> Cougar H-1 P1\n   P1 -> Cougar H-2 P1\n   P2 -> Cougar H-3 P1\n") ==
        "fabric.topo:3: expected each port cabled once, but SW-1[1] is cabled to H-1 port 1 at line 2");
  CHECK(error_of("MTS800 SW-1\n   P1 -> Cougar H-1 P1\n   P2 -> Cougar H-2 P1\n   Q3 -> Cougar H-3 P1\n") ==
        "fabric.topo:4: expected a switch port P<n> on SW-1, found \"Q3\"");
  CHECK(error_of("ISR9288 spine\n   L1/P1 -> Cougar H-1 P1\n").starts_with(
      "fabric.topo:2: expected a port of a single-chip switch or a host (P1, U1/P1, mlx5_0/P1), found \"L1/P1\""));
  CHECK(error_of("MTS800 SW-1\n   P1 -> Cougar H-1 P1\n\nMT23108 SW-1\n") ==
        "fabric.topo:4: expected one type for system SW-1, found MT23108 here and MTS800 before");
}

TEST_CASE("ibdm topology: recognised by a system line followed by an indented port line with an arrow") {
  CHECK(looks_like_ibdm_topology("# c\n\nMTS800 SW-1\n   P1 -> Cougar H-1 P1\n"));
  CHECK(looks_like_ibdm_topology("MQM8700 leaf01 CFG: x=y\n\tP1 -4x-50G-> HCA_1 h U1/P1\n"));
  CHECK_FALSE(looks_like_ibdm_topology("Switch\t36 \"S-0002c9030000a000\"\n[1]\t\"H-0002c903000a0000\"[1]\n"));
  CHECK_FALSE(looks_like_ibdm_topology("vendid=0x2c9\n"));
  CHECK_FALSE(looks_like_ibdm_topology("a_device,a_port,b_device,b_port\n"));
}
