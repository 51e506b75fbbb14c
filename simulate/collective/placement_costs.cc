#include "simulate/collective/placement_costs.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <thread>

#include "base/input_error.h"

namespace slurmtopo {

namespace {

std::string key_of(const std::vector<std::string>& hosts) {
  std::string k;
  for (const auto& h : hosts) k += h + ',';
  return k;
}

}  // namespace

PlacementCosts::PlacementCosts(const FabricModel& fabric, HardwareProfile profile, double bytes, const HostDomains* domains)
    : fabric_(fabric), profile_(std::move(profile)) {
  options_.sizes = {bytes};
  options_.nvlink_domains = domains;
}

std::vector<double> PlacementCosts::busbw(const std::vector<std::vector<std::string>>& placements, unsigned threads) {
  std::vector<double> out;
  for (const Cost& c : costs(placements, threads)) out.push_back(c.busbw);
  return out;
}

std::vector<PlacementCosts::Cost> PlacementCosts::costs(const std::vector<std::vector<std::string>>& placements,
                                                        unsigned threads) {
  std::vector<std::string> keys;
  std::vector<int> todo;  // first placement of each key not yet cached
  std::unordered_map<std::string, int> first;
  for (size_t i = 0; i < placements.size(); ++i) {
    keys.push_back(key_of(placements[i]));
    if (!cache_.count(keys.back()) && first.emplace(keys.back(), static_cast<int>(i)).second)
      todo.push_back(static_cast<int>(i));
  }
  std::vector<Cost> found(todo.size());
  std::atomic<size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto work = [&] {
    for (size_t k; (k = next.fetch_add(1)) < todo.size();) {
      try {
        const SizePrediction p = predict(fabric_, placements[todo[k]], profile_, options_).sizes.front();
        found[k].busbw = p.busbw_gbs;
        if (!p.bottlenecks.empty()) found[k].bottleneck = p.bottlenecks.front().resource;
      } catch (const InputError&) {
        found[k].busbw = std::numeric_limits<double>::quiet_NaN();
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
      }
    }
  };
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(todo.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  for (size_t k = 0; k < todo.size(); ++k) cache_[keys[todo[k]]] = found[k];
  std::vector<Cost> out;
  for (const auto& k : keys) out.push_back(cache_.at(k));
  return out;
}

}  // namespace slurmtopo
