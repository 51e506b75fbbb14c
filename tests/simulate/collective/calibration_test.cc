// The published figures of ../shared/reference/collectives.md, reproduced by the model with
// the shipped profiles: large-message busbw within 10 %, the single-node H200 and A100 sweeps
// within 15 % from 1 MiB to 8 GiB (smaller sizes, and A100 at 16 MiB, are printed, not
// asserted), Meta's multi-node sweep within 10 % from 128 MiB and 25 % at 16 MiB, and never
// above the physical limits listed there. docs/simulator.md shows the same tables, and which
// points the fitted constants were fitted to.
#include <doctest/doctest.h>

#include <cstdio>

#include "discover/synthetic_fabric.h"
#include "simulate/collective/collective.h"
#include "simulate/network/network.h"

using namespace slurmtopo;

namespace {

constexpr double KiB = 1024.0, MiB = KiB * 1024, GiB = MiB * 1024;

// One scalable unit of DGX nodes: the single-node figures need a host, not a fabric.
const Cluster& one_su() {
  static const Cluster c = [] {
    RailOptimizedSpec spec;
    spec.scalable_units = 1;
    spec.hosts_per_su = 4;
    return build_cluster({generate_rail_optimized(spec)}, ClusterOptions{});
  }();
  return c;
}

// Non-blocking rail-optimized fabrics: 2 SUs of 20 DGX A100 on HDR (40-port switches) and
// 4 SUs of 32 DGX H100 on NDR.
const Cluster& hdr_superpod() {
  static const Cluster c = [] {
    RailOptimizedSpec spec;
    spec.scalable_units = 2;
    spec.hosts_per_su = 20;
    spec.radix = 40;
    spec.speed = LinkSpeed::HDR;
    return build_cluster({generate_rail_optimized(spec)}, ClusterOptions{});
  }();
  return c;
}
const Cluster& ndr_superpod() {
  static const Cluster c = [] {
    RailOptimizedSpec spec;  // 4 SUs x 32 hosts x 8 rails, NDR, radix 64
    return build_cluster({generate_rail_optimized(spec)}, ClusterOptions{});
  }();
  return c;
}

Prediction run(const Cluster& c, const std::vector<std::string>& hosts, const std::string& profile,
               std::optional<Algorithm> algo, std::vector<double> sizes, RoutingKind routing = RoutingKind::MinHop) {
  SimulateOptions o;
  o.routing = routing;
  o.algorithm = algo;
  o.sizes = std::move(sizes);
  return predict(c, hosts, load_profile(profile), o);
}

// The physical limits of collectives.md, for every prediction.
void check_physical(const Prediction& p, const HardwareProfile& h) {
  for (const SizePrediction& s : p.sizes) {
    CAPTURE(s.bytes);
    if (p.nodes == 1 && s.algorithm == Algorithm::Nvls) {
      // NVLS: every GPU's port carries (1 + 1/G)·S each way.
      CHECK(s.algbw_gbs * (1 + 1.0 / h.gpus_per_node) <= h.nvlink_line_gbs());
    } else if (p.nodes == 1) {
      // A ring moves busbw through every GPU's port.
      CHECK(s.busbw_gbs <= (h.nvlink_links ? h.nvlink_line_gbs() : h.pcie_line_gbs()));
    } else {
      // Without in-network reduction every node sends 2(N−1)/N of the data: nothing beats
      // every NIC at its line rate (DGX H100: 8 × NDR = 400 GB/s; ≈ 390 after what
      // ib_write_bw reaches) × N/(N−1) × (n−1)/n.
      const double n = p.ranks;
      CHECK(s.busbw_gbs <= h.nics_per_node * h.nic_line_gbs() * kCableEfficiency * p.nodes / (p.nodes - 1.0) * (n - 1) / n);
    }
  }
}

struct Figure {
  const char* system;
  double published;
  double predicted;
};

void report(const Figure& f, double tolerance) {
  char line[200];
  std::snprintf(line, sizeof line, "%-40s published %7.2f  predicted %7.2f  (%+.1f %%)", f.system, f.published,
                f.predicted, 100 * (f.predicted / f.published - 1));
  MESSAGE(line);
  CHECK(f.predicted == doctest::Approx(f.published).epsilon(tolerance));
}

double busbw_at(const Prediction& p, size_t i = 0) { return p.sizes.at(i).busbw_gbs; }

}  // namespace

TEST_CASE("calibration: large-message busbw of one node within 10 %") {
  struct Case {
    const char* system;
    const char* profile;
    std::optional<Algorithm> algo;
    double published;
  };
  const Case cases[] = {
      {"8x A100 NVLink3", "a100-hdr", std::nullopt, 232},
      {"8x H100 NVLink4, ring", "h100-ndr", Algorithm::Ring, 370},
      {"8x H100 NVLS", "h100-ndr", Algorithm::Nvls, 480},
      {"8x H100 (NCCL's choice: NVLS)", "h100-ndr", std::nullopt, 480},
      {"8x B200 NVLink5, ring", "b200-xdr", Algorithm::Ring, 700},
      {"8x B200 NVLS", "b200-xdr", Algorithm::Nvls, 850},
  };
  for (const Case& c : cases) {
    INFO(c.system);
    const Prediction p = run(one_su(), {"dgx001"}, c.profile, c.algo, {8 * GiB});
    report({c.system, c.published, busbw_at(p)}, 0.10);
    check_physical(p, load_profile(c.profile));
  }
}

TEST_CASE("calibration: large-message busbw across nodes on a non-blocking rail-optimized fabric within 10 %") {
  SUBCASE("DGX A100, 8x HDR: 192") {
    // Eight nodes, four in each scalable unit.
    const std::vector<std::string> hosts{"dgx001", "dgx002", "dgx003", "dgx004",
                                         "dgx021", "dgx022", "dgx023", "dgx024"};
    for (auto algo : {std::optional<Algorithm>{}, std::optional<Algorithm>{Algorithm::Ring}}) {
      const Prediction p = run(hdr_superpod(), hosts, "a100-hdr", algo, {8 * GiB});
      report({algo ? "8 DGX A100, ring" : "8 DGX A100 (NCCL's choice)", 192, busbw_at(p)}, 0.10);
      CHECK(busbw_at(p) == doctest::Approx(p.sizes[0].ideal_busbw_gbs));  // non-blocking: no loss
      check_physical(p, load_profile("a100-hdr"));
    }
  }
  SUBCASE("DGX H100, 8x NDR: 370-380") {
    std::vector<std::string> hosts;
    for (int su = 0; su < 4; ++su)
      for (int i = 1; i <= 4; ++i) {
        char name[16];
        std::snprintf(name, sizeof name, "dgx%03d", su * 32 + i);
        hosts.push_back(name);
      }
    for (auto algo : {std::optional<Algorithm>{}, std::optional<Algorithm>{Algorithm::Ring}}) {
      const Prediction p = run(ndr_superpod(), hosts, "h100-ndr", algo, {8 * GiB});
      report({algo ? "16 DGX H100, ring" : "16 DGX H100 (NCCL's choice)", 375, busbw_at(p)}, 0.10);
      CHECK(busbw_at(p) <= 390);  // the listed limit without in-network reduction
      check_physical(p, load_profile("h100-ndr"));
    }
  }
}

TEST_CASE("calibration: single-node sweeps within 15 % from 1 MiB to 8 GiB (A100 16 MiB not claimed)") {
  const std::vector<double> sizes{KiB, 64 * KiB, MiB, 16 * MiB, 64 * MiB, 256 * MiB, GiB, 8 * GiB};
  struct Sweep {
    const char* system;
    const char* profile;
    std::vector<double> published;  // in-place allreduce busbw (Azure AI-benchmarking-guide)
  };
  const Sweep sweeps[] = {
      {"8x H200 (NVLS)", "h200-ndr", {0.06, 3.72, 52.96, 240.41, 368.11, 432.24, 467.58, 479.98}},
      {"8x A100", "a100-hdr", {0.04, 2.70, 36.22, 109.22, 166.63, 213.87, 228.10, 231.58}},
  };
  for (const Sweep& s : sweeps) {
    INFO(s.system);
    const Prediction p = run(one_su(), {"dgx001"}, s.profile, std::nullopt, sizes);
    for (size_t i = 0; i < sizes.size(); ++i) {
      const std::string what = std::string(s.system) + " " + format_size(sizes[i]) + " " +
                               to_string(p.sizes[i].algorithm) + "/" + to_string(p.sizes[i].protocol);
      // Not claimed: A100 at 16 MiB, where NCCL runs LL128 and its model (which this one
      // follows) gives ~150 GB/s against the 109 measured (docs/simulator.md).
      const bool claimed = sizes[i] >= MiB && !(std::string(s.profile) == "a100-hdr" && sizes[i] == 16 * MiB);
      if (claimed) {
        report({what.c_str(), s.published[i], busbw_at(p, i)}, 0.15);
      } else {
        char line[200];
        std::snprintf(line, sizeof line, "%-40s published %7.2f  predicted %7.2f  (not asserted)", what.c_str(),
                      s.published[i], busbw_at(p, i));
        MESSAGE(line);
      }
    }
    check_physical(p, load_profile(s.profile));
  }
}

TEST_CASE("calibration: PCIe-only nodes ring at what NCCL counts for PCIe") {
  // Published: 8 GPUs on PCIe Gen4 / Gen5 reach 24 / 48 GB/s.
  for (int gen : {4, 5}) {
    HardwareProfile h = load_profile("a100-hdr");
    h.nvlink_links = 0;
    h.nvswitch = false;
    h.pcie_gen = gen;
    SimulateOptions o;
    o.sizes = {8 * GiB};
    const Prediction p = predict(one_su(), {"dgx001"}, h, o);
    report({gen == 4 ? "8 GPUs on PCIe Gen4" : "8 GPUs on PCIe Gen5", gen == 4 ? 24.0 : 48.0, busbw_at(p)}, 0.10);
    check_physical(p, h);
  }
}

namespace {

// 16 SUs of 32 DGX H100 on NDR: 512 nodes, two-level rail planes of eight spines each.
const Cluster& ndr_512() {
  static const Cluster c = [] {
    RailOptimizedSpec spec;
    spec.scalable_units = 16;
    return build_cluster({generate_rail_optimized(spec)}, ClusterOptions{});
  }();
  return c;
}

std::vector<std::string> first_hosts(int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) {
    char name[16];
    std::snprintf(name, sizeof name, "dgx%03d", i);
    out.push_back(name);
  }
  return out;
}

}  // namespace

TEST_CASE("calibration: Meta's 4- and 512-node DGX H100 sweep, mid sizes from mechanisms") {
  // Meta (arXiv 2411.13055), read from the paper's plot (±~10 GB/s); routed adaptively, as a
  // non-blocking fabric carries it. Fitted: 512 nodes at 16 MiB (calibration.net_jitter_us);
  // every other point is a test. 16 GiB: the paper gives 340-360, compared with 350.
  struct Point {
    int nodes;
    double bytes, published, tolerance;
    bool fitted;
  };
  const Point points[] = {
      {4, 16 * MiB, 115, 0.25, false},  {4, 128 * MiB, 255, 0.10, false},  {4, GiB, 337, 0.10, false},
      {4, 16 * GiB, 350, 0.10, false},  {512, 16 * MiB, 40, 0.05, true},   {512, 128 * MiB, 165, 0.10, false},
      {512, GiB, 285, 0.10, false},     {512, 16 * GiB, 350, 0.10, false},
  };
  for (int n : {4, 512}) {
    std::vector<double> sizes;
    for (const Point& pt : points)
      if (pt.nodes == n) sizes.push_back(pt.bytes);
    const Prediction p =
        run(n <= 128 ? ndr_superpod() : ndr_512(), first_hosts(n), "h100-ndr", std::nullopt, sizes, RoutingKind::Adaptive);
    size_t i = 0;
    for (const Point& pt : points) {
      if (pt.nodes != n) continue;
      const SizePrediction& s = p.sizes[i++];
      const std::string what = std::to_string(n) + " DGX H100 " + format_size(pt.bytes) + " " + to_string(s.algorithm) +
                               "/" + to_string(s.protocol) + (pt.fitted ? " (fit)" : " (test)");
      report({what.c_str(), pt.published, s.busbw_gbs}, pt.tolerance);
    }
    check_physical(p, load_profile("h100-ndr"));
    // The trend the paper shows: mid sizes fall as nodes grow, 16 GiB does not.
  }
  const Prediction four = run(ndr_superpod(), first_hosts(4), "h100-ndr", std::nullopt, {16 * MiB, 16 * GiB},
                              RoutingKind::Adaptive);
  const Prediction many = run(ndr_512(), first_hosts(512), "h100-ndr", std::nullopt, {16 * MiB, 16 * GiB},
                              RoutingKind::Adaptive);
  CHECK(many.sizes[0].busbw_gbs < 0.5 * four.sizes[0].busbw_gbs);
  CHECK(many.sizes[1].busbw_gbs == doctest::Approx(four.sizes[1].busbw_gbs).epsilon(0.05));
}
