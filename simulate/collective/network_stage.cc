#include "simulate/collective/network_stage.h"

#include <algorithm>
#include <limits>

#include "base/input_error.h"

namespace slurmtopo {

namespace {

// Coflow rounds: after the first sharing every job's flows are capped at its slowest
// channel's rate and shared again; two rounds settle what the caps hand back.
constexpr int kCoflowRounds = 2;

}  // namespace

NetworkStage::NetworkStage(const FabricModel& fabric, const Placement& placement, const HardwareProfile& h, int rails)
    : fabric_(fabric), rails_(rails) {
  // The PCIe path between GPU and NIC and the NIC itself carry the same flows: one
  // resource each way, as fast as the slower of the two, named after it.
  pcie_gbs_ = h.pcie_gbs();
  nic_gbs_ = h.nic_gbs;
  add_job(placement);
  p_.name = [this](int r) -> std::string {
    if (cable_of_[r] >= 0) return fabric_.cable_name(cable_of_[r]);
    const int job = job_of_[r];
    const int i = r - host_base_[job];
    const int node = i / 2 / rails_, rail = i / 2 % rails_;
    const Hca& hca = fabric_.cluster().hcas[jobs_[job]->rails[node][rail]];
    const bool send = i % 2 == 0;
    return hca.host + " " + hca.rail +
           (p_.capacity[r] < nic_gbs_ ? (send ? " PCIe GPU->NIC" : " PCIe NIC->GPU") : (send ? " NIC tx" : " NIC rx"));
  };
}

int NetworkStage::add_job(const Placement& placement) {
  flush();  // the earlier jobs' cables come before this one's NICs, as when routed one by one
  const int job = static_cast<int>(jobs_.size());
  jobs_.push_back(&placement);
  host_base_.push_back(static_cast<int>(p_.capacity.size()));
  const size_t nics = placement.hosts.size() * rails_;
  for (size_t i = 0; i < 2 * nics; ++i) {
    // A rail whose GPU or NIC trained low on PCIe (node probes) keeps that share of it.
    const size_t node = i / 2 / rails_, rail = i / 2 % rails_;
    const double share = placement.limits.empty() ? 1.0 : placement.limits[node][rail].share;
    // even: send GPU → NIC → cable; odd: receive. Below the NIC's figure, PCIe is what holds it.
    p_.capacity.push_back(std::min(pcie_gbs_ * share, nic_gbs_));
    cable_of_.push_back(-1);
    job_of_.push_back(job);
  }
  return job;
}

void NetworkStage::reserve(size_t flows) {
  p_.flows.reserve(flows, flows * 8);
  p_.count.reserve(flows);
  // A flow crosses about two cables no other flow of the placement crossed before. When
  // that is a good part of a small fabric, its cables are indexed densely, else sparsely.
  local_of_.prepare(fabric_.cable_count(), flows * 2);
  p_.capacity.reserve(p_.capacity.size() + std::min(fabric_.cable_count(), flows * 2));
}

void NetworkStage::send(int a, int b, int rail, double count, int job) { pending_.push_back({a, b, rail, job, count}); }

void NetworkStage::add_flow(const Send& s, std::pair<int, int> hcas, RouteSet::Range paths) {
  const int a = s.a, b = s.b, rail = s.rail, job = s.job;
  const double count = s.count;
  if (paths.count == 0) {
    const auto [src, dst] = hcas;
    const Cluster& c = fabric_.cluster();
    throw InputError(job == 0 ? "--nodes" : "--busy-jobs", 0,
                     "expected every NIC of the placement to reach the others; " + c.hcas[src].host + " " +
                         c.hcas[src].rail + " cannot reach " + c.hcas[dst].host + " " + c.hcas[dst].rail +
                         " through the fabric");
  }
  // Weights are the share of the flow on each resource: none (all 1) for one path.
  const bool split = paths.count > 1;
  const RouteSet::Path* first = routes_.paths.data() + paths.first;
  const RouteSet::Path* last = first + paths.count;
  FlowSet& set = p_.flows;
  if (split) set.make_weighted();
  const bool weighted = set.weighted;
  set.resources.push_back(host_resource(job, a, rail, true));
  set.resources.push_back(host_resource(job, b, rail, false));
  if (weighted) set.weights.insert(set.weights.end(), {1.0, 1.0});
  for (const RouteSet::Path* p = first; p != last; ++p)
    for (const DirectedLink* d = routes_.begin(*p); d != routes_.end(*p); ++d) {
      const int global = fabric_.cables().index(*d);
      bool inserted;
      const int local = local_of_.get(global, static_cast<int>(cable_of_.size()), inserted);
      if (inserted) {  // its capacity comes at the end of the batch (flush)
        cable_of_.push_back(global);
        job_of_.push_back(-1);
      }
      set.resources.push_back(local);
      if (weighted) set.weights.push_back(split ? p->share : 1.0);
    }
  if (split) set.merge_open();  // adaptive: a link on several paths
  set.close();
  p_.count.push_back(count);
  if (jobs_.size() > 1 || job > 0) {
    p_.job.resize(p_.flows.size() - 1, 0);
    p_.job.push_back(job);
  }
}

// Routes what was sent since the last flush, in one batch, and adds the flows in the order
// sent (resources are numbered in first-touch order, which the solution's ties follow).
void NetworkStage::flush() {
  if (pending_.empty()) return;
  std::vector<std::pair<int, int>> ends(pending_.size());
  for (size_t i = 0; i < pending_.size(); ++i) {
    const Send& s = pending_[i];
    const Placement& pl = *jobs_[s.job];
    ends[i] = {pl.rails[s.a][s.rail], pl.rails[s.b][s.rail]};
  }
  fabric_.routing().route_many(ends.data(), ends.size(), routes_);
  for (size_t i = 0; i < pending_.size(); ++i) add_flow(pending_[i], ends[i], routes_.flows[i]);
  pending_.clear();
  // The new cables' capacities in one pass: each is a cache miss on a large fabric, and here
  // they overlap instead of stalling the numbering.
  for (size_t r = p_.capacity.size(); r < cable_of_.size(); ++r) p_.capacity.push_back(fabric_.capacity(cable_of_[r]));
}

Solved NetworkStage::solve() {
  flush();
  // Flows standing for equally many channels share as single flows do; otherwise the
  // channel counts go into the weights.
  p_.per_flow = std::all_of(p_.count.begin(), p_.count.end(), [&](double c) { return c == p_.count.front(); });
  FlowSet& set = p_.flows;
  if (!p_.per_flow) {
    set.make_weighted();
    for (size_t i = 0; i < set.size(); ++i)
      for (int k = set.begin(i); k < set.end(i); ++k) set.weights[k] *= p_.count[i];
  }
  if (!p_.job.empty()) p_.job.resize(p_.flows.size(), 0);
  // Alone, only the slowest flows and what holds them are reported (solve_problem): filling
  // stops past them, with room to spare over kSlowestTie for the rounding of per-channel rates.
  Sharing fabric = jobs_.size() > 1 ? max_min_fair(p_.capacity, p_.flows)
                                    : max_min_fair_slowest(p_.capacity, p_.flows, 4 * kSlowestTie);
  if (jobs_.size() > 1) {
    // A capped flow freezes at its cap; what holds it is what held it before the caps.
    const std::vector<int> held = fabric.bottleneck;
    for (int round = 0; round < kCoflowRounds; ++round) {
      std::vector<double> slowest(jobs_.size(), kInf);  // per channel
      for (size_t f = 0; f < p_.flows.size(); ++f)
        slowest[p_.job[f]] = std::min(slowest[p_.job[f]], fabric.rate[f] / p_.channels(f));
      for (size_t f = 0; f < p_.flows.size(); ++f) set.demand[f] = slowest[p_.job[f]] * p_.channels(f);
      fabric = max_min_fair(p_.capacity, p_.flows);
    }
    for (size_t f = 0; f < p_.flows.size(); ++f)
      if (fabric.bottleneck[f] < 0) fabric.bottleneck[f] = held[f];
  }
  // What NCCL expects: the placement's flows alone with every cable ideal. Only its slowest
  // flow matters, and in a max-min fair sharing that one runs at the first level the water
  // fills to: the least capacity / weight over the resources, here its NICs alone.
  const int own = static_cast<int>(2 * jobs_[0]->hosts.size() * rails_);  // job 0's NICs come first
  std::vector<double> weight(own, 0.0);
  for (size_t f = 0; f < p_.flows.size(); ++f) {
    if (!p_.mine(f)) continue;
    for (int i = set.begin(f); i < set.begin(f) + 2; ++i) weight[set.resources[i]] += set.weight(i);
  }
  double level = kInf;  // per flow as solved
  for (int r = 0; r < own; ++r)
    if (weight[r] > 0) level = std::min(level, p_.capacity[r] / weight[r]);
  free_rate_ = kInf;
  for (size_t f = 0; f < p_.flows.size(); ++f)
    if (p_.mine(f)) free_rate_ = std::min(free_rate_, level / p_.channels(f));
  // Offered load: the placement at NCCL's rate, the neighbours at what they carry.
  std::vector<double> expected(p_.flows.size());
  for (size_t f = 0; f < p_.flows.size(); ++f) expected[f] = p_.mine(f) ? free_rate_ * p_.channels(f) : fabric.rate[f];
  return solve_problem(p_, fabric, expected);
}

}  // namespace slurmtopo
