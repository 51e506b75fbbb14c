// topology.yaml as slurmctld 25.05+ reads it, and stricter where it is silent.
#include "slurm/topology_yaml.h"

#include <doctest/doctest.h>

#include "base/input_error.h"
#include "slurm/topology_file.h"

using namespace slurmtopo;

namespace {
// The shape of Slurm's own topology.yaml example (slurm.md).
const char* kThree = R"(---
- topology: topo1
  cluster_default: true
  tree:
    switches:
      - switch: s0
        children: s[1-2]
      - switch: s1
        nodes: node[01-02]
      - switch: s2
        nodes: node[03-04]
- topology: topo2
  cluster_default: false
  block:
    block_sizes:
      - 2
      - 4
    blocks:
      - block: b1
        nodes: node[01-02]
      - block: b2
        nodes: node[03-04]
- topology: topo3
  cluster_default: false
  flat: true
)";

std::string error_of(const std::string& text) {
  try {
    parse_topology_yaml(text, "topology.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("topology.yaml: tree, block and flat entries are read with their lines") {
  const TopologyYaml y = parse_topology_yaml(kThree, "topology.yaml");
  REQUIRE(y.topologies.size() == 3);
  CHECK(y.cluster_default()->name == "topo1");
  const auto& tree = y.topologies[0].tree;
  REQUIRE(tree.switches.size() == 3);
  CHECK(tree.switches[0].switches == std::vector<std::string>{"s1", "s2"});
  CHECK(tree.switches[2].nodes == std::vector<std::string>{"node03", "node04"});
  CHECK(tree.switches[1].line == 8);
  const auto& block = y.topologies[1].block;
  CHECK(block.block_sizes == std::vector<int>{2, 4});
  REQUIRE(block.blocks.size() == 2);
  CHECK(block.blocks[1].name == "b2");
  CHECK(y.topologies[2].kind == YamlTopology::Kind::Flat);
}

TEST_CASE("topology.yaml: what we write reads back as the same topologies") {
  const TopologyYaml y = parse_topology_yaml(kThree, "a.yaml");
  const std::string text = render_topology_yaml(y, {"written by a test"});
  CHECK(text.rfind("# written by a test\n---\n- topology: topo1\n", 0) == 0);
  const TopologyYaml back = parse_topology_yaml(text, "b.yaml");
  REQUIRE(back.topologies.size() == 3);
  CHECK(back.topologies[0].tree.switches[0].switches == y.topologies[0].tree.switches[0].switches);
  CHECK(back.topologies[1].block.blocks[0].nodes == y.topologies[1].block.blocks[0].nodes);
  CHECK(back.topologies[1].block.block_sizes == y.topologies[1].block.block_sizes);
  CHECK(render_topology_yaml(back, {"written by a test"}) == text);
}

TEST_CASE("topology.yaml: what slurmctld ignores silently or refuses is an error at its line") {
  std::string typo = kThree;
  typo.replace(typo.find("nodes: node[01-02]"), 5, "nodez");
  CHECK(error_of(typo) == "topology.yaml:9: unknown key `nodez` in a switch (expected switch, children, nodes); slurmctld would ignore it silently");
  CHECK(error_of("- topology: t\n  tree:\n    switches:\n      - nodes: n1\n") ==
        "topology.yaml:4: Can't create a switch without a name: expected `switch: NAME`");
  CHECK(error_of("- topology: t\n  tree:\n    switches:\n      - switch: s\n        nodes: n1\n        children: s2\n")
            .find("has both `children` and `nodes`") != std::string::npos);
  CHECK(error_of("- topology: a\n  cluster_default: true\n  flat: true\n- topology: b\n  cluster_default: true\n  flat: true\n") ==
        "topology.yaml:5: more than one topology has cluster_default: true");
  CHECK(error_of("- topology: a\n  flat: true\n- topology: a\n  flat: true\n") == "topology.yaml:3: topology a is defined twice");
  CHECK(error_of("- topology: a\n  flat: true\n  block:\n    blocks: []\n").find("exactly one of") != std::string::npos);
  CHECK(error_of("- topology: a\n  block:\n    blocks:\n      - block: b\n        nodes: n[1-\n").find("hostlist") != std::string::npos);
}

TEST_CASE("topology.yaml: ring and torus3d (26.05) are refused naming the plugin, not as unknown keys") {
  CHECK(error_of("- topology: r\n  cluster_default: true\n  ring:\n    rings: []\n") ==
        "topology.yaml:4: topology r uses topology/ring (Slurm 26.05), which slurmtopo does not read or emulate yet: "
        "it reads tree, block and flat topologies");
  CHECK(error_of("- topology: t\n  torus3d:\n    dims: 4x4x4\n").find("topology/torus3d (Slurm 26.05)") !=
        std::string::npos);
}

TEST_CASE("topology.yaml is recognised by content, and its cluster_default is what place uses") {
  CHECK(is_topology_yaml(kThree));
  CHECK(is_topology_yaml("# c\n- topology: x\n  flat: true\n"));
  CHECK_FALSE(is_topology_yaml("# c\nSwitchName=s Nodes=n1\n"));
  const SlurmTopologyFile f = parse_topology_file(kThree, "topology.yaml");
  REQUIRE(f.tree);
  CHECK_FALSE(f.block);
  CHECK(f.topology == "topo1");
  std::string block_default = kThree;
  block_default.replace(block_default.find("cluster_default: true"), 21, "cluster_default: false");
  block_default.replace(block_default.find("cluster_default: false", block_default.find("topo2")), 22, "cluster_default: true");
  const SlurmTopologyFile b = parse_topology_file(block_default, "topology.yaml");
  REQUIRE(b.block);
  CHECK(b.block->blocks.size() == 2);
}
