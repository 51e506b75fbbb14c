// The floor: `slurmtopo report` for the generated 3-level fat tree of 65,536 hosts
// (k = 64, as `slurmtopo generate fattree --levels 3 --radix 64` makes it) in under 10 s with
// an HTML page under 20 MB. The fabric is written once as ibnetdiscover text to a temp file,
// then each iteration is what the command does: read and model the fabric, plan topology.conf,
// the drawing, link health and (with a profile) the predictions, and render the page and the
// JSON. CPU time is the whole process's (every thread); on a shared machine read it, not the wall
// time. Counters: html_MB, json_MB, hosts.
// BM_Report100000 is issue 15's scale floor (10 s, 4 GB): 100,000 hosts on split-port NDR
// switches, peak_rss_MB the whole process's.
//   slurmtopo_bench --benchmark_filter=Report
#include <benchmark/benchmark.h>


#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "bench/memory.h"
#include "discover/ibnetdiscover_writer.h"
#include "discover/synthetic_fabric.h"
#include "report/commission.h"

namespace {

using namespace slurmtopo;


std::string fabric_file(const FatTreeSpec& spec, const char* name) {
  const std::string p = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream out(p);
  write_ibnetdiscover_text(generate_fattree(spec), out);
  return p;
}

const std::string& k64_file() {
  static const std::string path = [] {
    FatTreeSpec spec;
    spec.levels = 3;
    spec.radix = 64;  // full tree: 65,536 hosts, 5,120 switches
    return fabric_file(spec, "slurmtopo_bench_report_k64.topo");
  }();
  return path;
}

// Issue 15's scale: 100,000 hosts, on NDR switches with split 2x ports (radix 128).
const std::string& hosts100k_file() {
  static const std::string path = [] {
    FatTreeSpec spec;
    spec.levels = 3;
    spec.radix = 128;
    spec.width = 2;
    spec.hosts = 100000;
    return fabric_file(spec, "slurmtopo_bench_report_100k.topo");
  }();
  return path;
}

// Peak resident memory of the whole bench process so far (it includes generating the fabric).
void run(benchmark::State& state, const std::string& profile, const std::string& fabric = k64_file()) {
  CommissionRequest request;
  request.inputs.fabric_files = {fabric};
  request.profile = profile;
  size_t html = 0, json = 0, hosts = 0;
  for (auto _ : state) {
    const CommissionReport r = plan_commission(request);
    const std::string page = commission_html(r), j = commission_json(r);
    html = page.size();
    json = j.size();
    hosts = r.hosts.size();
    benchmark::DoNotOptimize(page);
  }
  state.counters["html_MB"] = static_cast<double>(html) / kMiB;
  state.counters["json_MB"] = static_cast<double>(json) / kMiB;
  state.counters["hosts"] = static_cast<double>(hosts);
  state.counters["peak_rss_MB"] = peak_rss_mb();
}

// The fabric alone: inventory, drawing, link health, topology.conf, checks.
void BM_Report65536(benchmark::State& state) { run(state, ""); }
// And the performance section: predict() over one node, one leaf and all 65,536 hosts.
void BM_Report65536WithProfile(benchmark::State& state) { run(state, "h100-ndr"); }

// 100,000 hosts end to end: text → model → checked topology.conf and the report (HTML + JSON).
void BM_Report100000(benchmark::State& state) { run(state, "", hosts100k_file()); }

BENCHMARK(BM_Report65536)->Unit(benchmark::kMillisecond)->Iterations(1)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_Report65536WithProfile)->Unit(benchmark::kMillisecond)->Iterations(1)->MeasureProcessCPUTime()->UseRealTime();

}  // namespace
BENCHMARK(BM_Report100000)->Unit(benchmark::kMillisecond)->Iterations(1)->MeasureProcessCPUTime()->UseRealTime();
