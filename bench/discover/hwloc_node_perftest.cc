// How long a cluster's node descriptions take to load: 1,000 hwloc exports (three node
// classes) in one --nodes-dir, as `slurmtopo collect` leaves them. The files are copies of
// the real Dell XE8640 export (4x H100, 8 NUMA nodes, 226 KB) written to a temp directory at
// bench time; two classes differ from it in NUMA memory size, and every copy gets its own
// HostName so no two files are byte-identical.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "discover/hwloc_node.h"
#include "discover/node_set.h"
#include "emit/gres_plan.h"

namespace {

namespace fs = std::filesystem;
using namespace slurmtopo;

constexpr int kExports = 1000;

// SLURMTOPO_BENCH_XML overrides the export.
fs::path source_path() {
  if (const char* env = std::getenv("SLURMTOPO_BENCH_XML")) return env;
  return fs::path(SLURMTOPO_SOURCE_DIR) / "../shared/nodes/flux-core/ipa20.xml";
}

std::string replaced_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
  return text;
}

struct NodeDir {
  fs::path dir;
  explicit NodeDir(const std::string& xml) {
    char tmpl[] = "/tmp/slurmtopo-bench-nodes-XXXXXX";
    dir = mkdtemp(tmpl);
    // Class B: 256 GiB less per socket quadrant; class C: 512 GiB less.
    const std::string classes[3] = {
        xml, replaced_all(xml, "local_memory=\"541157969920\"", "local_memory=\"266280062976\""),
        replaced_all(xml, "local_memory=\"541157969920\"", "local_memory=\"128841109504\"")};
    for (int i = 0; i < kExports; ++i) {
      char name[16];
      std::snprintf(name, sizeof name, "gpu%04d", i);
      // Node i of 1000: 700 of class A, 200 of B, 100 of C.
      const std::string& base = classes[i < 700 ? 0 : i < 900 ? 1 : 2];
      std::ofstream(dir / (std::string(name) + ".xml")) << replaced_all(base, "testhost-nvidia", name);
    }
  }
  ~NodeDir() { fs::remove_all(dir); }
};

std::string source_xml(benchmark::State& state) {
  std::ifstream in(source_path());
  if (!in) state.SkipWithError(("missing " + source_path().string()).c_str());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The whole `emit gres` / `emit nodes` path: 1,000 XML loads (on `threads` threads; 0 = all
// cores), path classes, links, signatures, classes, then gres.conf and the NodeName lines
// rendered, parsed back and checked as slurmd would.
void BM_LoadNodeSet1000(benchmark::State& state) {
  const std::string xml = source_xml(state);
  if (xml.empty()) return;
  const NodeDir nodes(xml);
  NodeSources src;
  src.nodes_dir = nodes.dir.string();
  src.threads = static_cast<unsigned>(state.range(0));
  size_t classes = 0;
  for (auto _ : state) {
    NodeSet set = load_node_set(src);
    classes = set.classes.size();
    GresPlan plan = plan_gres(set, GresRequest{SlurmRelease{}, "", "bench", ""});
    benchmark::DoNotOptimize(plan);
  }
  state.counters["classes"] = static_cast<double>(classes);
  state.SetItemsProcessed(state.iterations() * kExports);
}

// One export, parse to NodeInventory: the per-node cost.
void BM_LoadNodeXml(benchmark::State& state) {
  const std::string xml = source_xml(state);
  if (xml.empty()) return;
  const std::string one = "/tmp/slurmtopo-bench-node-" + std::to_string(getpid()) + ".xml";
  std::ofstream(one) << xml;
  for (auto _ : state) benchmark::DoNotOptimize(load_node_xml(one, "gpu0000"));
  fs::remove(one);
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_LoadNodeSet1000)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();
BENCHMARK(BM_LoadNodeXml)->Unit(benchmark::kMillisecond);
