// `slurmtopo place` as an admin runs it: hostlist on stdout, exit 3 when the job would wait,
// exit 2 on bad input, and the same answer from a fabric as from its topology.conf.
#include <doctest/doctest.h>

#include "tests/cli/cli_test_support.h"

using namespace slurmtopo::testing;

namespace {
const char* kTree =
    "SwitchName=l1 Nodes=n[1-4]\nSwitchName=l2 Nodes=n[5-8]\nSwitchName=l3 Nodes=n[9-12]\n"
    "SwitchName=l4 Nodes=n[13-16]\nSwitchName=a1 Switches=l[1-2]\nSwitchName=a2 Switches=l[3-4]\n"
    "SwitchName=root Switches=a[1-2]\n";
}

TEST_CASE("place: prints the hostlist Slurm would allocate") {
  Scratch s;
  const std::string topo = s.write("topology.conf", kTree);
  Run r = run("place --topology " + topo + " --nodes 'n[1-16]' -N 6 --busy 'n[5-7]' --exclusive");
  CHECK(r.code == 0);
  CHECK(r.output == "n[9-14]\n");
}

TEST_CASE("place: --weights and --explain") {
  Scratch s;
  const std::string topo = s.write("topology.conf", kTree);
  Run r = run("place --topology " + topo + " --nodes 'n[1-16]' -N 2 --weights 'n[1-12]=10,n16=5' --explain");
  CHECK(r.code == 0);
  CHECK(r.output.rfind("n[13-14]\n", 0) == 0);  // the three weight-1 nodes hold the job
  CHECK(r.output.find("top: root (level 3)") != std::string::npos);  // as topology.conf counts: leaves = 1
  CHECK(r.output.find("weight 1: 3 available") != std::string::npos);
}

TEST_CASE("place: a job that cannot start now exits 3 and says why") {
  Scratch s;
  const std::string topo = s.write("topology.conf", kTree);
  Run busy = run("place --topology " + topo + " --nodes 'n[1-16]' -N 14 --busy 'n[1-4]'");
  CHECK(busy.code == 3);
  CHECK(busy.output.find("only 12 of 16") != std::string::npos);
  Run wait = run("place --topology " + topo + " --nodes 'n[1-16]' -N 6 --switches 1");
  CHECK(wait.code == 3);
  CHECK(wait.output.find("waits up to 300 s") != std::string::npos);
  Run nowait = run("place --topology " + topo + " --nodes 'n[1-16]' -N 6 --switches 1@0");
  CHECK(nowait.code == 0);
}

// 24.11 to 25.11 refuse a job no switch holds with the tree's own words, except under
// Dragonfly, whose evaluation finds a top switch and then runs short: "node" (real 24.11.5,
// tests/integration/slurm_placement_test.sh); 26.05 says "node" everywhere.
TEST_CASE("place: the words slurmctld refuses a never-runnable job with, per release and TopologyParam") {
  Scratch s;
  const std::string topo = s.write("topology.conf", kTree);
  auto words = [&](const std::string& extra) {
    Run r = run("place --topology " + topo + " --nodes 'n[1-18]' -N 18 --switches 2 " + extra);
    CHECK(r.code == 3);
    CHECK(r.output.find("can never start") != std::string::npos);
    const size_t at = r.output.find("(\"Requested ");
    return at == std::string::npos ? r.output : r.output.substr(at + 2, r.output.find('"', at + 2) - at - 2);
  };
  CHECK(words("--slurm-version 24.11") == "Requested topology configuration is not available");
  CHECK(words("--slurm-version 25.11") == "Requested topology configuration is not available");
  CHECK(words("--slurm-version 24.11 --topology-param Dragonfly") == "Requested node configuration is not available");
  CHECK(words("--slurm-version 22.05") == "Requested node configuration is not available");
  CHECK(words("--slurm-version 26.05") == "Requested node configuration is not available");
}

TEST_CASE("place: bad input exits 2 naming the option or the file and line") {
  Scratch s;
  const std::string bad = s.write("bad.conf", "SwitchName=l1 Nodes=n[1-4]\nSwitchName=top Switches=l1,l9\n");
  Run child = run("place --topology " + bad + " --nodes 'n[1-4]' -N 1");
  CHECK(child.code == 2);
  CHECK(child.output.find("bad.conf:2") != std::string::npos);
  const std::string topo = s.write("topology.conf", kTree);
  CHECK(run("place --topology " + topo + " --nodes 'n[1-16]' -N 1 --weights 'n[1-4=3'").code == 2);
  CHECK(run("place --topology " + topo + " --nodes 'n[1-16]' -N 1 --busy x9").code == 2);
  CHECK(run("place --topology " + topo + " --nodes 'n[1-16]' -N 1 --slurm-version 21.08").code == 2);
  CHECK(run("place --topology " + topo + " --nodes 'n[1-16]' -N 1 --topology-param Torus").code == 2);
}

TEST_CASE("place: --fabric builds the tree the way `emit topology` writes it") {
  Scratch s;
  const std::string fabric = std::string(SLURMTOPO_SOURCE_DIR) + "/samples/fattree-2level.topo";
  Run emitted = run("emit topology --fabric " + fabric + " -o " + s.path("topology.conf"));
  REQUIRE(emitted.code == 0);
  const std::string args = " --nodes 'cn[001-064]' -N 12 --busy 'cn[001-003,020]' --exclusive";
  Run from_fabric = run("place --fabric " + fabric + args);
  Run from_file = run("place --topology " + s.path("topology.conf") + args);
  CHECK(from_fabric.code == 0);
  CHECK(from_fabric.output == from_file.output);
}

TEST_CASE("place: without a topology, consecutive best fit") {
  Run r = run("place --nodes 'n[1-16]' -N 3 --busy 'n3,n[8-9]'");
  CHECK(r.code == 0);
  CHECK(r.output == "n[4-6]\n");
}

TEST_CASE("place: a topology.yaml places by its cluster_default topology, the same as the file it stands for") {
  Scratch s;
  const std::string conf = s.write("topology.conf", kTree);
  const std::string yaml = s.write("topology.yaml", R"(---
- topology: tree
  cluster_default: true
  tree:
    switches:
      - switch: l1
        nodes: n[1-4]
      - switch: l2
        nodes: n[5-8]
      - switch: l3
        nodes: n[9-12]
      - switch: l4
        nodes: n[13-16]
      - switch: a1
        children: l[1-2]
      - switch: a2
        children: l[3-4]
      - switch: root
        children: a[1-2]
- topology: flat
  cluster_default: false
  flat: true
)");
  const std::string job = " --nodes 'n[1-16]' -N 6 --busy 'n[5-7]' --exclusive";
  Run a = run("place --topology " + conf + job), b = run("place --topology " + yaml + job);
  CHECK(a.code == 0);
  CHECK(b.code == 0);
  CHECK(b.output == a.output);
  s.write("typo.yaml", "- topology: t\n  tree:\n    switches:\n      - switch: l1\n        nodez: n[1-4]\n");
  Run bad = run("place --topology " + s.path("typo.yaml") + job);
  CHECK(bad.code == 2);
  CHECK(bad.output.find("typo.yaml:5: unknown key `nodez`") != std::string::npos);
}

namespace {
const char* kBlocks =
    "BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockName=b3 Nodes=n[9-12]\n"
    "BlockName=b4 Nodes=n[13-16]\nBlockSizes=4,8,16\n";
}

TEST_CASE("place: --segment and its flags are refused as salloc of the release refuses them") {
  Scratch s;
  const std::string topo = s.write("topology.conf", kBlocks);
  const std::string base = "place --topology " + topo + " --nodes 'n[1-16]' --exclusive ";
  Run divides = run(base + "-N 6 --segment 3 --slurm-version 26.05");
  CHECK(divides.code == 0);
  CHECK(divides.output == "n[9-11,13-15]\n");  // one segment per base block, the later of equal ones first
  Run odd = run(base + "-N 6 --segment 4 --slurm-version 26.05");
  CHECK(odd.code == 2);
  CHECK(odd.output.find("--segment=4 does not fit the job size (6): node count must be evenly divisible by segment size") !=
        std::string::npos);
  Run old = run(base + "-N 4 --segment 2 --slurm-version 22.05");
  CHECK(old.code == 2);
  CHECK(old.output.find("--segment") != std::string::npos);
  Run spread = run(base + "-N 4 --segment 2 --spread-segments --slurm-version 24.11");
  CHECK(spread.code == 2);
  CHECK(spread.output.find("needs Slurm 25.11 or later") != std::string::npos);
}

TEST_CASE("place: --exclusive=topo and --busy-topo close whole base blocks") {
  Scratch s;
  const std::string topo = s.write("topology.conf", kBlocks);
  const std::string base = "place --topology " + topo + " --nodes 'n[1-16]' --slurm-version 26.05 ";
  // n5 is busy: a plain job may use b2's other nodes, a topo-exclusive one none of b2.
  CHECK(run(base + "-N 3 --exclusive --busy n5").output == "n[6-8]\n");
  Run whole = run(base + "-N 3 --exclusive=topo --busy n5 --explain");
  CHECK(whole.code == 0);
  CHECK(whole.output.rfind("n[13-15]\n", 0) == 0);
  CHECK(whole.output.find("Exclusive=TOPO: base blocks b2") != std::string::npos);
  // n5's job keeps its block whole: b2 is closed to every job.
  CHECK(run(base + "-N 3 --exclusive --busy-topo n5").output == "n[13-15]\n");
  Run bad = run(base + "-N 3 --exclusive=user");
  CHECK(bad.code == 2);
}

TEST_CASE("place --profile: the allocation's predicted busbw, on NVL72 blocks by the racks it touches") {
  Scratch s;
  REQUIRE(run("generate railopt --scalable-units 8 --hosts-per-su 18 --rails 4 --nvlink-domain-nodes 18 "
              "--write-nvlink-domains " + s.path("d") + " -o " + s.path("f.topo")).code == 0);
  REQUIRE(run("emit topology --fabric " + s.path("f.topo") + " --plugin block --nvlink-domains " + s.path("d") +
              " --slurm-version 25.05 -o " + s.path("blocks.conf")).code == 0);
  const std::string base = "place --topology " + s.path("blocks.conf") + " --fabric " + s.path("f.topo") +
                           " --nodes 'dgx[001-144]' --slurm-version 25.05 --profile gb200-nvl72 --nvlink-domains " +
                           s.path("d");
  // 16 nodes fit one block: one rack, NVLS over its NVLink.
  const Run one = run(base + " -N 16 --explain");
  REQUIRE(one.code == 0);
  const size_t at = one.output.find("allocated: ");
  REQUIRE(at != std::string::npos);
  const std::string hostlist = one.output.substr(at + 11, one.output.find(' ', at + 11) - at - 11);
  CHECK(one.output.find(hostlist + " (16 nodes)") != std::string::npos);
  CHECK(one.output.find("predicted: allreduce 1 GiB busbw ") != std::string::npos);
  CHECK(one.output.find("(nvls/Simple, gb200-nvl72, 1 NVLink domain)") != std::string::npos);
  // 32 nodes in 16-node segments span two blocks: NVLSTree between two racks.
  const Run two = run(base + " -N 32 --segment 16 --explain");
  REQUIRE(two.code == 0);
  CHECK(two.output.find("(nvlstree/Simple, gb200-nvl72, 2 NVLink domains)") != std::string::npos);
  // Without --explain stdout is the hostlist alone; the prediction goes to stderr.
  const Run plain = run(base + " -N 16");
  REQUIRE(plain.code == 0);
  CHECK(plain.output.starts_with(hostlist + "\n"));
  CHECK(plain.output.find("\npredicted: allreduce 1 GiB") != std::string::npos);

  // --profile needs the fabric; --fabric beside --topology needs --profile.
  const Run no_fabric = run("place --topology " + s.path("blocks.conf") + " --nodes 'dgx[001-144]' -N 4 "
                            "--slurm-version 25.05 --profile gb200-nvl72");
  CHECK(no_fabric.code == 2);
  CHECK(no_fabric.output.find("--profile: expected --fabric too") != std::string::npos);
  const Run both = run("place --topology " + s.path("blocks.conf") + " --fabric " + s.path("f.topo") +
                       " --nodes 'dgx[001-144]' -N 4 --slurm-version 25.05");
  CHECK(both.code == 2);
  CHECK(both.output.find("--fabric: expected either --topology") != std::string::npos);
}
