#include "simulate/whatif/synthetic_workload.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "simulate/whatif/seeded_random.h"

namespace slurmtopo {

Workload synthetic_workload(const SyntheticSpec& spec) {
  if (spec.jobs < 0 || spec.cluster_nodes < 1 || spec.load <= 0)
    throw std::invalid_argument("synthetic workload: expected jobs >= 0, nodes >= 1 and load > 0");
  SeededRandom rng(spec.seed);
  Workload w;
  w.source = "synthetic(" + std::to_string(spec.jobs) + " jobs, seed " + std::to_string(spec.seed) + ")";
  const int largest = std::max(1, spec.cluster_nodes / 4);
  int max_exp = 0;
  while ((2 << max_exp) <= largest) ++max_exp;
  // Sizes 2^k with weight 1/(k+1): single nodes are the commonest, the largest the rarest.
  std::vector<double> weight;
  double total = 0;
  for (int k = 0; k <= max_exp; ++k) total += weight.emplace_back(1.0 / (k + 1));
  constexpr double kMinRun = 300, kMaxRun = 4 * 3600;
  const double mean_run = (kMaxRun - kMinRun) / std::log(kMaxRun / kMinRun);  // log-uniform mean
  double mean_nodes = 0;
  for (int k = 0; k <= max_exp; ++k) mean_nodes += weight[k] / total * (1 << k);
  const double interarrival = mean_run * mean_nodes / (spec.load * spec.cluster_nodes);
  double clock = 0;
  for (int i = 0; i < spec.jobs; ++i) {
    WorkloadJob job;
    job.id = i + 1;
    clock += rng.exponential(interarrival);
    job.submit = static_cast<int64_t>(clock);
    double pick = rng.unit() * total;
    int k = 0;
    while (k < max_exp && pick >= weight[k]) pick -= weight[k++];
    job.nodes = 1 << k;
    job.run_time = static_cast<int64_t>(kMinRun * std::exp(rng.unit() * std::log(kMaxRun / kMinRun)));
    // Users ask for a round hour or two more than they use.
    job.time_limit = (job.run_time / 3600 + 1 + rng.between(0, 1)) * 3600;
    w.jobs.push_back(job);
  }
  return w;
}

}  // namespace slurmtopo
