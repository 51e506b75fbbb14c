// Random numbers that are the same for a seed on every platform: std::mt19937_64's output is
// fixed by the standard, but std::uniform_int_distribution and friends are not, so what-if
// samples, random placements and synthetic workloads draw through these instead.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace slurmtopo {

class SeededRandom {
 public:
  explicit SeededRandom(uint64_t seed) : engine_(seed) {}

  // Uniform in [0, 1), 53 bits.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  // Uniform in [lo, hi], by rejection so that no value is favoured.
  int64_t between(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    if (span == 0) return static_cast<int64_t>(engine_());
    const uint64_t limit = UINT64_MAX - UINT64_MAX % span;
    uint64_t x;
    do x = engine_();
    while (x >= limit);
    return lo + static_cast<int64_t>(x % span);
  }
  // Exponential with the given mean.
  double exponential(double mean) { return -mean * std::log1p(-unit()); }
  // Fisher-Yates over the whole vector.
  template <class T>
  void shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[static_cast<size_t>(between(0, static_cast<int64_t>(i) - 1))]);
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace slurmtopo
