// A measured run written as the cluster would print it, for tests: nccl-tests' stdout (v2.19's
// format strings, src/common.cu) with NCCL 2.21's INFO lines in it (src/init.cc, net_ib.cc,
// net_socket.cc, transport/net.cc), one process per rank, ranks contiguous per host. Each host
// may carry a planted fault: sockets instead of IB, no GDRDMA, a rank on another rail.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace slurmtopo::testing {

// How each host of a written run behaves in its NCCL log.
struct HostPlan {
  bool sockets = false;     // libibverbs missing: Using network Socket
  bool no_gdr = false;      // NET/IB channels without GDRDMA
  int rail_of_rank0 = 0;    // the NET device its first local rank sends through
  bool gdr_pair_logged = false;  // "GPU Direct RDMA Disabled" for a GPU/HCA pair no channel uses
  bool no_channel_lines = false; // NCCL_DEBUG_SUBSYS without the connection lines
};

inline std::string fmt(const char* f, double a) {
  char b[64];
  std::snprintf(b, sizeof b, f, a);
  return b;
}

// nccl-tests' stdout (v2.19 formats, src/common.cu) with NCCL 2.21's INFO lines in it.
// `g` ranks (GPUs) per host, at most 8.
inline std::string write_run(const std::vector<std::string>& hosts, const std::vector<double>& bytes,
                             const std::vector<double>& busbw, const std::vector<HostPlan>& plans, long wrong = 0,
                             const std::string& gpu = "NVIDIA H100 80GB HBM3", int g = 8) {
  const int n = static_cast<int>(hosts.size()) * g;
  std::string out = "# nccl-tests version 2.19.6 nccl-headers=22105 nccl-library=22105\n"
                    "# Collective test starting: all_reduce_perf\n"
                    "# nThread 1 nGpus 1 minBytes 16777216 maxBytes 8589934592 step: 2(factor) warmup iters: 5 iters: 20 "
                    "agg iters: 1 validation: 1 graph: 0 unalign: 0\n#\n# Using devices\n";
  // DGX H100's GPU bus numbers, in Slurm's (PCI) order.
  static const char* bus[] = {"1b", "43", "52", "61", "9d", "c3", "d1", "df"};
  for (int r = 0; r < n; ++r) {
    char line[256];
    std::snprintf(line, sizeof line, "#  Rank %2d Group  0 Pid %6d on %10s device %2d [0000:%s:00] %s\n", r,
                  1000 + r, hosts[r / g].c_str(), r % g, bus[r % g], gpu.c_str());
    out += line;
  }
  // Each host's NCCL lines: one process per rank.
  for (size_t h = 0; h < hosts.size(); ++h) {
    for (int l = 0; l < g; ++l) {
      const int r = static_cast<int>(h) * g + l;
      const std::string pre = hosts[h] + ":" + std::to_string(1000 + r) + ":" + std::to_string(1000 + r) + " [" +
                              std::to_string(l) + "] NCCL INFO ";
      if (r == 0) out += pre + "NCCL version 2.21.5+cuda12.4\n";
      out += pre + "cudaDriverVersion 12040\n";
      if (plans[h].sockets) {
        out += pre + "Failed to open libibverbs.so[.1]\n";
        out += pre + "NET/Socket : Using [0]eth0:10.0.0." + std::to_string(h + 1) + "<0>\n";
        out += pre + "Using network Socket\n";
      } else {
        out += pre + "NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [2]mlx5_2:1/IB [3]mlx5_3:1/IB [4]mlx5_4:1/IB "
                     "[5]mlx5_5:1/IB [6]mlx5_6:1/IB [7]mlx5_7:1/IB [RO]; OOB ib0:10.0.0." +
               std::to_string(h + 1) + "<0>\n";
        out += pre + "Using network IB\n";
      }
      char init[256];
      std::snprintf(init, sizeof init,
                    "ncclCommInitRank comm 0x5564c0a0 rank %d nranks %d cudaDev %d nvmlDev %d busId %s000 commId "
                    "0x1234abcd - Init COMPLETE\n",
                    r, n, l, l, bus[l]);
      out += pre + init;
      if (plans[h].gdr_pair_logged)  // paths.cc (2.21): busId and the HCA's index in hex
        out += pre + "GPU Direct RDMA Disabled for GPU " + bus[l] + "000 / HCA " + std::to_string((l + 4) % g) +
               " (distance 7 > 4)\n";
      if (plans[h].no_channel_lines) continue;
      const int next = (r + g) % n;
      const int dev = l == 0 ? plans[h].rail_of_rank0 : l;
      const std::string via = plans[h].sockets ? "NET/Socket/0"
                                                : "NET/IB/" + std::to_string(dev) + (plans[h].no_gdr ? "" : "/GDRDMA");
      for (int c = 0; c < 2; ++c) {
        char ch[256];
        std::snprintf(ch, sizeof ch, "Channel %02d/0 : %d[%d] -> %d[%d] [send] via %s\n", c, r, l, next, l, via.c_str());
        out += pre + ch;
      }
    }
  }
  out += "#\n#                                                              out-of-place                       in-place"
         "          \n#       size         count      type   redop    root     time   algbw   busbw #wrong     time   "
         "algbw   busbw #wrong\n#        (B)    (elements)                               (us)  (GB/s)  (GB/s)         "
         "    (us)  (GB/s)  (GB/s)       \n";
  double sum = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const double algbw = busbw[i] / (2.0 * (n - 1) / n);
    const double us = bytes[i] / 1e3 / algbw;
    char row[256];
    // wrong < 0: run with -c 0, no check (`%6s` of "N/A").
    const std::string first = wrong < 0 ? "N/A" : std::to_string(i == 0 ? wrong : 0L);
    const std::string rest = wrong < 0 ? "N/A" : "0";
    std::snprintf(row, sizeof row, "%12.0f  %12.0f     float     sum      -1  %7s  %6.2f  %6.2f  %5s  %7s  %6.2f  %6.2f  %5s\n",
                  bytes[i], bytes[i] / 4, fmt("%.1f", us).c_str(), algbw, busbw[i], first.c_str(),
                  fmt("%.1f", us).c_str(), algbw, busbw[i], rest.c_str());
    out += row;
    sum += 2 * busbw[i];
  }
  out += "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : " + fmt("%.4f", sum / (2 * bytes.size())) + " \n#\n";
  return out;
}

}  // namespace slurmtopo::testing
