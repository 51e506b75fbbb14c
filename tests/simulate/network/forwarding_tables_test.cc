#include "simulate/network/forwarding_tables.h"

#include <doctest/doctest.h>

#include <sstream>

#include "base/input_error.h"
#include "tests/simulate/network/routing_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::test;

namespace {
ForwardingTables read(const std::string& text) {
  std::istringstream in(text);
  return read_forwarding_tables(in, "lfts.txt");
}

// The line an InputError names, or 0 if none was thrown.
int error_line(const std::string& text) {
  try {
    read(text);
  } catch (const InputError& e) {
    CHECK(e.file() == "lfts.txt");
    return e.line();
  }
  return 0;
}
}  // namespace

TEST_CASE("forwarding tables: dump_fts text with destinations, as rdma-core prints it") {
  const ForwardingTables t = read(
      "Unicast lids [0x0-0x6] of switch Lid 2 guid 0x0002c90200401234 (MF0;leaf01:MQM8700/U1):\n"
      "  Lid  Out   Destination\n"
      "       Port     Info \n"
      "0x0001 017 : (Switch portguid 0x0002c90200405678: 'MF0;spine01:MQM8700/U1')\n"
      "0x0002 000 : (Switch portguid 0x0002c90200401234: 'MF0;leaf01:MQM8700/U1')\n"
      "0x0004 001 : (Channel Adapter portguid 0x0002c9030001a2b1: 'gpu001 mlx5_0')\n"
      "0x0005 002 : (path #2 out of 2: portguid 0x0002c9030001a2b1)\n"
      "0x0006 018 : (Channel Adapter portguid 0x0002c9030001a2c1: 'gpu004 mlx5_0')\n"
      "5 valid lids dumped \n"
      "\n"
      "Unicast lids [0x0-0x6] of switch DR path slid 0; dlid 0; 0,17 guid 0x0002c90200405678 (MF0;spine01:MQM8700/U1):\n"
      "  Lid  Out   Destination\n"
      "       Port     Info \n"
      "0x0001 000 : (Switch portguid 0x0002c90200405678: 'MF0;spine01:MQM8700/U1')\n"
      "0x0003 255 : (illegal port)\n"
      "2 lids dumped \n");
  REQUIRE(t.by_switch.size() == 2);
  const auto& leaf = t.by_switch.at(0x0002c90200401234);
  CHECK(leaf == std::vector<uint8_t>{255, 17, 0, 255, 1, 2, 18});
  const auto& spine = t.by_switch.at(0x0002c90200405678);
  CHECK(spine.size() == 7);
  CHECK(spine[1] == 0);
  CHECK(spine[3] == 255);
}

TEST_CASE("forwarding tables: brief (-n) output, dump_lfts' warning, multicast blocks, comments") {
  const ForwardingTables t = read(
      "# captured with dump_lfts\n"
      "Unicast lids [0x0-0x3] of switch Lid 1 guid 0xb83fd20300a00000 (MF0;leaf001:MQM9700/U1):\n"
      "  Lid  Out   Destination\n"
      "       Port     Info \n"
      "0x0001 000 \n"
      "0x0003 005 \n"
      "2 valid lids dumped \n"
      "Multicast mlids [0xc000-0xc3ff] of switch Lid 1 guid 0xb83fd20300a00000 (MF0;leaf001:MQM9700/U1):\n"
      "     Ports: 0 1 2 3 4 5 6 7 8 9 \n"
      " MLid\n"
      "0xc000      x     x     \n"
      "1 valid mlids dumped \n"
      "\n"
      "*** WARNING ***: this command has been replaced by dump_fts\n");
  CHECK(t.by_switch.at(0xb83fd20300a00000) == std::vector<uint8_t>{255, 0, 255, 5});
}

TEST_CASE("forwarding tables: written and read back unchanged") {
  const Cluster c = cluster_of(generate_fattree({.levels = 3, .radix = 8, .hosts = 24}));
  const ForwardingTables tables = compute_minhop_tables(c);
  for (const Cluster* with : {static_cast<const Cluster*>(nullptr), &c}) {
    std::ostringstream out;
    write_forwarding_tables(out, tables, with);
    CHECK(read(out.str()) == tables);
  }
  std::ostringstream out;
  write_forwarding_tables(out, tables, &c);
  CHECK(out.str().find("of switch Lid 1 guid 0xb83fd20300a00000 (MF0;leaf001:MQM9700/U1):") !=
        std::string::npos);
}

TEST_CASE("forwarding tables: bad lines are input errors naming file and line") {
  const std::string header = "Unicast lids [0x0-0x3] of switch Lid 1 guid 0x0000000000000001 (sw):\n";
  CHECK(error_line("0x0001 001\n") == 1);                               // entry before any header
  CHECK(error_line(header + "0x0001 abc\n") == 2);                      // port not a number
  CHECK(error_line(header + "0x0001 256\n") == 2);                      // no such port
  CHECK(error_line(header + "0xzz 001\n") == 2);                        // LID not hex
  CHECK(error_line(header + "0x10000 001\n") == 2);                     // LID beyond 16 bits
  CHECK(error_line(header + "0x0001 001\n0x0001 002\n") == 3);          // LID twice
  CHECK(error_line(header + "0x0001 001\n2 valid lids dumped \n") == 3);  // truncated block
  CHECK(error_line(header + "0x0001 001\nswitch on fire\n") == 3);      // not a table line
  CHECK(error_line("Unicast lids [0x0-0x3] of switch Lid 1 (sw):\n") == 1);  // no guid
  CHECK(error_line("Unicast lids of switch Lid 1 guid 0x01 (sw):\n") == 1);  // no LID range
  CHECK(error_line(header + "0 valid lids dumped\n" + header) == 3);    // same switch twice
  try {
    read("");
    FAIL("expected InputError");
  } catch (const InputError& e) {
    CHECK(e.line() == 0);
  }
  CHECK_THROWS_AS(read_forwarding_tables_file("/nonexistent/lfts.txt"), InputError);
}
