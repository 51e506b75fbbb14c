// `slurmtopo simulate`: what a placement costs a collective, per message size, and what
// limits it; `--compare` puts two placements side by side. Parses, calls
// simulate/collective/prediction.h, prints.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "base/base.h"
#include "cli/commands.h"
#include "discover/discover.h"
#include "graph/graph.h"
#include "simulate/collective/collective.h"
#include "simulate/network/network.h"
#include "slurm/slurm.h"

namespace slurmtopo::cli {

namespace {

struct Options {
  ClusterInputs inputs;
  std::string nodes_dir;
  std::string profile;
  std::string nodes;
  std::string compare;
  std::string sizes = "1K,1M,16M,256M,1G,8G";
  std::string algo = "auto";
  std::string collective = "allreduce";
  std::string routing = "minhop";
  std::string lft;
  bool json = false;
};

std::string fixed(double x, int decimals) {
  if (!std::isfinite(x)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, x);
  return buf;
}

double rounded(double x) { return std::isfinite(x) ? std::round(x * 1000) / 1000 : 0; }

// The speed the fabric shows for a host's first HCA cable (profiles derived from node data
// take the NIC speed from the fabric, which hwloc does not know).
LinkSpeed fabric_nic_speed(const Cluster& cluster, const std::string& host) {
  const int h = cluster.host_index(host);
  if (h < 0 || cluster.hosts[h].hcas.empty()) return LinkSpeed::Unknown;
  const Hca& hca = cluster.hcas[cluster.hosts[h].hcas.front()];
  for (const Link& l : cluster.fabrics[hca.fabric].links)
    if (l.a.guid == hca.guid || l.b.guid == hca.guid) return l.speed;
  return LinkSpeed::Unknown;
}

// --nodes-dir: the profile of the first host's hardware, and every host's GPU → HCA layout.
struct NodeData {
  HardwareProfile profile;
  GpuNics gpu_nics;
  std::vector<std::string> warnings;
};

NodeData node_data(const Options& o, const Cluster& cluster, const std::vector<std::string>& hosts) {
  NodeSources sources;
  sources.nodes_dir = o.nodes_dir;
  sources.expected_hosts = hosts;
  const NodeSet set = load_node_set(sources);
  NodeData d;
  d.profile = profile_for_node(set.nodes.front(), fabric_nic_speed(cluster, set.nodes.front().hostname));
  if (set.classes.size() > 1)
    d.warnings.push_back("the hosts differ in hardware (" + std::to_string(set.classes.size()) +
                         " node classes); simulating them all as " + set.nodes.front().hostname);
  const NodeJoin join = join_nodes(set, &cluster);
  for (const HostJoin& hj : join.hosts) {
    d.gpu_nics.hosts.push_back(set.nodes[hj.node].hostname);
    std::vector<int> per_gpu;
    for (const GpuPath& g : hj.gpus) per_gpu.push_back(g.hca);
    d.gpu_nics.gpu_hca.push_back(std::move(per_gpu));
  }
  return d;
}

// The hosts as a hostlist that keeps their order (rank order matters to a ring): sorted
// stretches compress as Slurm does, and a host out of order starts a new stretch.
std::string ordered_hostlist(const std::vector<std::string>& hosts) {
  std::string out;
  std::vector<std::string> run;
  auto flush = [&] {
    if (run.empty()) return;
    out += (out.empty() ? "" : ",") + compress_hostlist(run);
    run.clear();
  };
  for (const std::string& h : hosts) {
    if (!run.empty() && !natural_less(run.back(), h)) flush();
    run.push_back(h);
  }
  flush();
  return out;
}

std::string limit_of(const SizePrediction& s) {
  if (s.latency_bound) return "latency";
  if (s.bottlenecks.empty()) return "-";
  const Bottleneck& b = s.bottlenecks.front();
  return b.resource + " (" + fixed(b.oversubscription, 2) + "x)";
}

std::string choice_of(Algorithm a, Protocol p) { return std::string(to_string(a)) + "/" + to_string(p); }

void print_header(std::ostream& out, const Prediction& p, const HardwareProfile& profile) {
  out << to_string(p.collective) << " on " << ordered_hostlist(p.hosts) << ": " << p.nodes << " node"
      << (p.nodes == 1 ? "" : "s") << " x " << profile.gpus_per_node << " GPUs = " << p.ranks << " ranks, "
      << p.channels << " channels over " << p.rails << " rail" << (p.rails == 1 ? "" : "s") << "\n";
}

void print_table(std::ostream& out, const Prediction& p, const HardwareProfile& profile) {
  out << "profile " << p.profile << " (" << profile.description << "), routing " << p.routing << "\n";
  print_header(out, p, profile);
  char line[512];
  std::snprintf(line, sizeof line, "%10s  %-16s %12s %11s %11s %11s  %s\n", "size", "algorithm", "time (us)",
                "algbw GB/s", "busbw GB/s", "ideal busbw", "limited by");
  out << line;
  for (const SizePrediction& s : p.sizes) {
    std::snprintf(line, sizeof line, "%10s  %-16s %12s %11s %11s %11s  %s\n", format_size(s.bytes).c_str(),
                  choice_of(s.algorithm, s.protocol).c_str(), fixed(s.time_us, 1).c_str(),
                  fixed(s.algbw_gbs, 2).c_str(), fixed(s.busbw_gbs, 2).c_str(), fixed(s.ideal_busbw_gbs, 2).c_str(),
                  limit_of(s).c_str());
    out << line;
  }
  for (const SizePrediction& s : p.sizes)
    if (s.better)
      out << "note: at " << format_size(s.bytes) << ", " << choice_of(s.better->algorithm, s.better->protocol)
          << " would take " << fixed(s.better->time_us, 1) << " us on this fabric (NCCL_ALGO="
          << to_string(s.better->algorithm) << ")\n";
  for (const std::string& w : p.warnings) out << "warning: " << w << "\n";
}

void print_compare(std::ostream& out, const Prediction& a, const Prediction& b, const HardwareProfile& profile) {
  out << "profile " << a.profile << " (" << profile.description << "), routing " << a.routing << "\n";
  out << "A: ";
  print_header(out, a, profile);
  out << "B: ";
  print_header(out, b, profile);
  char line[512];
  std::snprintf(line, sizeof line, "%10s  %-16s %12s %11s  %-16s %12s %11s %8s\n", "size", "A algorithm",
                "A time (us)", "A busbw", "B algorithm", "B time (us)", "B busbw", "B/A");
  out << line;
  for (size_t i = 0; i < a.sizes.size(); ++i) {
    const SizePrediction &x = a.sizes[i], &y = b.sizes[i];
    std::snprintf(line, sizeof line, "%10s  %-16s %12s %11s  %-16s %12s %11s %8s\n", format_size(x.bytes).c_str(),
                  choice_of(x.algorithm, x.protocol).c_str(), fixed(x.time_us, 1).c_str(),
                  fixed(x.busbw_gbs, 2).c_str(), choice_of(y.algorithm, y.protocol).c_str(),
                  fixed(y.time_us, 1).c_str(), fixed(y.busbw_gbs, 2).c_str(),
                  x.busbw_gbs > 0 ? fixed(y.busbw_gbs / x.busbw_gbs, 3).c_str() : "-");
    out << line;
  }
  if (!a.sizes.empty())
    for (const auto* p : {&a, &b})
      out << (p == &a ? "A" : "B") << " at " << format_size(p->sizes.back().bytes) << " limited by "
          << limit_of(p->sizes.back()) << "\n";
  for (const auto* p : {&a, &b})
    for (const std::string& w : p->warnings) out << "warning: " << (p == &a ? "A: " : "B: ") << w << "\n";
}

nlohmann::ordered_json to_json(const Prediction& p) {
  nlohmann::ordered_json j;
  j["nodes"] = ordered_hostlist(p.hosts);
  j["hosts"] = p.hosts;
  j["node_count"] = p.nodes;
  j["ranks"] = p.ranks;
  j["channels"] = p.channels;
  j["rails"] = p.rails;
  j["sizes"] = nlohmann::ordered_json::array();
  for (const SizePrediction& s : p.sizes) {
    nlohmann::ordered_json e;
    e["bytes"] = static_cast<uint64_t>(s.bytes);
    e["algorithm"] = to_string(s.algorithm);
    e["protocol"] = to_string(s.protocol);
    e["time_us"] = rounded(s.time_us);
    e["algbw_gbs"] = rounded(s.algbw_gbs);
    e["busbw_gbs"] = rounded(s.busbw_gbs);
    e["ideal_busbw_gbs"] = rounded(s.ideal_busbw_gbs);
    e["latency_bound"] = s.latency_bound;
    e["terms_us"] = {{"launch", rounded(s.terms.launch)}, {"latency", rounded(s.terms.latency)},
                     {"transfer", rounded(s.terms.transfer)}, {"sync", rounded(s.terms.sync)},
                     {"fill", rounded(s.terms.fill)}};
    e["bottlenecks"] = nlohmann::ordered_json::array();
    for (const Bottleneck& b : s.bottlenecks)
      e["bottlenecks"].push_back({{"resource", b.resource},
                                  {"capacity_gbs", rounded(b.capacity_gbs)},
                                  {"load_gbs", rounded(b.load_gbs)},
                                  {"offered_gbs", rounded(b.offered_gbs)},
                                  {"oversubscription", rounded(b.oversubscription)},
                                  {"flows", rounded(b.flows)}});
    e["bottlenecks_total"] = s.bottleneck_count;
    if (s.better)
      e["better"] = {{"algorithm", to_string(s.better->algorithm)},
                     {"protocol", to_string(s.better->protocol)},
                     {"time_us", rounded(s.better->time_us)}};
    j["sizes"].push_back(std::move(e));
  }
  j["warnings"] = p.warnings;
  return j;
}

void run(const Options& o) {
  if (o.profile.empty() == o.nodes_dir.empty())
    throw InputError("simulate", 0, "expected either --profile (a shipped name or a YAML file) or --nodes-dir");
  const std::vector<double> sizes = parse_sizes(o.sizes);
  SimulateOptions options;
  options.sizes = sizes;
  options.collective = parse_collective(o.collective);
  if (o.algo != "auto") options.algorithm = parse_algorithm(o.algo);
  options.routing = parse_routing_kind(o.routing);
  const std::vector<std::string> hosts = expand_hostlist_at(o.nodes, "--nodes");
  const std::vector<std::string> other = o.compare.empty() ? std::vector<std::string>{} : expand_hostlist_at(o.compare, "--compare");

  if (!o.lft.empty() && options.routing != RoutingKind::Lft)
    throw InputError("--lft", 0, "expected --routing lft with forwarding tables to walk");
  Cluster cluster = load_cluster(o.inputs);
  std::unique_ptr<Routing> routing;
  if (options.routing == RoutingKind::Lft && !o.lft.empty())
    routing = make_lft_routing(cluster, read_forwarding_tables_file(o.lft));
  else
    routing = make_routing(cluster, options.routing);
  const FabricModel fabric(cluster, std::move(routing));

  HardwareProfile profile;
  NodeData nodes;
  if (!o.profile.empty()) {
    profile = load_profile(o.profile);
  } else {
    std::vector<std::string> all = hosts;
    all.insert(all.end(), other.begin(), other.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    nodes = node_data(o, cluster, all);
    profile = nodes.profile;
    options.gpu_nics = &nodes.gpu_nics;
  }

  Prediction a = predict(fabric, hosts, profile, options);
  a.warnings.insert(a.warnings.end(), nodes.warnings.begin(), nodes.warnings.end());
  std::optional<Prediction> b;
  if (!other.empty()) b = predict(fabric, other, profile, options);

  if (o.json) {
    nlohmann::ordered_json j;
    j["collective"] = to_string(options.collective);
    j["profile"] = profile.name;
    j["routing"] = a.routing;
    j["placements"] = nlohmann::ordered_json::array({to_json(a)});
    if (b) j["placements"].push_back(to_json(*b));
    std::cout << j.dump(2) << "\n";
  } else if (b) {
    print_compare(std::cout, a, *b, profile);
  } else {
    print_table(std::cout, a, profile);
  }
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "simulate", "Collective time and bus bandwidth of a placement on this fabric, with its routing");
  add_cluster_options(*cmd, o->inputs);
  auto* profile = cmd->add_option("--profile", o->profile,
                                  "hardware profile: a shipped name (" + [] {
                                    std::string names;
                                    for (const auto& n : builtin_profile_names()) names += (names.empty() ? "" : ", ") + n;
                                    return names;
                                  }() + ") or a YAML file");
  auto* dir = cmd->add_option("--nodes-dir", o->nodes_dir,
                              "node descriptions (<host>.xml hwloc exports or <host>.json): the profile follows the hardware")
                  ->check(CLI::ExistingDirectory);
  profile->excludes(dir);
  cmd->add_option("--nodes", o->nodes, "the placement: a Slurm hostlist, in rank order")->required();
  cmd->add_option("--compare", o->compare, "a second placement to put side by side");
  cmd->add_option("--sizes", o->sizes, "message sizes (nccl-tests' size), K/M/G = 2^10/2^20/2^30")
      ->capture_default_str();
  cmd->add_option("--algo", o->algo, "auto (as NCCL chooses), ring, tree, nvls or nvlstree")->capture_default_str();
  cmd->add_option("--collective", o->collective, "allreduce, reducescatter, allgather or broadcast")
      ->capture_default_str();
  cmd->add_option("--routing", o->routing,
                  "lft (tables from --lft or a snapshot of `discover fabric --routes`), minhop (D-mod-K), ftree or adaptive")
      ->capture_default_str();
  cmd->add_option("--lft", o->lft, "forwarding tables (dump_fts / ibroute output) for --routing lft")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--json", o->json, "machine-readable output, with every bottleneck");
  cmd->callback([o] { run(*o); });
}

}  // namespace slurmtopo::cli
