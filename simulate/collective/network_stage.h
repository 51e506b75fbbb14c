// The flows of one collective between nodes — NIC to NIC over the routed cables — and,
// when jobs run next door, theirs on the same cables: one max-min problem. Each job is a
// coflow: its channels run at its slowest flow, so a job's faster flows are capped there and
// hand the rest of their cables back to the others (simulate/network/flow_sharing.h).
#pragma once

#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "simulate/collective/flow_problem.h"
#include "simulate/collective/hardware_profile.h"
#include "simulate/collective/placement.h"
#include "simulate/network/fabric_model.h"

namespace slurmtopo {

// The fabric's cable resource → this problem's: a dense array when the placement's flows
// could touch a good part of the fabric, else open addressing over a table sized to the
// flows (clearing an array the size of a large fabric costs more than the lookups save).
class CableIndex {
 public:
  // Keys are below `universe`; about `keys` of them will be asked for.
  void prepare(size_t universe, size_t keys) {
    if (universe <= 4 * keys) {
      dense_.assign(universe, -1);
      return;
    }
    size_t n = 64;
    while (n < 2 * keys) n <<= 1;
    slots_.assign(n, {-1, -1});
    shift_ = 64 - std::countr_zero(n);
    used_ = 0;
  }
  // The value for `key`, inserting `fresh` when absent; `inserted` says which.
  int get(int key, int fresh, bool& inserted) {
    if (!dense_.empty()) {
      int& v = dense_[key];
      inserted = v < 0;
      if (inserted) v = fresh;
      return v;
    }
    if (2 * (used_ + 1) > slots_.size()) grow();
    size_t i = hash(key);
    while (slots_[i].first >= 0) {
      if (slots_[i].first == key) {
        inserted = false;
        return slots_[i].second;
      }
      i = (i + 1) & (slots_.size() - 1);
    }
    slots_[i] = {key, fresh};
    ++used_;
    inserted = true;
    return fresh;
  }

 private:
  // Fibonacci hashing: the product's high bits, which depend on every bit of the key (cable
  // numbers of one placement often differ only in their high bits).
  size_t hash(int key) const { return static_cast<size_t>((static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ull) >> shift_); }
  void grow() {
    std::vector<std::pair<int, int>> old;
    old.swap(slots_);
    slots_.assign(old.empty() ? 64 : 4 * old.size(), {-1, -1});  // 4x: one placement often outgrows its guess twice
    shift_ = 64 - std::countr_zero(slots_.size());
    used_ = 0;
    bool ignored;
    for (const auto& [k, v] : old)
      if (k >= 0) get(k, v, ignored);
  }
  std::vector<int> dense_;
  std::vector<std::pair<int, int>> slots_;
  size_t used_ = 0;
  int shift_ = 58;  // 64 - log2(slots)
};

class NetworkStage {
 public:
  // `placement` (job 0) must outlive the stage, as must every job added.
  NetworkStage(const FabricModel& fabric, const Placement& placement, const HardwareProfile& h, int rails);
  NetworkStage(const NetworkStage&) = delete;
  NetworkStage& operator=(const NetworkStage&) = delete;

  void reserve(size_t flows);
  // A job next door on the same hardware: its NICs become resources; returns its number
  // for send().
  int add_job(const Placement& placement);
  // `count` channels of `job` send from its node a to its node b on `rail`. Routed at solve(),
  // all flows at once (Routing::route_many).
  void send(int a, int b, int rail, double count, int job = 0);

  // The placement's slowest channel and what holds it, sharing with the jobs next door.
  Solved solve();
  // The same flows alone on ideal cables: what NCCL expects (per channel).
  double free_rate() const { return free_rate_; }
  int flows() const { return static_cast<int>(p_.flows.size() + pending_.size()); }

 private:
  int host_resource(int job, int node, int rail, bool send) const {
    return host_base_[job] + (node * rails_ + rail) * 2 + (send ? 0 : 1);
  }

  struct Send {
    int a, b, rail, job;
    double count;
  };
  void flush();
  void add_flow(const Send& s, std::pair<int, int> hcas, RouteSet::Range paths);  // hcas: src, dst; paths in routes_

  const FabricModel& fabric_;
  int rails_;
  double pcie_gbs_ = 0, nic_gbs_ = 0;  // the profile's: a GPU's PCIe figure and one NIC's
  Problem p_;
  std::vector<const Placement*> jobs_;  // 0: the placement
  std::vector<int> host_base_;          // per job: its first NIC resource
  std::vector<int> cable_of_;           // per resource: the fabric's cable, -1 for a NIC
  std::vector<int> job_of_;             // per resource: the job of a NIC
  CableIndex local_of_;                 // fabric cable resource → this problem's
  std::vector<Send> pending_;           // sent, not yet routed
  RouteSet routes_;                     // the last batch's routes
  double free_rate_ = 0;
};

}  // namespace slurmtopo
