#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "base/input_error.h"
#include "commission_fixture.h"
#include "tests/skip.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report plan: every fault of the SuperPOD sample is a finding, and the report fails") {
  const CommissionReport& r = superpod_report();
  // samples/README.md: the four fabric faults and dgx010's swapped NICs.
  CHECK(has_finding(r, "miscabled-rail", "dgx005"));
  CHECK(has_finding(r, "miscabled-rail", "dgx021"));
  CHECK(has_finding(r, "missing-uplinks", "su4-rail5"));
  CHECK(has_finding(r, "degraded-link", "su2-rail6"));
  CHECK(has_finding(r, "unresolved-hca", "su3-rail6"));  // dgx040 mlx5_6, factory description
  // dgx040's rail-6 HCA is cabled to su3-rail6 port 8 and only lacks its name: the guess that
  // names it there means no "no cable" finding, which would send the admin to the wrong fix.
  CHECK_FALSE(has_finding(r, "missing-rail", "dgx040"));
  CHECK(has_finding(r, "rail-leaf", "dgx010"));
  // dgx010 only numbers its NICs in another order: the same NCCL_IB_HCA set, no class-layout.
  CHECK_FALSE(has_finding(r, "class-layout", "dgx010"));
  CHECK(r.verdict == Verdict::Fail);
  CHECK(r.exit_code() == 4);
  CHECK(r.inventory.hosts == 64);
  CHECK(r.inventory.groups == 4);
  CHECK(r.inventory.rails.size() == 8);
  REQUIRE(r.inventory.node_classes.size() == 1);
  CHECK(r.inventory.node_classes[0].name == "dgx[001-064]");
  // NDR switches (device 0xd2f2) that name their part: one model row holding every switch.
  REQUIRE(r.inventory.switches_by_model.size() == 1);
  CHECK(r.inventory.switches_by_model[0].name == "Quantum-2 MQM9700");
  int switches = 0;
  for (const auto& level : r.inventory.switches_by_level) switches += level.count;
  CHECK(r.inventory.switches_by_model[0].count == switches);
}

TEST_CASE("report plan: the fault-free fat tree passes with exit code 0 and has no nodes check") {
  const CommissionReport& r = fattree_report();
  CHECK(r.findings.empty());
  CHECK(r.verdict == Verdict::Pass);
  CHECK(r.exit_code() == 0);
  CHECK(find_check(r, "nodes.layout") == nullptr);
  CHECK(r.classes.empty());
  CHECK(r.inventory.hosts == 64);
}

TEST_CASE("report plan: the Slurm files are the ones emit plans, checked") {
  const CommissionReport& r = superpod_report();
  REQUIRE(r.slurm.size() == 3);
  CHECK(r.slurm[0].name == "topology.conf");
  CHECK(r.slurm[0].text.find("SwitchName=su1 ") != std::string::npos);
  CHECK(r.slurm[0].errors.empty());
  CHECK(r.slurm[1].name == "gres.conf");
  CHECK(r.slurm[1].text.find("NodeName=dgx[001-064] Name=gpu Type=h100") != std::string::npos);
  CHECK(r.slurm[2].text.find("NodeName=dgx[001-064]") != std::string::npos);
}

TEST_CASE("report plan: --topology diffs the file in service and warns when it differs") {
  const auto dir = std::filesystem::temp_directory_path() / "slurmtopo_report_plan_test";
  std::filesystem::create_directories(dir);
  CommissionRequest req = fattree_request();
  req.topology = (dir / "topology.conf").string();
  {
    std::ofstream f(req.topology);
    f << fattree_report().slurm[0].text;
  }
  const CommissionReport same = plan_commission(req);
  REQUIRE(find_check(same, "slurm.in-service"));
  CHECK(find_check(same, "slurm.in-service")->verdict == Verdict::Pass);
  CHECK(same.topology_diff.empty());
  {
    std::ofstream f(req.topology);
    f << "SwitchName=old Nodes=cn[001-010]\n";
  }
  const CommissionReport moved = plan_commission(req);
  CHECK_FALSE(moved.topology_diff.empty());
  CHECK(find_check(moved, "slurm.in-service")->verdict == Verdict::Warn);
  CHECK(moved.exit_code() == 3);
  std::filesystem::remove_all(dir);
}

TEST_CASE("report plan: a bad input is an InputError naming the file") {
  CommissionRequest req = fattree_request();
  req.profile = "no-such-profile";
  CHECK_THROWS_AS(plan_commission(req), InputError);
  req = fattree_request();
  req.inputs.fabric_files = {sample("slurm.conf")};
  try {
    plan_commission(req);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("slurm.conf") != std::string::npos);
  }
}

TEST_CASE("report plan: --plugin block and --format yaml add the file the cluster runs, checked, with a check of its own") {
  CommissionRequest req = fattree_request();
  req.plugin = "block";
  req.release = requested_release("24.11");
  const CommissionReport block = plan_commission(req);
  REQUIRE(block.slurm.size() == 2);
  CHECK(block.slurm[0].name == "topology.conf");
  CHECK(block.slurm[1].name == "topology.conf (topology/block)");
  CHECK(block.slurm[1].text.find("BlockName=") != std::string::npos);
  CHECK(block.slurm[1].text.find("BlockSizes=") != std::string::npos);
  CHECK(block.slurm[1].errors.empty());
  REQUIRE(find_check(block, "slurm.topology-block"));
  CHECK(find_check(block, "slurm.topology-block")->verdict == Verdict::Pass);
  CHECK(find_check(block, "slurm.topology")->verdict == Verdict::Pass);

  req.plugin = "tree";
  req.format = "yaml";
  req.release = requested_release("25.05");
  const CommissionReport yaml = plan_commission(req);
  REQUIRE(yaml.slurm.size() == 2);
  CHECK(yaml.slurm[1].name == "topology.yaml");
  CHECK(yaml.slurm[1].text.find("cluster_default") != std::string::npos);
  REQUIRE(find_check(yaml, "slurm.topology-yaml"));
  CHECK(find_check(yaml, "slurm.topology-yaml")->verdict == Verdict::Pass);

  // topology.yaml came with 25.05: asking for it for 22.05 is bad input, naming the release.
  req.release = requested_release("22.05");
  try {
    plan_commission(req);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("25.05") != std::string::npos);
  }
}

TEST_CASE("report plan: a block file in service is compared with the generated blocks, and needs --plugin block") {
  const auto dir = std::filesystem::temp_directory_path() / "slurmtopo_report_plan_block_test";
  std::filesystem::create_directories(dir);
  CommissionRequest req = fattree_request();
  req.plugin = "block";
  req.release = requested_release("24.11");
  const std::string blocks = plan_commission(req).slurm[1].text;
  req.topology = (dir / "topology.conf").string();
  {
    std::ofstream f(req.topology);
    f << blocks;
  }
  const CommissionReport same = plan_commission(req);
  CHECK(same.topology_compared_with == "topology.conf (topology/block)");
  CHECK(same.topology_diff.empty());
  CHECK(find_check(same, "slurm.in-service")->verdict == Verdict::Pass);
  // Without --plugin block there are no blocks to compare it with: said, not a diff of everything.
  req.plugin = "tree";
  CHECK_THROWS_AS(plan_commission(req), InputError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("report plan: a topology in service that names no host of the fabric is another cluster's: inputs.match fails") {
  const auto dir = std::filesystem::temp_directory_path() / "slurmtopo_report_plan_foreign";
  std::filesystem::create_directories(dir);
  CommissionRequest req = fattree_request();
  req.topology = (dir / "topology.conf").string();
  std::ofstream(req.topology) << "SwitchName=s1 Nodes=other[001-016]\n";
  const CommissionReport r = plan_commission(req);
  REQUIRE(find_check(r, "inputs.match"));
  CHECK(find_check(r, "inputs.match")->verdict == Verdict::Fail);
  CHECK(has_finding(r, "topology-not-this-cluster", req.topology));
  CHECK(r.verdict == Verdict::Fail);
  std::filesystem::remove_all(dir);
}

TEST_CASE("report plan: node exports of another cluster fail inputs.match (ibtopotool 2.topo with the H200 VM)") {
  const std::string shared = SLURMTOPO_SOURCE_DIR "/../shared/";
  if (!std::filesystem::exists(shared + "nodes/measured/h200-vm/h200-vm.xml") ||
      !std::filesystem::exists(shared + "fabrics/public/ibtopotool_tests/2.topo"))
    return slurmtopo::testing::skip("../shared/nodes/measured/h200-vm or ibtopotool_tests/2.topo is absent");
  CommissionRequest req;
  req.inputs.fabric_files = {shared + "fabrics/public/ibtopotool_tests/2.topo"};
  // The folder as collected: nvidia-smi's XML beside the hwloc export is ignored, not an error.
  req.nodes.nodes_dir = shared + "nodes/measured/h200-vm";
  const CommissionReport r = plan_commission(req);
  REQUIRE(find_check(r, "inputs.match"));
  CHECK(find_check(r, "inputs.match")->verdict == Verdict::Fail);
  CHECK(has_finding(r, "not-this-cluster", "h200-vm"));
  CHECK(r.verdict == Verdict::Fail);
}

TEST_CASE("report plan: a sweep that holds one CA and no switch fails fabric.sweep (topograph's example-bad.out)") {
  const std::string dump = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/topograph/example-bad.out";
  if (!std::filesystem::exists(dump)) return slurmtopo::testing::skip(dump + " is absent");
  CommissionRequest req;
  req.inputs.fabric_files = {dump};
  const CommissionReport r = plan_commission(req);
  CHECK(find_check(r, "fabric.sweep")->verdict == Verdict::Fail);
  bool said = false;
  for (const auto& f : r.findings) said |= f.kind == "no-fabric" && f.detail.find("1 CA") != std::string::npos;
  CHECK(said);
}

TEST_CASE("report plan: provenance — the cluster's name (slurm.conf, or --cluster-name), each fabric's capture time") {
  // The SuperPOD sample's slurm.conf says ClusterName=superpod; its generated dump records no time.
  const CommissionReport& r = superpod_report();
  CHECK(r.cluster == "superpod");
  CHECK(r.cluster_from == "ClusterName in " + sample("slurm.conf"));
  const auto rows = provenance(r);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == std::pair<std::string, std::string>{"cluster", "superpod (ClusterName in " + sample("slurm.conf") + ")"});
  CHECK(rows[1].first == "fabric superpod-4su");
  CHECK(rows[1].second == sample("superpod-4su.topo") + ", captured at a time the input does not record");
  CHECK(rows[2] == std::pair<std::string, std::string>{"slurmtopo", slurmtopo_version()});
  // Without slurm.conf, nothing names the cluster, and the row says how to name it.
  CHECK(fattree_report().cluster.empty());
  CHECK(provenance(fattree_report())[0].second.find("--cluster-name") != std::string::npos);

  // A real dump's header time; --cluster-name wins over ClusterName.
  const std::string dump = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/ibtopotool_tests/1.topo";
  if (!std::filesystem::exists(dump)) return slurmtopo::testing::skip(dump + " is absent");
  CommissionRequest req;
  req.inputs.fabric_files = {dump};
  req.slurm_conf = sample("slurm.conf");
  req.cluster_name = "lab-2007";
  const CommissionReport real = plan_commission(req);
  CHECK(real.cluster == "lab-2007");
  CHECK(real.cluster_from == "--cluster-name");
  REQUIRE(real.inventory.fabrics.size() == 1);
  CHECK(real.inventory.fabrics[0].captured == "Tue Jun 5 14:15:10 2007");
  CHECK(provenance(real)[1].second == dump + ", captured Tue Jun 5 14:15:10 2007 (as the input records it)");
  // Every rendering shows the same rows.
  CHECK(commission_html(real).find("<dt>cluster</dt><dd>lab-2007 (--cluster-name)</dd>") != std::string::npos);
  CHECK(commission_html(real).find("<title>slurmtopo commissioning report for lab-2007: ") != std::string::npos);
  CHECK(commission_markdown(real).find("- fabric 1: " + dump + ", captured Tue Jun 5 14:15:10 2007") != std::string::npos);
  const auto json = nlohmann::json::parse(commission_json(real));
  CHECK(json["inventory"]["fabrics"][0]["captured"] == "Tue Jun 5 14:15:10 2007");
  CHECK(json["cluster"] == nlohmann::json({{"name", "lab-2007"}, {"from", "--cluster-name"}}));
  CHECK(nlohmann::json::parse(commission_json(fattree_report()))["cluster"].is_null());
}
