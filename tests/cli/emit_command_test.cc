// `slurmtopo emit topology` as an admin runs it: bad input refused with file:line and exit 2,
// nothing written; a good file written atomically, kept as .bak, diffed, never shrunk silently.
#include <doctest/doctest.h>

#include <filesystem>

#include "tests/cli/cli_test_support.h"
#include "tests/skip.h"

using namespace slurmtopo::testing;

namespace {
// Two leaves of two hosts under one spine, as ibnetdiscover prints it.
const char* kSmall = R"(#
# Topology file: generated on Mon Nov 30 10:48:06 2026
#
vendid=0x2c9
devid=0xd2f2
sysimgguid=0xa0
switchguid=0xa0(a0)
Switch	65 "S-00000000000000a0"		# "MF0;leaf01:MQM9700/U1" enhanced port 0 lid 1 lmc 0
[1]	"H-0000000000000c01"[1](c01) 		# "gpu001 mlx5_0" lid 11 4xNDR
[2]	"H-0000000000000c02"[1](c02) 		# "gpu002 mlx5_0" lid 12 4xNDR
[33]	"S-00000000000000b0"[1]		# "MF0;spine01:MQM9700/U1" lid 3 4xNDR

vendid=0x2c9
devid=0xd2f2
sysimgguid=0xa1
switchguid=0xa1(a1)
Switch	65 "S-00000000000000a1"		# "MF0;leaf02:MQM9700/U1" enhanced port 0 lid 2 lmc 0
[1]	"H-0000000000000c03"[1](c03) 		# "gpu003 mlx5_0" lid 13 4xNDR
[2]	"H-0000000000000c04"[1](c04) 		# "gpu004 mlx5_0" lid 14 4xNDR
[33]	"S-00000000000000b0"[2]		# "MF0;spine01:MQM9700/U1" lid 3 4xNDR

vendid=0x2c9
devid=0xd2f2
sysimgguid=0xb0
switchguid=0xb0(b0)
Switch	65 "S-00000000000000b0"		# "MF0;spine01:MQM9700/U1" enhanced port 0 lid 3 lmc 0
[1]	"S-00000000000000a0"[33]		# "MF0;leaf01:MQM9700/U1" lid 1 4xNDR
[2]	"S-00000000000000a1"[33]		# "MF0;leaf02:MQM9700/U1" lid 2 4xNDR

vendid=0x2c9
devid=0x1021
sysimgguid=0xc01
caguid=0xc01
Ca	1 "H-0000000000000c01"		# "gpu001 mlx5_0"
[1](c01) 	"S-00000000000000a0"[1]		# lid 11 lmc 0 "MF0;leaf01:MQM9700/U1" lid 1 4xNDR

vendid=0x2c9
devid=0x1021
sysimgguid=0xc02
caguid=0xc02
Ca	1 "H-0000000000000c02"		# "gpu002 mlx5_0"
[1](c02) 	"S-00000000000000a0"[2]		# lid 12 lmc 0 "MF0;leaf01:MQM9700/U1" lid 1 4xNDR

vendid=0x2c9
devid=0x1021
sysimgguid=0xc03
caguid=0xc03
Ca	1 "H-0000000000000c03"		# "gpu003 mlx5_0"
[1](c03) 	"S-00000000000000a1"[1]		# lid 13 lmc 0 "MF0;leaf02:MQM9700/U1" lid 2 4xNDR

vendid=0x2c9
devid=0x1021
sysimgguid=0xc04
caguid=0xc04
Ca	1 "H-0000000000000c04"		# "gpu004 mlx5_0"
[1](c04) 	"S-00000000000000a1"[2]		# lid 14 lmc 0 "MF0;leaf02:MQM9700/U1" lid 2 4xNDR
)";

const std::string kExpected =
    "SwitchName=leaf01 Nodes=gpu[001-002]\n"
    "SwitchName=leaf02 Nodes=gpu[003-004]\n";
}  // namespace

TEST_CASE("emit topology: writes the tree, byte-identical on a second run") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  Run r = run("emit topology --fabric " + fabric + " -o " + s.path("topology.conf"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  std::string first = s.read("topology.conf");
  CHECK(first.find(kExpected) != std::string::npos);
  CHECK(first.find("SwitchName=spine01 Switches=leaf[01-02]\n") != std::string::npos);
  CHECK(first.find("generated on") == std::string::npos);  // no timestamp from the dump
  CHECK(run("emit topology --fabric " + fabric + " -o " + s.path("again.conf")).code == 0);
  CHECK(s.read("again.conf") == first);
}

TEST_CASE("emit topology: bad input names file and line, exits 2 and writes nothing") {
  Scratch s;
  std::string good(kSmall);
  struct Bad { const char* name; std::string content; const char* expect; };
  const Bad cases[] = {
      {"empty", "", "empty.txt"},
      {"garbage", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0binary", 17), "garbage.txt"},
      {"truncated", good.substr(0, good.find("[2]\t\"H-0000000000000c02\"") + 12), "truncated.txt:"},
  };
  for (const auto& b : cases) {
    CAPTURE(b.name);
    std::string f = s.write(std::string(b.name) + ".txt", b.content);
    Run r = run("emit topology --fabric " + f + " -o " + s.path("out.conf"));
    CHECK(r.code == 2);
    CHECK(r.output.find(b.expect) != std::string::npos);
    CHECK_FALSE(s.exists("out.conf"));
  }
}

TEST_CASE("emit topology: a bad node-name map or site.yaml is refused with its line") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  std::string map = s.write("map.txt", "0x0000000000000c01 \"gpu001\"\nnot-a-guid gpu002\n");
  Run r = run("emit topology --fabric " + fabric + " --node-name-map " + map + " -o " + s.path("out.conf"));
  CHECK(r.code == 2);
  CHECK(r.output.find("map.txt:2") != std::string::npos);
  std::string site = s.write("site.yaml", "host_regex: '^(\\S+)'\ncolour: blue\n");
  r = run("emit topology --fabric " + fabric + " --config " + site + " -o " + s.path("out.conf"));
  CHECK(r.code == 2);
  CHECK(r.output.find("site.yaml:2") != std::string::npos);
  CHECK_FALSE(s.exists("out.conf"));
}

TEST_CASE("emit topology: a file that would drop nodes is refused unless --allow-missing, and .bak kept") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  std::string out = s.path("topology.conf");
  REQUIRE(run("emit topology --fabric " + fabric + " -o " + out).code == 0);
  std::string before = s.read("topology.conf");
  // Half the hosts gone from the sweep (leaf02's cable to the spine pulled and its hosts lost).
  std::string shrunk(kSmall);
  shrunk = shrunk.substr(0, shrunk.find("vendid=0x2c9\ndevid=0xd2f2\nsysimgguid=0xa1"));
  shrunk += "\nvendid=0x2c9\ndevid=0xd2f2\nsysimgguid=0xb0\nswitchguid=0xb0(b0)\n"
            "Switch\t65 \"S-00000000000000b0\"\t\t# \"MF0;spine01:MQM9700/U1\" enhanced port 0 lid 3 lmc 0\n"
            "[1]\t\"S-00000000000000a0\"[33]\t\t# \"MF0;leaf01:MQM9700/U1\" lid 1 4xNDR\n";
  std::string small = s.write("shrunk.txt", shrunk);
  Run r = run("emit topology --fabric " + small + " -o " + out);
  CHECK(r.code == 2);
  CHECK(r.output.find("drops 2 of the 4 nodes") != std::string::npos);
  CHECK(s.read("topology.conf") == before);
  r = run("emit topology --fabric " + small + " --allow-missing -o " + out);
  CHECK(r.code == 0);
  CHECK(s.read("topology.conf.bak") == before);
  CHECK(s.read("topology.conf").find("gpu[003-004]") == std::string::npos);
}

TEST_CASE("emit topology: --diff says what changes, --nodes restricts and reports both ways") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  std::string old = s.write("old.conf", "SwitchName=leaf01 Nodes=gpu[001-003]\nSwitchName=leaf02 Nodes=gpu004\n"
                                        "SwitchName=spine01 Switches=leaf[01-02]\n");
  Run r = run("emit topology --fabric " + fabric + " --diff " + old);
  CHECK(r.code == 0);
  CHECK(r.output.find("~ gpu003: leaf01 -> leaf02") != std::string::npos);
  // One of four Slurm nodes under no switch is above the shrink guard's threshold: refused,
  // nothing written, unless --allow-missing.
  r = run("emit topology --fabric " + fabric + " --nodes 'gpu[001-003,009]' -o " + s.path("n.conf"));
  CHECK(r.code == 2);
  CHECK(r.output.find("1 of --nodes's 4 nodes would be under no switch") != std::string::npos);
  CHECK(r.output.find("gpu009") != std::string::npos);
  CHECK_FALSE(s.exists("n.conf"));
  r = run("emit topology --fabric " + fabric + " --nodes 'gpu[001-003,009]' --allow-missing");
  CHECK(r.code == 0);
  CHECK(r.output.find("gpu009") != std::string::npos);
  CHECK(r.output.find("1 fabric host not in Slurm, left out: gpu004") != std::string::npos);
  CHECK(r.output.find("SwitchName=leaf02 Nodes=gpu003\n") != std::string::npos);
}

TEST_CASE("emit topology: site.yaml excludes storage hosts and sets the expected link") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  std::string site = s.write("site.yaml",
                             "exclude_hosts: ['gpu004']\n"
                             "expected_link: 4xXDR\n");
  Run r = run("emit topology --fabric " + fabric + " --config " + site);
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("SwitchName=leaf02 Nodes=gpu003\n") != std::string::npos);
  Run i = run("inspect --fabric " + fabric + " --config " + site);
  // XDR was bought, but every part is NDR (ConnectX-7, Quantum-2): the expectation is capped by
  // what both ends support, so no cable is degraded, and the inventory says why they run NDR.
  CHECK(i.output.find("degraded-link") == std::string::npos);
  CHECK(i.output.find("  4 cables 4xNDR: the best both ends support (ConnectX-7 0x1021, Quantum-2 0xd2f2); the site "
                      "expects 4xXDR, more than these parts do\n") != std::string::npos);
}

TEST_CASE("emit topology: --slurm-conf restricts to the NodeName lines, Include followed") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  s.write("nodes.conf", "NodeName=gpu[003-004] CPUs=8\n");
  std::string conf = s.write("slurm.conf", "ClusterName=t\nNodeName=DEFAULT CPUs=8\nNodeName=gpu001\nInclude nodes.conf\n");
  Run r = run("emit topology --fabric " + fabric + " --slurm-conf " + conf);
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("SwitchName=leaf01 Nodes=gpu001\n") != std::string::npos);
  CHECK(r.output.find("SwitchName=leaf02 Nodes=gpu[003-004]\n") != std::string::npos);
  CHECK(r.output.find("left out: gpu002") != std::string::npos);
}

TEST_CASE("emit topology: a fabric whose HCAs are all unnamed says what to give") {
  Scratch s;
  std::string text(kSmall);
  for (const char* host : {"gpu001", "gpu002", "gpu003", "gpu004"})
    for (size_t p; (p = text.find(std::string(host) + " mlx5_0")) != std::string::npos;)
      text.replace(p, 13, "MT4129 ConnectX7   Mellanox Technologies");
  std::string fabric = s.write("fabric.txt", text);
  Run r = run("emit topology --fabric " + fabric + " -o " + s.path("t.conf"));
  CHECK(r.code == 2);
  CHECK(r.output.find("no HCA has a usable host name (4 unresolved)") != std::string::npos);
  CHECK_FALSE(s.exists("t.conf"));
}

TEST_CASE("emit topology: a name map or slurm.conf matching nothing in the fabric is a warning with counts") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  std::string map = s.write("other.map", "0x1111 \"x01 HCA-1\"\n0x2222 \"x02 HCA-1\"\n");
  Run r = run("emit topology --fabric " + fabric + " --node-name-map " + map);
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("warning: the name map " + map + " matches nothing in the fabric (2 entries") != std::string::npos);
  std::string conf = s.write("slurm.conf", "ClusterName=t\nNodeName=x[01-03] CPUs=8\n");
  r = run("emit topology --fabric " + fabric + " --slurm-conf " + conf + " -o " + s.path("x.conf"));
  CHECK(r.code == 2);  // a slurm.conf of another cluster: every node unplaced, refused
  CHECK(r.output.find("none of " + conf + "'s 3 nodes is a host of the fabric, whose 4 hosts are") != std::string::npos);
  CHECK_FALSE(s.exists("x.conf"));
  Run i = run("inspect --fabric " + fabric + " --node-name-map " + map);
  CHECK(i.output.find("2 entries, 0 in the fabric, 2 unknown GUIDs") != std::string::npos);
}

TEST_CASE("emit topology: partial hosts warn with the hint — storage hosts are left out unless named") {
  Scratch s;
  std::string partial = s.path("partial.topo");
  Run g = run("generate railopt --scalable-units 2 --hosts-per-su 4 --rails 4 -k 16 --remove-cable 'dgx003 mlx5_0,su1-rail0'"
              " --remove-cable 'dgx003 mlx5_1,su1-rail1' -o " + partial);
  REQUIRE_MESSAGE(g.code == 0, g.output);
  // dgx003 is named like its unit: a compute node that lost cables, kept in topology.conf.
  Run r = run("emit topology --fabric " + partial);
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("SwitchName=su1 Nodes=dgx[001-004]\n") != std::string::npos);
  CHECK(r.output.find("left out") == std::string::npos);
  std::string storage = s.path("storage.topo");
  std::string cmd = "generate railopt --scalable-units 2 --hosts-per-su 4 --rails 4 -k 16 --storage";
  for (int k = 0; k < 4; ++k) cmd += " --remove-cable dgx001,su1-rail" + std::to_string(k);
  g = run(cmd + " -o " + storage);
  REQUIRE_MESSAGE(g.code == 0, g.output);
  r = run("emit topology --fabric " + storage);
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("1 host left out: storage dgx001 (HCAs on side rails only)") !=
        std::string::npos);
  CHECK(r.output.find("Nodes=dgx001") == std::string::npos);
  r = run("emit topology --fabric " + storage + " --nodes 'dgx[001-008]'");
  CHECK(r.output.find("dgx[001-004]") == std::string::npos);  // dgx001 is not with the compute hosts
  CHECK(r.output.find("dgx001") != std::string::npos);
}

namespace {
const char* kUuidA = "5e797fc6-0f46-421a-8724-0e102c0f723c";
const char* kUuidB = "5e797fc6-0f46-421a-8724-0e102c0f721e";
std::string domains(const std::string& extra = "") {
  return std::string("gpu001: ") + kUuidA + "\ngpu002: " + kUuidA + "\ngpu003: " + kUuidB + "\ngpu004: " + kUuidB + "\n" + extra;
}
}  // namespace

TEST_CASE("emit topology: a form the release cannot read is refused naming the release that added it") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  Run r = run("emit topology --fabric " + fabric + " --format yaml --slurm-version 22.05 -o " + s.path("topology.yaml"));
  CHECK(r.code == 2);
  CHECK(r.output == "slurmtopo: --format yaml: topology.yaml needs Slurm 25.05 or later (added in 25.05); the files are "
                    "for Slurm 22.05 (--slurm-version 22.05)\n");
  CHECK_FALSE(s.exists("topology.yaml"));
  r = run("emit topology --fabric " + fabric + " --plugin block --slurm-version 23.02 -o " + s.path("block.conf"));
  CHECK(r.code == 2);
  CHECK(r.output.find("--plugin block: topology/block needs Slurm 23.11 or later (added in 23.11)") != std::string::npos);
  CHECK_FALSE(s.exists("block.conf"));
}

TEST_CASE("emit topology: the header says which release the file is for and how it was chosen") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  Run r = run("emit topology --fabric " + fabric + " --slurm-version 24.11");
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("# for Slurm 24.11 (--slurm-version 24.11)\n") != std::string::npos);
  r = run("emit topology --fabric " + fabric);
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK((r.output.find("# for Slurm 22.05 (no Slurm installed here, so 22.05)\n") != std::string::npos ||
         r.output.find(" -V: slurm") != std::string::npos || r.output.find("(scontrol --version: slurm") != std::string::npos));
}

TEST_CASE("emit topology --plugin block: blocks from the fabric's leaf groups, BlockSizes explained") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  Run r = run("emit topology --fabric " + fabric + " --plugin block --slurm-version 24.11 -o " + s.path("topology.conf"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("(2 blocks)") != std::string::npos);
  const std::string text = s.read("topology.conf");
  CHECK(text.find("# blocks: leaf groups of the InfiniBand fabric") != std::string::npos);
  CHECK(text.find("Nodes=gpu[001-002]\n") != std::string::npos);
  CHECK(text.find("Nodes=gpu[003-004]\n") != std::string::npos);
  CHECK(text.find("\nBlockSizes=2,4\n") != std::string::npos);
  CHECK(text.find("# BlockSizes: base block size 2: the smallest block") != std::string::npos);
}

TEST_CASE("emit topology --block-sizes: the admin's BlockSizes, judged as slurmctld reads them before a byte is written") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  const std::string emit = "emit topology --fabric " + fabric + " --plugin block --slurm-version 26.05 ";
  // slurmctld sets one block level per size: any order of base x 2^k is accepted, as given.
  Run r = run(emit + "--block-sizes 2,8,4 -o " + s.path("topology.conf"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  const std::string text = s.read("topology.conf");
  CHECK(text.find("\nBlockSizes=2,8,4\n") != std::string::npos);
  CHECK(text.find("# BlockSizes: as given (--block-sizes), checked as slurmctld reads them") != std::string::npos);
  CHECK(text.find("--block-sizes 2,8,4") != std::string::npos);  // the command that regenerates it
  // Not a power-of-two multiple of the first, or beyond topology/block's 16 levels: fatal in slurmctld.
  for (const std::string sizes : {"2,6", "2,131072"}) {
    r = run(emit + "--block-sizes " + sizes + " -o " + s.path("bad.conf"));
    CHECK(r.code == 2);
    CHECK(r.output.find("Invalid BlockSizes value: " + sizes + " (expected 2 times a power of two up to 2^15") !=
          std::string::npos);
    CHECK_FALSE(std::filesystem::exists(s.path("bad.conf")));
  }
  r = run(emit + "--block-sizes 2,65536 -o " + s.path("last-level.conf"));  // 2 x 2^15: the last level
  CHECK_MESSAGE(r.code == 0, r.output);
  r = run(emit + "--block-sizes 2,,4 -o " + s.path("bad.conf"));
  CHECK(r.code == 2);
  CHECK(r.output.find("--block-sizes: expected node counts separated by commas, like 18,36,72, not \"2,,4\"") !=
        std::string::npos);
  r = run("emit topology --fabric " + fabric + " --block-sizes 2,4 -o " + s.path("bad.conf"));
  CHECK(r.code == 2);
  CHECK(r.output.find("--block-sizes: needs a block topology: --plugin block, or --format yaml") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(s.path("bad.conf")));
}

TEST_CASE("emit topology --plugin block --nvlink-domains: one block per NVLink domain, with or without a fabric") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  std::string file = s.write("domains.txt", domains());
  Run r = run("emit topology --nvlink-domains " + file + " --plugin block --slurm-version 24.11 -o " + s.path("a.conf"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  const std::string text = s.read("a.conf");
  CHECK(text.find(std::string("BlockName=block_") + kUuidA + " Nodes=gpu[001-002]\n") != std::string::npos);
  CHECK(text.find(std::string("BlockName=block_") + kUuidB + " Nodes=gpu[003-004]\n") != std::string::npos);
  r = run("emit topology --fabric " + fabric + " --nvlink-domains " + file + " --plugin block --slurm-version 24.11 -o " + s.path("b.conf"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(s.read("b.conf").find(std::string("BlockName=block_") + kUuidA + " Nodes=gpu[001-002]\n") != std::string::npos);
}

TEST_CASE("emit topology --format yaml: tree, block and flat topologies, --plugin's is cluster_default") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  std::string file = s.write("domains.txt", domains());
  Run r = run("emit topology --fabric " + fabric + " --nvlink-domains " + file +
              " --format yaml --plugin block --slurm-version 25.05 -o " + s.path("topology.yaml"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("(3 topologies: tree, block, flat)") != std::string::npos);
  const std::string text = s.read("topology.yaml");
  CHECK(text.find("- topology: tree\n  cluster_default: false\n  tree:\n    switches:\n      - switch: leaf01\n        nodes: gpu[001-002]\n") !=
        std::string::npos);
  CHECK(text.find("      - switch: spine01\n        children: leaf[01-02]\n") != std::string::npos);
  CHECK(text.find("- topology: block\n  cluster_default: true\n  block:\n    block_sizes:\n      - 2\n      - 4\n") != std::string::npos);
  CHECK(text.find("- topology: flat\n  cluster_default: false\n  flat: true\n") != std::string::npos);
  // Same input, same bytes; and a second write is "unchanged".
  r = run("emit topology --fabric " + fabric + " --nvlink-domains " + file +
          " --format yaml --plugin block --slurm-version 25.05 -o " + s.path("topology.yaml"));
  CHECK(r.code == 0);
  CHECK(r.output.find("unchanged: ") != std::string::npos);
}

TEST_CASE("emit topology: NVLink domains naming unknown hosts, or malformed nvidia-smi output, exit 2 and write nothing") {
  Scratch s;
  std::string fabric = s.write("fabric.txt", kSmall);
  std::string file = s.write("domains.txt", domains(std::string("gpu099: ") + kUuidB + "\n"));
  Run r = run("emit topology --fabric " + fabric + " --nvlink-domains " + file + " --plugin block --slurm-version 24.11 -o " +
              s.path("out.conf"));
  CHECK(r.code == 2);
  CHECK(r.output == "slurmtopo: " + file +
                        ":5: host gpu099 is not a node of the cluster (neither in the fabric nor in --nodes/--slurm-conf)\n");
  std::filesystem::create_directory(s.path("collected"));
  s.write("collected/gpu001.fabric.csv", std::string(kUuidA) + ", 32766\n");
  s.write("collected/gpu002.fabric.csv", "Failed to initialize NVML: Driver/library version mismatch\n");
  r = run("emit topology --nvlink-domains " + s.path("collected") + " --plugin block --slurm-version 24.11 -o " + s.path("out.conf"));
  CHECK(r.code == 2);
  CHECK(r.output == "slurmtopo: " + s.path("collected/gpu002.fabric.csv") +
                        ":1: expected `CLUSTER_UUID, CLIQUE_ID` as `nvidia-smi --query-gpu=fabric.clusterUuid,fabric.cliqueId "
                        "--format=csv,noheader` prints it, got 'Failed to initialize NVML: Driver/library version mismatch'\n");
  r = run("emit topology --nvlink-domains " + file + " --slurm-version 24.11 -o " + s.path("out.conf"));
  CHECK(r.code == 2);
  CHECK(r.output.find("--nvlink-domains: NVLink domains make blocks: give --plugin block or --format yaml") != std::string::npos);
  CHECK_FALSE(s.exists("out.conf"));
}

TEST_CASE("emit topology on the topograph dump: Slurm's 144 DGX refused until the suggested map names their HCAs") {
  const std::string dump = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/topograph/example.out";
  if (!std::filesystem::exists(dump)) return skip(dump + " is absent (../shared is beside the repository in CI)");
  Scratch s;
  const std::string conf = s.write("slurm.conf",
                                   "ClusterName=t\nNodeName=a05-p1-dgx-01-c[01-18],a06-p1-dgx-02-c[01-18],"
                                   "a07-p1-dgx-03-c[01-18],a08-p1-dgx-04-c[01-18],b05-p1-dgx-05-c[01-18],"
                                   "b06-p1-dgx-06-c[01-18],b07-p1-dgx-07-c[01-18],b08-p1-dgx-08-c[01-18] CPUs=8\n");
  Run r = run("emit topology --fabric " + dump + " --slurm-conf " + conf + " -o " + s.path("t.conf"));
  CHECK(r.code == 2);
  CHECK(r.output.find("25 of " + conf + "'s 144 nodes would be under no switch") != std::string::npos);
  CHECK(r.output.find("20 of them likely own unnamed HCAs") != std::string::npos);
  CHECK_FALSE(s.exists("t.conf"));
  // The admin's loop: write the guesses, review them, pass them back.
  Run i = run("inspect --fabric " + dump + " --suggest-map " + s.path("guesses.map"));
  REQUIRE_MESSAGE(i.code == 0, i.output);
  r = run("emit topology --fabric " + dump + " --node-name-map " + s.path("guesses.map") + " --slurm-conf " + conf +
          " -o " + s.path("t.conf"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("5 of " + conf + "'s 144 nodes have no named HCA") != std::string::npos);
  CHECK(r.output.find("a06-p1-dgx-02-c[05,15],a08-p1-dgx-04-c18,b07-p1-dgx-07-c05,b08-p1-dgx-08-c02") != std::string::npos);
  CHECK(s.read("t.conf").find("a05-p1-dgx-01-c[01-18]") != std::string::npos);
}

TEST_CASE("emit topology on the topograph dump: the UFM host is left out and named, the file still written") {
  const std::string dump = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/topograph/example.out";
  if (!std::filesystem::exists(dump)) return skip(dump + " is absent (../shared is beside the repository in CI)");
  Scratch s;
  Run r = run("emit topology --fabric " + dump + " -o " + s.path("topology.conf"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("left out: service B11-P1-CUFM-02") != std::string::npos);
  CHECK(r.output.find("name the storage and service hosts in --nodes or --slurm-conf to place them") != std::string::npos);
  CHECK(r.output.find("warning: 74 HCAs have no usable host name") != std::string::npos);
  CHECK(r.output.find("72 have a likely host from their port") != std::string::npos);
  // A UFM server is no Slurm node: out of topology.conf unless Slurm's list names it.
  CHECK(s.read("topology.conf").find("CUFM") == std::string::npos);
  r = run("emit topology --fabric " + dump + " --nodes B11-P1-CUFM-02 -o " + s.path("named.conf"));
  REQUIRE_MESSAGE(r.code == 0, r.output);
  CHECK(r.output.find("names 1 service host B11-P1-CUFM-02") != std::string::npos);
  CHECK(s.read("named.conf").find("B11-P1-CUFM-02") != std::string::npos);
}
