// Runs joined with their logs, and NCCL logs of jobs that are no nccl-tests run (a training
// job's, one file for all nodes or one per node): their evidence weighed on its own.
#include "simulate/measured/measured_run.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"
#include "simulate/measured/measured_evidence.h"

using namespace slurmtopo;

namespace {

const std::string kNccl = SLURMTOPO_SOURCE_DIR "/tests/data/nccl/";

Cluster any_cluster() {
  RailOptimizedSpec spec;
  spec.scalable_units = 1;
  spec.hosts_per_su = 4;
  return build_cluster({generate_rail_optimized(spec)}, ClusterOptions{});
}

// The lines of `file` whose HOST:PID prefix names `host`, as that node's own log.
std::string lines_of(const std::string& file, const std::string& host) {
  std::ifstream in(kNccl + file);
  std::string out, line;
  while (std::getline(in, line))
    if (line.rfind(host + ":", 0) == 0) out += line + "\n";
  return out;
}

bool has_kind(const std::vector<MeasuredFinding>& f, MeasuredKind k, const std::string& subject) {
  for (const auto& x : f)
    if (x.kind == k && x.subject == subject) return true;
  return false;
}

}  // namespace

TEST_CASE("measured runs: a training job's log is a job of its own, its GPUDirect off on both hosts") {
  const std::vector<MeasuredRun> runs = read_measured(kNccl + "nccl-2.25.1-2x4-gdr-disabled.log");
  REQUIRE(runs.size() == 1);
  const MeasuredRun& job = runs.front();
  CHECK(job.job_log);
  CHECK(job.hosts == std::vector<std::string>{"gpu-101", "gpu-102"});
  CHECK(job.nodes == 2);
  CHECK(job.gpus_per_host == 4);
  REQUIRE(job.evidence.size() == 2);
  CHECK(job.evidence[1].ranks.size() == 4);
  const MeasuredEvidence e = weigh_measured(any_cluster(), runs, nullptr);
  REQUIRE(e.weighed.size() == 1);
  CHECK(e.weighed[0].collective == "NCCL job");
  CHECK(e.weighed[0].ranks == 8);
  CHECK(e.weighed[0].sizes.empty());
  CHECK(has_kind(e.findings, MeasuredKind::NoGdr, "gpu-[101-102]"));
  CHECK(!has_kind(e.findings, MeasuredKind::Below, "gpu-[101-102] NCCL job"));
}

TEST_CASE("measured runs: one log per node joins into one job by the communicator's commId") {
  const auto dir = std::filesystem::temp_directory_path() / "slurmtopo-job-logs";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const std::string host : {"gpu-101", "gpu-102"})
    std::ofstream(dir / (host + ".log")) << lines_of("nccl-2.25.1-2x4-gdr-disabled.log", host);
  std::vector<MeasuredRun> runs = read_measured(dir.string());
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].hosts == std::vector<std::string>{"gpu-101", "gpu-102"});
  CHECK(runs[0].gpus_per_host == 4);
  // Only gpu-102's file: NCCL's nNodes says the job spans two, so its GPUDirect still counts.
  std::filesystem::remove(dir / "gpu-101.log");
  runs = read_measured(dir.string());
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].hosts == std::vector<std::string>{"gpu-102"});
  CHECK(runs[0].nodes == 2);
  CHECK(has_kind(weigh_measured(any_cluster(), runs, nullptr).findings, MeasuredKind::NoGdr, "gpu-102"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("measured runs: a run's own NCCL lines leave no job behind, a GB200 job on GDRDMA stays quiet") {
  std::vector<MeasuredRun> runs = read_measured(kNccl + "all_reduce_perf-2x8-h100-nccl-debug.out");
  REQUIRE(runs.size() == 1);
  CHECK(!runs[0].job_log);
  CHECK(runs[0].logged());
  runs = read_measured(kNccl + "nccl-2.30.7-gb200-timestamps.log");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].job_log);
  CHECK(runs[0].hosts == std::vector<std::string>{"nvl72-c03-t01", "nvl72-c03-t02"});
  const MeasuredEvidence e = weigh_measured(any_cluster(), runs, nullptr);
  CHECK(e.weighed[0].causes.empty());
  CHECK(e.findings.empty());
}

TEST_CASE("measured runs: a run that hung before its first size keeps its log, sockets on one host named") {
  const std::vector<MeasuredRun> runs = read_measured(kNccl + "nccl-2.21.5-2x8-h100-socket-fallback.log");
  REQUIRE(runs.size() == 1);
  CHECK(!runs[0].job_log);
  CHECK(runs[0].test.rows.empty());
  const MeasuredEvidence e = weigh_measured(any_cluster(), runs, nullptr);
  CHECK(has_kind(e.findings, MeasuredKind::Sockets, "gpu-018"));
  CHECK(!has_kind(e.findings, MeasuredKind::Sockets, "gpu-017"));
}
