// `inspect --measured`: what an admin reads of a run or a job's log, and the JSON.
#include "report/measured_evidence_report.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"

using namespace slurmtopo;

namespace {

const std::string kNccl = SLURMTOPO_SOURCE_DIR "/tests/data/nccl/";

MeasuredEvidence weigh(const std::string& file) {
  RailOptimizedSpec spec;
  spec.scalable_units = 1;
  spec.hosts_per_su = 4;
  return weigh_measured(build_cluster({generate_rail_optimized(spec)}, ClusterOptions{}), read_measured(kNccl + file),
                        nullptr);
}

}  // namespace

TEST_CASE("inspect --measured text: each host's network, channels and HCAs, the evidence and the finding") {
  const std::string text = measured_evidence_report(weigh("nccl-2.21.5-2x8-h100-socket-fallback.log"), false);
  CHECK(text.find("on gpu-[017-018]: 2 hosts x 8 = 16 ranks of NVIDIA H100 80GB HBM3") != std::string::npos);
  CHECK(text.find("NCCL 2.21.5)") != std::string::npos);
  // gpu-018 on sockets over eth0, gpu-017 on its eight HCAs with GDRDMA.
  CHECK(text.find("gpu-018        12.4   Socket   0          0        32      eth0") != std::string::npos);
  CHECK(text.find("gpu-017        12.4   IB       32         32       0       mlx5_0, mlx5_1") != std::string::npos);
  CHECK(text.find("no size row: the run ended, or hung, before its first size") != std::string::npos);
  CHECK(text.find("fail socket-fallback gpu-018: ") != std::string::npos);
}

TEST_CASE("inspect --measured: a job's log shows no size table, NCCL_IB_HCA as read, JSON the same facts") {
  const MeasuredEvidence e = weigh("nccl-2.25.1-2x4-gdr-disabled.log");
  const std::string text = measured_evidence_report(e, false);
  CHECK(text.find("NCCL job on gpu-[101-102]: 2 hosts x 4 = 8 ranks") != std::string::npos);
  CHECK(text.find("size  out-of-place") == std::string::npos);
  CHECK(text.find("(=mlx5_0,mlx5_1,mlx5_2,mlx5_3)") != std::string::npos);
  CHECK(text.find("warn gdr-off gpu-[101-102]") != std::string::npos);
  const auto j = nlohmann::json::parse(measured_evidence_report(e, true));
  REQUIRE(j["runs"].size() == 1);
  CHECK(j["runs"][0]["job_log"] == true);
  CHECK(j["runs"][0]["nccl_version"] == "2.25.1");
  CHECK(j["runs"][0]["host_evidence"][0]["ib_channels"] == 8);
  CHECK(j["runs"][0]["host_evidence"][0]["gdr_channels"] == 6);
  CHECK(j["runs"][0]["host_evidence"][1]["nccl_ib_hca"] == "=mlx5_0,mlx5_1,mlx5_2,mlx5_3");
  CHECK(j["findings"][0]["kind"] == "gdr-off");
  CHECK(j["findings"][0]["severity"] == "warn");
}
