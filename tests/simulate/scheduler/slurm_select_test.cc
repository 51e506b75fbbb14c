// The select emulation against the algorithm as SchedMD's code writes it (docs/placement.md):
// every case is small enough to work out by hand, and the expected hostlists were.
#include "simulate/scheduler/slurm_select.h"

#include <doctest/doctest.h>

#include <map>
#include <random>

#include "base/input_error.h"
#include "slurm/hostlist.h"

using namespace slurmtopo;

namespace {

struct Case {
  explicit Case(std::string c = "", std::string n = "n[1-16]", std::map<std::string, uint64_t> w = {})
      : conf(std::move(c)), nodes(std::move(n)), weights(std::move(w)) {}

  std::string conf;  // topology.conf text; empty = no topology
  std::string nodes;
  std::map<std::string, uint64_t> weights;  // hostlist -> Weight
  SlurmVersion version = SlurmVersion::V22_05;
  TopologyParams params;

  SlurmSelect build() const {
    SelectSetup s;
    for (const auto& n : expand_hostlist(nodes)) s.nodes.push_back({n, 1, 2});
    for (const auto& [list, w] : weights)
      for (const auto& n : expand_hostlist(list))
        for (auto& node : s.nodes)
          if (node.name == n) node.weight = w;
    if (!conf.empty()) {
      if (is_block_topology(conf)) s.block = parse_block_topology(conf, "topology.conf");
      else s.tree = parse_topology_conf(conf, "topology.conf");
    }
    s.version = version;
    s.params = params;
    return SlurmSelect(std::move(s));
  }

  SelectJob job;  // what run() starts from: its segment options

  SelectResult run(int count, const std::string& busy = "", int switches = 0, int wait = -1) const {
    SelectJob job = this->job;
    job.nodes = count;
    job.exclusive = true;
    job.switches = switches;
    job.switch_wait = wait;
    return build().place(job, busy.empty() ? std::vector<std::string>{} : expand_hostlist(busy));
  }

  std::string place(int count, const std::string& busy = "", int switches = 0) const {
    SelectResult r = run(count, busy, switches);
    return r.started ? r.hostlist : "cannot start";
  }
};

// Four leaves of 4 under one root.
const char* kFourLeaves =
    "SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-8]\nSwitchName=s3 Nodes=n[9-12]\n"
    "SwitchName=s4 Nodes=n[13-16]\nSwitchName=root Switches=s[1-4]\n";

// Two pods of two leaves of 4.
const char* kTwoPods =
    "SwitchName=l1 Nodes=n[1-4]\nSwitchName=l2 Nodes=n[5-8]\nSwitchName=l3 Nodes=n[9-12]\n"
    "SwitchName=l4 Nodes=n[13-16]\nSwitchName=a1 Switches=l[1-2]\nSwitchName=a2 Switches=l[3-4]\n"
    "SwitchName=root Switches=a[1-2]\n";

}  // namespace

TEST_CASE("select: the node table is in natural name order, not the order given") {
  SelectSetup s;
  for (const char* n : {"n10", "n9", "n1", "n2"}) s.nodes.push_back({n, 1, 1});
  SlurmSelect select(std::move(s));
  CHECK(select.node_names() == std::vector<std::string>{"n1", "n2", "n9", "n10"});
  CHECK(select.node_index("n10") == 3);
  CHECK(select.node_index("x") == -1);
}

TEST_CASE("select: a job that fits one leaf goes to the fitting leaf with the fewest free nodes") {
  Case c{"SwitchName=s1 Nodes=n[1-8]\nSwitchName=s2 Nodes=n[9-12]\nSwitchName=s3 Nodes=n[13-16]\n"
         "SwitchName=root Switches=s[1-3]\n"};
  CHECK(c.place(3) == "n[9-11]");           // s2 and s3 have 4 free: the first line wins
  CHECK(c.place(3, "n9") == "n[10-12]");     // s2 now has 3: tightest fit
  CHECK(c.place(3, "n[10-11],n13") == "n[14-16]");  // s2 has 2 (does not fit), s3 has 3
  CHECK(c.place(5) == "n[1-5]");            // only s1 fits
}

TEST_CASE("select: equal leaves tie to the first line of topology.conf") {
  Case a{"SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-8]\nSwitchName=top Switches=s[1-2]\n", "n[1-8]"};
  Case b{"SwitchName=s2 Nodes=n[5-8]\nSwitchName=s1 Nodes=n[1-4]\nSwitchName=top Switches=s[1-2]\n", "n[1-8]"};
  CHECK(a.place(2) == "n[1-2]");
  CHECK(b.place(2) == "n[5-6]");
}

TEST_CASE("select: a job larger than any leaf takes the largest leaf, then the best fit for the rest") {
  Case c{"SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-10]\nSwitchName=s3 Nodes=n[11-13]\n"
         "SwitchName=s4 Nodes=n[14-16]\nSwitchName=root Switches=s[1-4]\n"};
  CHECK(c.place(8) == "n[5-12]");  // s2 (6), then s3: 3 free is the tightest fit for 2
  SelectResult r = c.run(8);
  REQUIRE(r.explanation.steps.size() == 2);
  CHECK(r.explanation.steps[0].name == "s2");
  CHECK(r.explanation.steps[1].name == "s3");
  CHECK(r.explanation.steps[1].distance == 2);
  CHECK(r.explanation.top == "root");
  CHECK(r.leaf_switches == 2);
  CHECK(c.place(16) == "n[1-16]");
  CHECK(c.place(17) == "cannot start");
}

TEST_CASE("select: with several leaves needed, a leaf in the same pod is preferred") {
  Case c{kTwoPods};
  // l2 has 1 free. Pod a2 holds the job's 6 nodes, so its leaf l3 goes first, then l4 (2 hops)
  // beats l1 (4 hops) although both fit the remaining 2 equally.
  CHECK(c.place(6, "n[5-7]") == "n[9-14]");
}

TEST_CASE("select: 22.05 keeps a farther tighter leaf, 24.05.3 takes the closer one that fits") {
  // After l3, two nodes remain: l1 (3 free, 4 hops) is scanned first and is the tighter fit;
  // l4 (4 free, 2 hops) is closer.
  Case c{kTwoPods};
  CHECK(c.place(6, "n1,n[5-8]") == "n[2-3,9-12]");
  c.version = SlurmVersion::V24_05;
  CHECK(c.place(6, "n1,n[5-8]") == "n[9-14]");
  c.version = SlurmVersion::V25_11;
  CHECK(c.place(6, "n1,n[5-8]") == "n[9-14]");
}

TEST_CASE("select: from 24.05.3 used leaves stop counting for their parent switch") {
  // Pod b (l3: 2, l4: 3) is listed first, pod a (l1: 4, l2: 2). 9 nodes: l1 first (pod a is
  // larger). For the remaining 5, l2 is closer; were l1's nodes still counted for pod a, the
  // pod would "fit" and 24.05.3's closer-leaf-must-fit rule would pick l2 (n[3-11]). 24.05.3
  // brought both rules ("Properly decrement node count on all switches"): pod a holds 2, so
  // neither fits and the larger pod b's leaves win, as in 22.05.
  Case c{"SwitchName=l3 Nodes=n[1-2]\nSwitchName=l4 Nodes=n[3-5]\nSwitchName=l1 Nodes=n[6-9]\n"
         "SwitchName=l2 Nodes=n[10-11]\nSwitchName=b Switches=l[3-4]\nSwitchName=a Switches=l[1-2]\n"
         "SwitchName=root Switches=a,b\n",
         "n[1-11]"};
  CHECK(c.place(9) == "n[1-9]");
  for (auto v : {SlurmVersion::V24_05, SlurmVersion::V25_11, SlurmVersion::V26_05}) {
    c.version = v;
    CHECK(c.place(9) == "n[1-9]");
  }
}

TEST_CASE("select: 26.05 gives a one-node job the lightest free node in node order, whatever the tree") {
  // n1 is under no switch; l2 has one free node (n8), the tightest fit up to 25.11.
  Case c{"SwitchName=l1 Nodes=n[2-4]\nSwitchName=l2 Nodes=n[5-8]\nSwitchName=root Switches=l[1-2]\n", "n[1-8]"};
  c.version = SlurmVersion::V25_11;
  CHECK(c.place(1, "n[5-7]") == "n8");
  c.version = SlurmVersion::V26_05;
  CHECK(c.place(1, "n[5-7]") == "n1");
  CHECK(c.place(1, "n1,n[5-7]") == "n2");
  c.weights = {{"n[1-2]", 5}};
  CHECK(c.place(1, "n[5-7]") == "n3");
  // A job of two nodes still goes through the tree: l2 holds both, n[1-2] are heavier.
  CHECK(c.place(2, "n3,n[6-7]") == "n[5,8]");
}

TEST_CASE("select: lighter weight tiers are used up first and their leaves filled first") {
  Case c{"SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-8]\nSwitchName=root Switches=s[1-2]\n", "n[1-8]",
         {{"n[1-4]", 10}}};
  CHECK(c.place(2) == "n[5-6]");       // the light leaf
  CHECK(c.place(6) == "n[1-2,5-8]");   // all of weight 1, then 2 of weight 10
  SelectResult r = c.run(6);
  REQUIRE(r.explanation.tiers.size() == 2);
  CHECK(r.explanation.tiers[0].weight == 1);
  CHECK(r.explanation.tiers[0].forced);
  CHECK_FALSE(r.explanation.tiers[1].forced);
}

TEST_CASE("select: node weight overrides topology") {
  // One light node is free on s1: it is forced, so a 2-node job spans both leaves although s2
  // alone could hold it.
  Case c{"SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-8]\nSwitchName=root Switches=s[1-2]\n", "n[1-8]",
         {{"n[5-8]", 10}}};
  CHECK(c.place(2, "n[1-3]") == "n[4-5]");
}

TEST_CASE("select: busy nodes are never allocated and an exclusive job sees only idle nodes") {
  Case c{kFourLeaves};
  CHECK(c.place(4, "n[1-3],n[5-7],n9,n13") == "n[4,10-12]");  // 3 from s3, then the tightest fit for 1
  CHECK(c.place(13, "n[1-4]") == "cannot start");
  SelectResult r = c.run(13, "n[1-4]");
  CHECK(r.reason.find("only 12 of 16") != std::string::npos);
}

TEST_CASE("select: TopoOptional uses topology only for jobs that ask --switches") {
  Case c{"SwitchName=s1 Nodes=n[1,3,5,7]\nSwitchName=s2 Nodes=n[2,4,6,8]\nSwitchName=root Switches=s[1-2]\n",
         "n[1-8]"};
  CHECK(c.place(2) == "n[1,3]");
  c.params.topo_optional = true;
  CHECK(c.place(2) == "n[1-2]");          // consecutive best fit
  CHECK(c.place(2, "", 1) == "n[1,3]");   // --switches=1: the tree again
}

TEST_CASE("select: --switches only checks the result, and more leaves means waiting") {
  Case c{"SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-8]\nSwitchName=root Switches=s[1-2]\n", "n[1-8]"};
  SelectResult r = c.run(6, "", 1);
  CHECK_FALSE(r.started);
  CHECK(r.waiting_for_switches);
  CHECK(r.hostlist == "n[1-6]");
  CHECK(r.reason.find("300 s") != std::string::npos);
  CHECK(c.run(6, "", 2).started);
  CHECK(c.run(6, "", 1, 0).started);  // --switches=1@0: no wait
  CHECK(c.run(3, "", 1).started);
}

TEST_CASE("select: dragonfly takes the emptiest leaf, else one node per leaf round robin") {
  Case c{"SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-8]\nSwitchName=s3 Nodes=n[9-12]\n"
         "SwitchName=root Switches=s[1-3]\n",
         "n[1-12]"};
  c.params.dragonfly = true;
  CHECK(c.place(3, "n1") == "n[5-7]");
  CHECK(c.place(6, "n1") == "n[2-3,5-6,9-10]");
}

TEST_CASE("select: without topology, runs of consecutive free nodes are best-fitted") {
  Case c;
  CHECK(c.place(3, "n3,n[8-9]") == "n[4-6]");       // the smallest run that fits: n[4-7]
  CHECK(c.place(8, "n3,n[8-9]") == "n[1,10-16]");   // largest run, then the tightest for 1
  CHECK(c.place(1, "n[3-4],n[8-9]") == "n1");
}

TEST_CASE("select: without topology, a weight change ends a run and lighter runs go first") {
  Case c{"", "n[1-16]", {{"n[9-16]", 5}}};
  CHECK(c.place(10) == "n[1-10]");
  CHECK(c.place(2, "n[2-8]") == "n[1,9]");
}

TEST_CASE("select: block places a job in the smallest block level that holds it") {
  Case c{"BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockName=b3 Nodes=n[9-12]\n"
         "BlockName=b4 Nodes=n[13-16]\nBlockSizes=4,8,16\n"};
  c.version = SlurmVersion::V24_05;
  CHECK(c.place(2) == "n[13-14]");          // equal blocks: the later one
  CHECK(c.place(2, "n13") == "n[14-15]");   // fewest free nodes
  CHECK(c.place(6, "n13") == "n[9-12,14-15]");
  SelectResult r = c.run(6, "n13");
  CHECK(r.explanation.top == "b3..b4");
  c.version = SlurmVersion::V22_05;
  CHECK_THROWS_AS(c.build(), InputError);
}

// Four base blocks of 4 (b1 = n[1-4] ... b4 = n[13-16]), blocks of 4, 8 and 16 nodes.
const char* kFourBlocks =
    "BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockName=b3 Nodes=n[9-12]\n"
    "BlockName=b4 Nodes=n[13-16]\nBlockSizes=4,8,16\n";

// kFourBlocks under 26.05, the job in segments of `size` nodes.
static Case segmented(int size) {
  Case c{kFourBlocks};
  c.version = SlurmVersion::V26_05;
  c.job.segment = size;
  return c;
}

TEST_CASE("select: block --segment places each segment as a job of its own on what is left") {
  Case c = segmented(2);
  // Free: b1 3, b2 2, b3 4, b4 4. Each segment takes the fitting base block with the fewest
  // free nodes: b2, then b1, then (b1 down to 1) the later of b3 and b4.
  CHECK(c.place(6, "n[1,6-7]") == "n[2-3,5,8,13-14]");
  // Whole, the job goes to one 8-node block, b3+b4 (8 free, b1+b2 has 5): all of b4 (the
  // later of two largest base blocks when none fits), then 2 from b3.
  c.job.segment = 0;
  CHECK(c.place(6, "n[1,6-7]") == "n[9-10,13-16]");
  // A segment must fit one block of its own level: 3 nodes in 4-node base blocks, busy so that
  // no base block has 3 free.
  c.job.segment = 3;
  CHECK(c.place(6, "n[1-2,5-6,9-10,13-14]") == "cannot start");
  // A size that does not divide the job is never placed (26.05's salloc refuses it first).
  c.job.segment = 4;
  SelectResult r = c.run(6);
  CHECK_FALSE(r.started);
  CHECK(r.reason.find("does not divide") != std::string::npos);
}

TEST_CASE("select: block --spread-segments keeps segments off each other's base blocks") {
  Case c = segmented(1);
  // b1 has 2 free: the first segment takes n3 there (fewest free), the second n4 beside it...
  CHECK(c.place(2, "n[1-2]") == "n[3-4]");
  // ...unless segments spread: b1 is then spent, and the later of the equal blocks is b4.
  c.job.spread_segments = true;
  CHECK(c.place(2, "n[1-2]") == "n[3,13]");
}

TEST_CASE("select: block --consolidate-segments keeps every segment in the block that holds the job") {
  Case c = segmented(3);
  // Free: b1 3, b2 2, b3 4, b4 4. Unconsolidated: b1 (fewest that fit), then b4.
  CHECK(c.place(6, "n[1,6-7]") == "n[2-4,13-15]");
  // Consolidated: the 6 nodes need one 8-node block; b1+b2 has 5 free, so b3+b4 holds both.
  c.job.consolidate_segments = true;
  SelectResult r = c.run(6, "n[1,6-7]");
  CHECK(r.hostlist == "n[9-11,13-15]");
  CHECK(r.explanation.notes.size() >= 2);
}

TEST_CASE("select: block --segment as each release reads it") {
  Case c{kFourBlocks};
  c.job.segment = 8;  // larger than a base block, larger than the job
  c.version = SlurmVersion::V26_05;
  CHECK(c.place(4) == "n[13-16]");  // 26.05: ignored, the job is placed whole
  c.version = SlurmVersion::V25_11;
  CHECK(c.place(4) == "cannot start");  // 25.11: it cannot divide the job
  c.version = SlurmVersion::V24_05;
  c.job.segment = 8;
  SelectResult r = c.run(8);
  CHECK_FALSE(r.started);  // 24.05-25.05: a segment larger than a base block is refused
  CHECK(r.reason.find("larger than a base block") != std::string::npos);
  c.version = SlurmVersion::V25_11;
  CHECK(c.place(8) == "n[9-16]");  // 25.11 places it
}

TEST_CASE("select: the node table's order follows the release and BlockAsNodeRank") {
  const SlurmRelease r2411{24, 11}, r2505{25, 5}, r2605{26, 5};
  TopologyParams none, rank = parse_topology_params("BlockAsNodeRank");
  CHECK(rank.block_as_node_rank);
  CHECK(node_table_order(r2411, true, none) == NodeOrder::AsConfigured);
  CHECK(node_table_order(r2505, true, none) == NodeOrder::ByName);
  CHECK(node_table_order(r2605, true, none) == NodeOrder::ByName);
  CHECK(node_table_order(r2605, true, rank) == NodeOrder::BlockRank);
  CHECK(node_table_order(r2605, false, rank) == NodeOrder::ByName);
  CHECK(node_table_order(SlurmRelease{25, 5}, true, rank) == NodeOrder::ByName);  // 25.05 has no ranking

  // Two base blocks listed against name order; slurm.conf lists n[5-8] first.
  auto build = [](NodeOrder order) {
    SelectSetup s;
    for (const auto& n : expand_hostlist("n[5-8],n[1-4],n9")) s.nodes.push_back({n, 1, 2});
    s.block = parse_block_topology("BlockName=b1 Nodes=n[3-6]\nBlockName=b2 Nodes=n[1-2],n[7-8]\n", "topology.conf");
    s.version = SlurmVersion::V26_05;
    s.order = order;
    return SlurmSelect(std::move(s));
  };
  using V = std::vector<std::string>;
  CHECK(build(NodeOrder::ByName).node_names() == V{"n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"});
  CHECK(build(NodeOrder::AsConfigured).node_names() == V{"n5", "n6", "n7", "n8", "n1", "n2", "n3", "n4", "n9"});
  // n9 is in no block (rank 0) and comes first; then b1's nodes, then b2's, slurm.conf order within.
  CHECK(build(NodeOrder::BlockRank).node_names() == V{"n9", "n5", "n6", "n3", "n4", "n7", "n8", "n1", "n2"});
  // A two-node job goes to the later of two equal blocks (b2) and takes its first nodes in
  // table order: n1 and n2 by name, n7 and n8 in block rank order.
  SelectJob job;
  job.nodes = 2;
  job.exclusive = true;
  CHECK(build(NodeOrder::ByName).place(job, V{}).hostlist == "n[1-2]");
  CHECK(build(NodeOrder::BlockRank).place(job, V{}).hostlist == "n[7-8]");
}

TEST_CASE("select: what slurmctld refuses to load is an input error") {
  Case unknown_child{"SwitchName=s1 Nodes=n[1-2]\nSwitchName=top Switches=s1,s9\n"};
  CHECK_THROWS_AS(unknown_child.build(), InputError);
  Case cycle{"SwitchName=s1 Nodes=n[1-2]\nSwitchName=a Switches=s1,b\nSwitchName=b Switches=a\n"};
  CHECK_THROWS_AS(cycle.build(), InputError);
  Case dup{"SwitchName=s1 Nodes=n[1-2]\nSwitchName=s1 Nodes=n[3-4]\n"};
  CHECK_THROWS_AS(dup.build(), InputError);
  Case fine{kFourLeaves};
  CHECK_THROWS_AS(fine.build().place(SelectJob{}, std::vector<std::string>{"x1"}), InputError);
}

TEST_CASE("select: nodes under no switch are never placed by the tree, but are by TopoOptional") {
  Case c{"SwitchName=s1 Nodes=n[1-4]\nSwitchName=s2 Nodes=n[5-8]\nSwitchName=root Switches=s[1-2]\n", "n[1-10]"};
  CHECK(c.place(8) == "n[1-8]");
  CHECK(c.place(9) == "cannot start");
  c.params.topo_optional = true;
  CHECK(c.place(10) == "n[1-10]");
}

TEST_CASE("select: any release names the newest modelled rules at or before it") {
  CHECK(parse_slurm_version("22.05") == SlurmVersion::V22_05);
  CHECK(parse_slurm_version("23.11") == SlurmVersion::V22_05);
  CHECK(parse_slurm_version("24.05") == SlurmVersion::V24_05);
  CHECK(parse_slurm_version("24.11") == SlurmVersion::V24_05);
  CHECK(parse_slurm_version("25.05") == SlurmVersion::V24_05);
  CHECK(parse_slurm_version("25.11") == SlurmVersion::V25_11);
  CHECK(parse_slurm_version("26.05") == SlurmVersion::V26_05);
  CHECK_THROWS_AS(parse_slurm_version("21.08"), InputError);
  CHECK_THROWS_AS(parse_slurm_version("24"), InputError);
}

TEST_CASE("select: a sweep's placement (nodes only) is the explained one, without the words") {
  // Random busy states and sizes on two pods, tree (22.05 and 26.05), dragonfly, block and
  // no topology, weights in two tiers: the indices, start, wait and leaf count must agree.
  std::mt19937 rng(5);
  std::vector<Case> cases{Case{kTwoPods}, Case{kFourLeaves, "n[1-16]", {{"n[1-5]", 10}}}, Case{}, Case{kTwoPods}};
  cases[0].version = SlurmVersion::V26_05;
  cases[3].params.dragonfly = true;
  cases.push_back(Case{"BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockName=b3 Nodes=n[9-12]\n"
                       "BlockName=b4 Nodes=n[13-16]\n"});
  cases.back().version = SlurmVersion::V24_05;
  for (const Case& c : cases) {
    const SlurmSelect select = c.build();
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<char> busy(16);
      for (auto& b : busy) b = rng() % 3 == 0;
      SelectJob job;
      job.nodes = 1 + static_cast<int>(rng() % 12);
      job.exclusive = true;
      job.switches = rng() % 4 == 0 ? 1 : 0;
      const SelectResult full = select.place(job, busy);
      const SelectResult sweep = select.place(job, busy, SelectDetail::NodesOnly);
      CHECK(sweep.started == full.started);
      CHECK(sweep.waiting_for_switches == full.waiting_for_switches);
      CHECK(sweep.leaf_switches == full.leaf_switches);
      CHECK(sweep.reason == full.reason);
      CHECK(sweep.node_indices == full.node_indices);
      std::vector<std::string> names;
      for (int i : full.node_indices) names.push_back(select.node_names()[i]);
      CHECK(names == full.nodes);
      CHECK(sweep.nodes.empty());
      CHECK(sweep.explanation.steps.empty());
    }
  }
}
