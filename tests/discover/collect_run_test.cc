#include "discover/collect_run.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

namespace {

CollectPlan plan_for(std::vector<std::string> hosts) {
  CollectPlan p;
  p.hosts = std::move(hosts);
  p.out_dir = "/shared/nodes";
  return p;
}

}  // namespace

TEST_CASE("collect report: every export arrived — 0, or 3 when srun failed") {
  const CollectPlan plan = plan_for({"n1", "n2"});
  CollectReport r = collect_report(plan, {.srun_exit = 0, .delivered = 2, .missing = {}, .fabric_reports = 2});
  CHECK(r.out ==
        "2 of 2 exports in /shared/nodes\n2 of 2 NVLink fabric reports (nvidia-smi) in /shared/nodes, for emit topology "
        "--nvlink-domains\n0 of 2 node probe records (<node>.probe); inspect and report --nodes-dir read them\n");
  CHECK(r.err.empty());
  CHECK(r.exit_code == 0);
  r = collect_report(plan, {.srun_exit = 0, .delivered = 2, .missing = {}, .fabric_reports = 0, .probes = 2});
  // no nvidia-smi: no NVLink line
  CHECK(r.out == "2 of 2 exports in /shared/nodes\n2 of 2 node probe records (<node>.probe); inspect and report "
                 "--nodes-dir read them\n");
  r = collect_report(plan, {.srun_exit = 143, .delivered = 2, .missing = {}, .fabric_reports = 0});
  CHECK(r.err == "slurmtopo: srun exited 143 (every export arrived)\n");
  CHECK(r.exit_code == 3);  // never srun's own code: 1 is slurmtopo's internal error
}

TEST_CASE("collect report: a node without an export names it and fails the run") {
  const CollectPlan plan = plan_for({"n1", "n2", "n3"});
  CollectReport one = collect_report(plan, {.srun_exit = 0, .delivered = 2, .missing = {"n3"}, .fabric_reports = 0});
  CHECK(one.err == "slurmtopo: no export from 1 node: n3\n");
  CHECK(one.exit_code == 3);
  CollectReport two = collect_report(plan, {.srun_exit = 1, .delivered = 1, .missing = {"n2", "n3"}, .fabric_reports = 0});
  CHECK(two.err == "slurmtopo: no export from 2 nodes: n[2-3] (srun exited 1)\n");
  CHECK(two.exit_code == 3);
}
