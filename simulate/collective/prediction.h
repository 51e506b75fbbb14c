// What a placement costs a collective: per message size the algorithm and protocol NCCL
// would run, the time, algbw and busbw (nccl-tests' definitions), and what limits it.
//
// NCCL chooses blind to the fabric: it assumes every cable is ideal. So the choice here is
// made the same way — the fastest predicted time with the fabric's cables ideal — and then
// costed on the real cables, routes and oversubscription. When another algorithm would have
// been faster on this fabric, the prediction says so (`better`).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "graph/cluster.h"
#include "simulate/collective/busy_jobs.h"
#include "simulate/collective/contention.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/nccl_model.h"
#include "simulate/collective/nvlink_domain.h"
#include "simulate/network/routing.h"

namespace slurmtopo {

struct SimulateOptions {
  Collective collective = Collective::AllReduce;
  std::optional<Algorithm> algorithm;  // forced (--algo); nullopt: as NCCL would choose
  std::vector<double> sizes{1024.0, 1048576.0, 16777216.0, 268435456.0, 1073741824.0, 8589934592.0};
  RoutingKind routing = RoutingKind::MinHop;  // for the overload that builds a FabricModel
  const GpuNics* gpu_nics = nullptr;          // per-host GPU → HCA, from node data
  // Jobs running next door (--busy-jobs): their flows share the cables under the routing.
  std::vector<BusyJob> busy_jobs;
  std::string busy_source = "--busy-jobs";  // where they came from, for errors
  // NVLink domains (--nvlink-domains): on a profile whose domains hold several nodes (NVL72),
  // NCCL's nodes are domains (simulate/collective/nvlink_domain.h). Without them each host
  // runs as a domain of its own, as NCCL does with MNNVL off, and the prediction says so.
  const HostDomains* nvlink_domains = nullptr;
};

struct Choice {
  Algorithm algorithm = Algorithm::Ring;
  Protocol protocol = Protocol::Simple;
  double time_us = 0;
};

struct SizePrediction {
  double bytes = 0;  // nccl-tests' size: the whole buffer
  Algorithm algorithm = Algorithm::Ring;
  Protocol protocol = Protocol::Simple;
  TimeTerms terms;        // the time, term by term
  double time_us = 0;
  double algbw_gbs = 0;   // bytes / time
  double busbw_gbs = 0;   // algbw × bus_factor
  double ideal_busbw_gbs = 0;  // the same choice with every cable ideal (NCCL's expectation)
  bool latency_bound = false;  // launch, latency and sync outweigh transfer and fill
  std::vector<Bottleneck> bottlenecks;  // what limits the chosen algorithm's bandwidth (worst 10)
  int bottleneck_count = 0;             // how many resources limit it in all
  std::optional<Choice> better;         // faster on this fabric than NCCL's choice (by > 1 %)
  double alone_busbw_gbs = 0;  // with jobs next door: the same choice without them
};

struct Prediction {
  std::vector<std::string> hosts;  // rank order
  std::string profile;
  std::string routing;
  Collective collective = Collective::AllReduce;
  int nodes = 0, ranks = 0, channels = 0, rails = 0;  // rails: NICs per NCCL node in use
  // MNNVL: the NVLink domains the hosts span (NCCL's nNodes) and the GPUs NCCL's node holds;
  // 0 where a node is its own domain.
  int nvlink_domains = 0, domain_gpus = 0;
  std::vector<SizePrediction> sizes;
  std::vector<std::string> warnings;
  int busy_jobs = 0;  // jobs next door taken into account
};

// Throws InputError for hosts the cluster lacks, an algorithm the hardware or placement
// cannot run (--algo nvls on several nodes, …), or NICs that cannot reach each other.
// Reuse one FabricModel for many predictions: it holds the routing and its caches.
Prediction predict(const FabricModel& fabric, const std::vector<std::string>& hosts,
                   const HardwareProfile& profile, const SimulateOptions& options);
Prediction predict(const Cluster& cluster, const std::vector<std::string>& hosts,
                   const HardwareProfile& profile, const SimulateOptions& options);

// "1K,1M,16M,256M,1G,8G" → bytes, binary units as nccl-tests counts them (K = 1024); a plain
// number is bytes, "B"/"iB" suffixes are accepted. Throws InputError(option, …), naming the
// option the user typed.
std::vector<double> parse_sizes(const std::string& list, const std::string& option = "--sizes");
// 1024 → "1 KiB", 8589934592 → "8 GiB", 1000 → "1000 B".
std::string format_size(double bytes);

}  // namespace slurmtopo
