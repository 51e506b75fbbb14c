// The port-counter files admins keep, read as infiniband-diags 44 printed them against ibsim
// with counters set through its console (tests/data/counters/capture.sh): every form gives the
// ports and values that were set, recognised by content whatever the file is called.
#include "discover/counters_file.h"

#include <doctest/doctest.h>

#include <string>

#include "base/files.h"
#include "base/input_error.h"
#include "discover/ibdiagnet_pm.h"
#include "discover/ibqueryerrors_text.h"
#include "discover/perfquery_text.h"

using namespace slurmtopo;

namespace {
const std::string kData = SLURMTOPO_SOURCE_DIR "/tests/data/counters/";
using PC = PortCounter;

const PortCounters* port(const CounterReadings& r, uint64_t guid, int number) {
  for (const auto& p : r.ports)
    if (p.guid == guid && p.port == number) return &p;
  return nullptr;
}
const PortCounters* port_at_lid(const CounterReadings& r, uint16_t lid, int number) {
  for (const auto& p : r.ports)
    if (p.lid == lid && p.port == number) return &p;
  return nullptr;
}

std::string error_of(std::string_view text) {
  try {
    parse_counters_text(text, "c.txt");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("ibqueryerrors: every port printed, switch ports by node GUID, HCA ports by port GUID") {
  const CounterReadings r = load_counters_file(kData + "ibqueryerrors.txt");
  CHECK(r.form == "ibqueryerrors");
  const PortCounters* leaf = port(r, 0xb83fd20300a00000, 1);
  REQUIRE(leaf);
  CHECK_FALSE(leaf->port_guid);
  CHECK((*leaf)[PC::SymbolErrorCounter] == 500);
  CHECK((*leaf)[PC::LinkErrorRecoveryCounter] == 12);
  CHECK_FALSE(leaf->has(PC::PortRcvErrors));  // not printed: 0, below the default threshold of 0
  CHECK(leaf->description == "MF0;su1-rail0:MQM8700/U1");
  const PortCounters* hca = port(r, 0xb83fd20300c00021, 1);  // dgx003's port GUID (node GUID + 1 in ibsim)
  REQUIRE(hca);
  CHECK(hca->port_guid);
  CHECK((*hca)[PC::PortRcvErrors] == 25);
  CHECK(hca->description == "dgx003 mlx5_0");
  // Port 7 has no cable; its 8-bit and 32-bit counters stopped at all ones.
  const PortCounters* down = port(r, 0xb83fd20300a00000, 7);
  REQUIRE(down);
  CHECK(down->maxed(PC::LinkDownedCounter));
  CHECK(down->maxed(PC::PortXmitWait));
  CHECK((*down)[PC::PortXmitWait] == 4294967295u);
  REQUIRE(port(r, 0xb83fd20300a00000, PortCounters::kAllPorts));
  CHECK(r.printed_above.empty());
}

TEST_CASE("ibqueryerrors --details -r --data and a threshold file read the same counters") {
  const CounterReadings plain = load_counters_file(kData + "ibqueryerrors.txt");
  const CounterReadings details = load_counters_file(kData + "ibqueryerrors-details.txt");
  REQUIRE(details.ports.size() == plain.ports.size());
  for (size_t i = 0; i < plain.ports.size(); ++i) {
    CHECK(details.ports[i].guid == plain.ports[i].guid);
    CHECK(details.ports[i].read == plain.ports[i].read);
    CHECK(details.ports[i].value == plain.ports[i].value);
  }
  const CounterReadings th = load_counters_file(kData + "ibqueryerrors-thresholds.txt");
  REQUIRE(th.printed_above.size() == 2);
  CHECK(th.printed_above[0] == std::make_pair(PC::SymbolErrorCounter, uint64_t{600}));
  const PortCounters* leaf = port(th, 0xb83fd20300a00000, 1);
  REQUIRE(leaf);
  CHECK_FALSE(leaf->has(PC::SymbolErrorCounter));  // 500, below the file's 600
  CHECK((*leaf)[PC::LinkErrorRecoveryCounter] == 12);
}

TEST_CASE("ibqueryerrors: --details items, extended values and failed queries as the source prints them") {
  // ibqueryerrors.c: details follow their counter inline; "(500.000)" marks a 64-bit value.
  const CounterReadings r = parse_ibqueryerrors_text(
      "Errors for 0x200000 \"MF0;leaf01:MQM8700/U1\"\n"
      "   GUID 0x200000 port 3: [PortXmitDiscards == 70000 (68.359K)] [PortLocalPhysicalErrors == 4] "
      "[LinkDownedCounter == 255 (255.000)]\n"
      "ibwarn: [1234] print_errors: IB_GSI_PORT_COUNTERS query failed on leaf02, Lid 4 port 0\n"
      "\n## Summary: 2 nodes checked, 1 bad nodes found\n"
      "##          80 ports checked, 1 ports have errors beyond threshold\n## Thresholds: \n"
      "##          1 PMA query failures\n## Suppressed:\n",
      "x.txt");
  REQUIRE(r.ports.size() == 1);
  CHECK(r.ports[0][PC::PortXmitDiscards] == 70000);  // above 16 bits: only a 64-bit copy holds it
  CHECK_FALSE(r.ports[0].maxed(PC::LinkDownedCounter));  // 255 of 64 bits is no maximum
  CHECK(r.failed_queries == 1);
}

TEST_CASE("perfquery: one port, -x, -a and port lists, named by LID") {
  const CounterReadings one = load_counters_file(kData + "perfquery-port.txt");
  CHECK(one.form == "perfquery");
  REQUIRE(one.ports.size() == 1);  // perfquery and perfquery -x of one port: one port
  CHECK(one.ports[0].guid == 0);
  CHECK(one.ports[0].lid == 1);
  CHECK(one.ports[0][PC::SymbolErrorCounter] == 500);
  CHECK(one.ports[0][PC::PortXmitWait] == 0);
  const CounterReadings all = load_counters_file(kData + "perfquery-a.txt");
  REQUIRE(all.ports.size() == 1);
  CHECK(all.ports[0].port == PortCounters::kAllPorts);
  CHECK(all.ports[0].maxed(PC::LinkDownedCounter));
  const CounterReadings list = load_counters_file(kData + "perfquery-all.txt");
  CHECK(list.ports.size() == 24);  // 3 switches, ports 1-8
  const PortCounters* spine3 = port_at_lid(list, 3, 3);
  REQUIRE(spine3);
  CHECK((*spine3)[PC::PortXmitDiscards] == 150);
}

TEST_CASE("perfquery -x with CapabilityMask2 bit 1: the error counters are 64 bits wide") {
  const CounterReadings r = parse_perfquery_text(
      "# Port extended counters: Lid 9 port 2 (CapMask: 0x1A00 CapMask2: 0x0000002)\n"
      "PortSelect:......................2\nSymbolErrorCounter:..............65535\n"
      "PortXmitWait:....................4294967295\n",
      "x.txt");
  REQUIRE(r.ports.size() == 1);
  CHECK(r.ports[0][PC::SymbolErrorCounter] == 65535);
  CHECK_FALSE(r.ports[0].maxed(PC::SymbolErrorCounter));
  CHECK_FALSE(r.ports[0].maxed(PC::PortXmitWait));
}

TEST_CASE("ibdiagnet2.pm: the 64-bit copy wins, NA is no value, the run's time is kept") {
  const CounterReadings r = load_counters_file(kData + "ibdiagnet2.pm");
  CHECK(r.form == "ibdiagnet2.pm");
  CHECK(r.read_at == "2026-12-06 06:40:00 UTC +0000");
  REQUIRE(r.ports.size() == 5);
  const PortCounters* leaf = port(r, 0xb83fd20300a00000, 1);
  REQUIRE(leaf);
  CHECK((*leaf)[PC::SymbolErrorCounter] == 500);
  // port_xmit_wait=0xffffffff beside port_xmit_wait_extended: the 64-bit value, not "at least".
  CHECK((*leaf)[PC::PortXmitWait] == 0x23413832cull);
  CHECK_FALSE(leaf->maxed(PC::PortXmitWait));
  const PortCounters* spine = port(r, 0xb83fd20300a00020, 3);
  REQUIRE(spine);
  CHECK((*spine)[PC::PortXmitDiscards] == 150);  // port_xmit_discard / port_xmit_discards_extended
  CHECK(leaf->description == "MF0;su1-rail0:MQM8700/U1/P1");
}

TEST_CASE("counters files: recognised by content, bad input named by file and line") {
  CHECK(error_of("") == "c.txt: empty file: expected ibqueryerrors, perfquery or ibdiagnet2.pm output");
  CHECK(error_of("\n\n") ==
        "c.txt: empty file (only blank lines): expected ibqueryerrors, perfquery or ibdiagnet2.pm output");
  CHECK(error_of(std::string("ab\0cd", 5)) == "c.txt: binary data, not ibqueryerrors, perfquery or ibdiagnet2.pm output");
  CHECK(error_of("Switch 36 \"S-0002c9\"\n").starts_with("c.txt:1: expected ibqueryerrors, perfquery or ibdiagnet2.pm"));
  CHECK(error_of("Errors for \"x\"\n   GUID 0x1 port 1: [SymbolErrorCounter == lots]\n") ==
        "c.txt:2: expected a whole number after \"SymbolErrorCounter ==\", found \"lots\"");
  CHECK(error_of("Errors for \"x\"\n   GUID 0x1 port 300: [SymbolErrorCounter == 1]\n") ==
        "c.txt:2: expected a port number 0-254 or ALL, found \"300\"");
  CHECK(error_of("Errors for \"x\"\n   GUID 0x1 port 1: [SymbolErrorCounter == 1\n") ==
        "c.txt:2: expected the closing ']' of a counter (line cut off?), found \"[SymbolErrorCounter == 1\"");
  CHECK(error_of("# Port counters: Lid 0 port 1 (CapMask: 0x1300)\n") ==
        "c.txt:1: expected \"Lid L port P\" with L a unicast LID and P a port 0-255, found \"Lid 0 port 1 (CapMask: 0...\"");
  CHECK(error_of("# Port counters: Lid 1 port 1 (CapMask: 0x1300)\nSymbolErrorCounter:....x1\n") ==
        "c.txt:2: expected a whole number after \"SymbolErrorCounter:...\", found \"x1\"");
  CHECK(error_of("Port=1 Lid=0x0001 GUID=0x1 Device=1 Port Name=x\nsymbol_error_counter=0xzz\n") ==
        "c.txt:2: expected a number or NA after \"symbol_error_counter=\", found \"0xzz\"");
  CHECK(error_of("Port=1 Lid=0x0001 Device=1\n").starts_with("c.txt"));  // not even recognised: no GUID=
}

TEST_CASE("counters files: the not-recognised error quotes the first line that is not a tool warning, with its line") {
  const std::string expected =
      "expected ibqueryerrors, perfquery or ibdiagnet2.pm output (an \"Errors for\" or \"## Summary:\" line, a "
      "\"# Port counters:\" block, or a \"Port=N Lid=0x.. GUID=0x..\" block), found ";
  CHECK(error_of("Total errors: 12\n") == "c.txt:1: " + expected + "\"Total errors: 12\"");
  // ibwarn: lines (saved with 2>&1) and blank lines are passed over to the line that is wrong.
  CHECK(error_of("ibwarn: [1234] mad_rpc: _do_madrpc failed; dport (Lid 1)\n\n  Total errors: 12\r\n") ==
        "c.txt:3: " + expected + "\"Total errors: 12\"");
  CHECK(error_of("ibwarn: [1234] mad_rpc: _do_madrpc failed\n\nibwarn: [1234] dump_perfcounters: query failed\n") ==
        "c.txt: " + expected + "only \"ibwarn:\" lines (the tool's warnings, not its output)");
  // A run whose first queries all failed: more warnings than the first 4 KiB, then the output.
  std::string warned;
  for (int i = 0; i < 100; ++i)
    warned += "ibwarn: [1234] print_errors: IB_GSI_PORT_COUNTERS query failed on leaf02, Lid 4 port " +
              std::to_string(i) + "\n";
  REQUIRE(warned.size() > 4096);
  const CounterReadings r = parse_counters_text(
      warned + "Errors for \"dgx003 mlx5_0\"\n   GUID 0xb83fd20300c00021 port 1: [PortRcvErrors == 25]\n", "c.txt");
  CHECK(r.form == "ibqueryerrors");
  REQUIRE(r.ports.size() == 1);
  CHECK(r.ports[0].line == 102);
}

TEST_CASE("ibqueryerrors: a port line's error quotes the line as written, or its token as in the file") {
  CHECK(error_of("## Summary: 7 nodes checked, 1 bad nodes found\n"
                 "   GUID 0xb83fd20300a00000 port 1: [SymbolErrorCounter == 500]\n") ==
        "c.txt:2: expected an \"Errors for\" line before the first port line, found \"GUID 0xb83fd20300a00000 ...\"");
  CHECK(error_of("Errors for \"x\"\n   GUID b83fd20300a00000 port 1: [SymbolErrorCounter == 1]\n") ==
        "c.txt:2: expected a GUID \"0x<hex>\" after \"GUID\", found \"b83fd20300a00000\"");
  CHECK(error_of("Errors for \"x\"\n   GUID 0x1 prt 1: [SymbolErrorCounter == 1]\n") ==
        "c.txt:2: expected \"GUID 0x<hex> port N:\", found \"GUID 0x1 prt 1: [SymbolE...\"");
  CHECK(error_of("Errors for \"x\"\n   GUID 0x1 port 1 [SymbolErrorCounter == 1]\n") ==
        "c.txt:2: expected \"GUID 0x<hex> port N:\" with a colon, found \"GUID 0x1 port 1 [SymbolE...\"");
}

TEST_CASE("ibqueryerrors: a count of PMA query failures that does not fit is an error, not a wrapped number") {
  const std::string summary = "## Summary: 1 nodes checked, 0 bad nodes found\n##          ";
  CHECK(parse_counters_text(summary + "2147483647 PMA query failures\n", "c.txt").failed_queries == 2147483647);
  CHECK(error_of(summary + "2147483648 PMA query failures\n") ==
        "c.txt:2: expected a count 0-2147483647 before \"PMA query failures\", found \"2147483648\"");
  CHECK(error_of(summary + "18446744073709551616 PMA query failures\n") ==
        "c.txt:2: expected a count 0-2147483647 before \"PMA query failures\", found \"18446744073709551616\"");
  CHECK(error_of(summary + "many PMA query failures\n") ==
        "c.txt:2: expected a count 0-2147483647 before \"PMA query failures\", found \"many\"");
}

TEST_CASE("perfquery -x then perfquery of one port in one file: the plain block does not overwrite the 64-bit values") {
  // What an admin's saved file holds after `perfquery -x L P >f; perfquery L P >>f` on a port
  // whose PMA has CapabilityMask2 bit 1: the -x block carries the error counters, 64 bits wide;
  // the plain block's 16-, 8- and 32-bit copies stopped at all ones. Lines as perfquery prints
  // them (tests/data/counters/perfquery-port.txt; libibmad's extended error fields).
  const std::string extended =
      "# Port extended counters: Lid 1 port 1 (CapMask: 0x1300 CapMask2: 0x0000002)\n"
      "PortSelect:......................1\n"
      "CounterSelect:...................0x0000\n"
      "PortXmitData:....................120528\n"
      "PortRcvData:.....................120600\n"
      "PortXmitPkts:....................1674\n"
      "PortRcvPkts:.....................1675\n"
      "PortUnicastXmitPkts:.............0\n"
      "PortUnicastRcvPkts:..............0\n"
      "PortMulticastXmitPkts:...........0\n"
      "PortMulticastRcvPkts:............0\n"
      "CounterSelect2:..................0x00000000\n"
      "SymbolErrorCounter:..............70000\n"
      "LinkErrorRecoveryCounter:........12\n"
      "LinkDownedCounter:...............300\n"
      "PortRcvErrors:...................0\n"
      "PortRcvRemotePhysicalErrors:.....0\n"
      "PortRcvSwitchRelayErrors:........0\n"
      "PortXmitDiscards:................0\n"
      "PortXmitConstraintErrors:........0\n"
      "PortRcvConstraintErrors:.........0\n"
      "LocalLinkIntegrityErrors:........0\n"
      "ExcessiveBufferOverrunErrors:....0\n"
      "VL15Dropped:.....................0\n"
      "PortXmitWait:....................5000000000\n"
      "QP1Dropped:......................0\n";
  const std::string plain =
      "# Port counters: Lid 1 port 1 (CapMask: 0x1300)\n"
      "PortSelect:......................1\n"
      "CounterSelect:...................0x0000\n"
      "SymbolErrorCounter:..............65535\n"
      "LinkErrorRecoveryCounter:........12\n"
      "LinkDownedCounter:...............255\n"
      "PortRcvErrors:...................0\n"
      "PortRcvRemotePhysicalErrors:.....0\n"
      "PortRcvSwitchRelayErrors:........0\n"
      "PortXmitDiscards:................0\n"
      "PortXmitConstraintErrors:........0\n"
      "PortRcvConstraintErrors:.........0\n"
      "CounterSelect2:..................0x00\n"
      "LocalLinkIntegrityErrors:........0\n"
      "ExcessiveBufferOverrunErrors:....0\n"
      "QP1Dropped:......................0\n"
      "VL15Dropped:.....................0\n"
      "PortXmitData:....................120384\n"
      "PortRcvData:.....................120456\n"
      "PortXmitPkts:....................1672\n"
      "PortRcvPkts:.....................1673\n"
      "PortXmitWait:....................4294967295\n";
  for (const std::string& text : {extended + plain, plain + extended}) {
    const CounterReadings r = parse_counters_text(text, "saved.txt");
    CHECK(r.form == "perfquery");
    REQUIRE(r.ports.size() == 1);  // one port, two blocks
    const PortCounters& p = r.ports[0];
    CHECK(p.line == 1);
    CHECK(p[PC::SymbolErrorCounter] == 70000);
    CHECK_FALSE(p.maxed(PC::SymbolErrorCounter));
    CHECK(p[PC::LinkDownedCounter] == 300);
    CHECK_FALSE(p.maxed(PC::LinkDownedCounter));
    CHECK(p[PC::PortXmitWait] == 5000000000ull);
    CHECK_FALSE(p.maxed(PC::PortXmitWait));
    CHECK(p[PC::LinkErrorRecoveryCounter] == 12);
    CHECK(p.at_max == 0);
  }
  // Without CapabilityMask2 bit 1 the -x block has no error counters: the plain block gives them,
  // "at least" where they stopped (the captured file: perfquery, then perfquery -x).
  const std::string data_only = extended.substr(0, extended.find("CounterSelect2:"));
  const CounterReadings r = parse_counters_text(data_only + plain, "saved.txt");
  REQUIRE(r.ports.size() == 1);
  CHECK(r.ports[0][PC::SymbolErrorCounter] == 65535);
  CHECK(r.ports[0].maxed(PC::SymbolErrorCounter));
  CHECK(r.ports[0].maxed(PC::PortXmitWait));
}
