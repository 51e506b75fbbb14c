// GB200 and GB300 NVL72 against published nccl-tests runs (docs/simulator.md, "NVL72", gives
// each figure's source): one rack, two racks, three racks on InfiniBand only, and one compute
// tray. Racks are generated as `generate railopt --hosts-per-su 18 --rails 4
// --nvlink-domain-nodes 18` makes them: 18 trays a rack, each GPU's NIC on its rail leaf, a
// non-blocking fabric routed adaptively. One point is the fit of gb200-nvl72's
// domain_nvls_gbs; every other is a test. Claimed: 4 GiB and above within 10 %, 1–2 GiB within
// 20 %, the single tray within 15 % from 16 MiB.
#include <doctest/doctest.h>

#include <cstdio>

#include "simulate/collective/collective.h"
#include "slurm/hostlist.h"
#include "tests/simulate/collective/nvl72_racks.h"

using namespace slurmtopo;

namespace {

constexpr double MiB = 1024.0 * 1024, GiB = MiB * 1024;

const testing::Nvl72Racks& racks() { return testing::nvl72_racks(4); }

struct Point {
  const char* what;
  const char* hosts;   // dgx001-018 is rack 1, dgx019-036 rack 2, …
  const char* profile;
  std::optional<Algorithm> algo;  // forced as the run forced it (NCCL_ALGO, NCCL_NVLS_ENABLE=0)
  double bytes;
  double published;  // busbw GB/s
  double tolerance;  // relative
  bool fit;
};

void check(const Point& p) {
  SimulateOptions o;
  o.routing = RoutingKind::Adaptive;
  o.sizes = {p.bytes};
  o.algorithm = p.algo;
  o.nvlink_domains = &racks().domains;
  const HardwareProfile h = load_profile(p.profile);
  const Prediction pred = predict(racks().cluster, expand_hostlist(p.hosts), h, o);
  const SizePrediction& s = pred.sizes.front();
  const double error = s.busbw_gbs / p.published - 1;
  std::printf("%-48s %-9s %8s %8.1f %8.1f %+6.1f %% %s/%s%s\n", p.what, p.profile, format_size(p.bytes).c_str(),
              p.published, s.busbw_gbs, 100 * error, to_string(s.algorithm), to_string(s.protocol),
              p.fit ? "  (fit)" : "");
  CAPTURE(std::string(p.what));
  CAPTURE(format_size(p.bytes));
  CAPTURE(s.busbw_gbs);
  CHECK(std::abs(error) <= p.tolerance);
  // Physical limits: NVLS moves (1 + 1/G)·S through every GPU's port each way; nothing else
  // beats every GPU's NVLink at its line rate.
  const double G = pred.nvlink_domains ? pred.domain_gpus : h.gpus_per_node;
  if (s.algorithm == Algorithm::Nvls) CHECK(s.algbw_gbs * (1 + 1 / G) <= h.nvlink_line_gbs());
  CHECK(s.busbw_gbs <= 2 * h.nvlink_line_gbs());
}

}  // namespace

TEST_CASE("calibration: GB200 and GB300 NVL72 racks against published runs") {
  const Point points[] = {
      // CoreWeave coreweave/nccl-tests README, one GB200 rack (72 GPUs), in-place.
      {"GB200 1 rack, 72 GPUs (CoreWeave)", "dgx[001-018]", "gb200-nvl72", {}, 8 * GiB, 846.82, 0.005, true},
      {"GB200 1 rack, 72 GPUs (CoreWeave)", "dgx[001-018]", "gb200-nvl72", {}, 4 * GiB, 835.32, 0.10, false},
      {"GB200 1 rack, 72 GPUs (CoreWeave)", "dgx[001-018]", "gb200-nvl72", {}, 2 * GiB, 773.62, 0.20, false},
      {"GB200 1 rack, 72 GPUs (CoreWeave)", "dgx[001-018]", "gb200-nvl72", {}, 1 * GiB, 724.06, 0.20, false},
      // Verda (datacrunch-research/blogs), one GB300 rack, in-place.
      {"GB300 1 rack, 72 GPUs (Verda)", "dgx[001-018]", "gb300-nvl72", {}, 16 * GiB, 918.89, 0.10, false},
      {"GB300 1 rack, 72 GPUs (Verda)", "dgx[001-018]", "gb300-nvl72", {}, 8 * GiB, 884.61, 0.10, false},
      {"GB300 1 rack, 72 GPUs (Verda)", "dgx[001-018]", "gb300-nvl72", {}, 4 * GiB, 848.54, 0.10, false},
      {"GB300 1 rack, 72 GPUs (Verda)", "dgx[001-018]", "gb300-nvl72", {}, 1 * GiB, 725.75, 0.20, false},
      // CoreWeave, two GB200 racks of 16 trays (128 GPUs), in-place.
      {"GB200 2 racks x 16 trays, 128 GPUs (CoreWeave)", "dgx[001-016,019-034]", "gb200-nvl72", {}, 16 * GiB, 820.36, 0.10, false},
      {"GB200 2 racks x 16 trays, 128 GPUs (CoreWeave)", "dgx[001-016,019-034]", "gb200-nvl72", {}, 8 * GiB, 791.88, 0.10, false},
      {"GB200 2 racks x 16 trays, 128 GPUs (CoreWeave)", "dgx[001-016,019-034]", "gb200-nvl72", {}, 1 * GiB, 597.59, 0.20, false},
      // NVIDIA/nccl#1801, NCCL 2.27.3, NCCL_NVLS_ENABLE=0: three racks joined by InfiniBand only.
      {"GB200 3 racks x 1 tray, ring (nccl#1801)", "dgx[001,019,037]", "gb200-nvl72", Algorithm::Ring, 16 * GiB, 196.87, 0.10, false},
      {"GB200 3 racks x 1 tray, tree (nccl#1801)", "dgx[001,019,037]", "gb200-nvl72", Algorithm::Tree, 16 * GiB, 234.77, 0.10, false},
      {"GB200 3 racks x 2 trays, ring (nccl#1801)", "dgx[001-002,019-020,037-038]", "gb200-nvl72", Algorithm::Ring, 16 * GiB, 393.64, 0.10, false},
      {"GB200 3 racks x 2 trays, tree (nccl#1801)", "dgx[001-002,019-020,037-038]", "gb200-nvl72", Algorithm::Tree, 16 * GiB, 483.56, 0.10, false},
      // Azure ND GB200 v6 (Azure/AI-benchmarking-guide), one tray of 4 GPUs, ring, in-place.
      {"GB200 1 tray, 4 GPUs, ring (Azure)", "dgx001", "gb200-nvl72", Algorithm::Ring, 8 * GiB, 679.61, 0.10, false},
      {"GB200 1 tray, 4 GPUs, ring (Azure)", "dgx001", "gb200-nvl72", Algorithm::Ring, 1 * GiB, 646.87, 0.15, false},
      {"GB200 1 tray, 4 GPUs, ring (Azure)", "dgx001", "gb200-nvl72", Algorithm::Ring, 128 * MiB, 574.19, 0.15, false},
      {"GB200 1 tray, 4 GPUs, ring (Azure)", "dgx001", "gb200-nvl72", Algorithm::Ring, 16 * MiB, 331.09, 0.15, false},
  };
  for (const Point& p : points) check(p);
}
