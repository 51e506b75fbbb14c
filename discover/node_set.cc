// Loading is the slow part (an hwloc XML parse is milliseconds; a cluster has thousands), so
// files load on a few threads — each hwloc topology is independent — into fixed slots, and
// the first error in host order is the one reported, whatever the thread timing.
#include "discover/node_set.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <variant>

#include "base/files.h"
#include "base/input_error.h"
#include "base/text.h"
#include "discover/hwloc_node.h"
#include "discover/node_json.h"
#include "slurm/hostlist.h"
#include "slurm/node_names.h"

namespace slurmtopo {
namespace {

namespace fs = std::filesystem;

struct Job {
  std::string host;
  std::string path;
  std::string described_by;  // for "described twice" errors
};

void add_job(std::map<std::string, Job>& jobs, Job job) {
  const auto [it, added] = jobs.emplace(job.host, job);
  if (!added)
    throw InputError(job.described_by, 0,
                     "host " + job.host + " is described twice: by " + it->second.described_by +
                         " and by " + job.described_by + "; keep one");
}

// Other tools' XML kept beside the hwloc exports (a node's folder as collected by hand holds
// `nvidia-smi -q -x` too; NCCL topology files, `<system version="1">`, sit in the same
// folders): their root element says so in the first lines.
const char* foreign_xml(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (head.find("<nvidia_smi_log") != std::string::npos) return "nvidia-smi -q -x output";
  if (head.find("<system version") != std::string::npos) return "an NCCL topology file (NCCL_TOPO_FILE)";
  return nullptr;
}

// <host>.probe and <host>.container.probe beside the export, where collect wrote them.
void attach_probes(const std::string& dir, NodeInventory& n) {
  auto read = [&](const std::string& name) -> std::optional<NodeProbe> {
    const fs::path path = fs::path(dir) / name;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    return parse_node_probe(read_file(path.string()), path.string());
  };
  n.probe = read(n.hostname + ".probe");
  n.container_probe = read(n.hostname + ".container.probe");
}

void jobs_from_dir(const std::string& dir, std::map<std::string, Job>& jobs, std::vector<std::string>& warnings) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) throw InputError(dir, 0, "cannot read the --nodes-dir directory: " + ec.message());
  std::vector<fs::path> files;
  for (const auto& entry : it)
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  int ignored = 0, nvlink_files = 0, probe_files = 0;
  for (const fs::path& p : files) {
    const std::string ext = p.extension().string();
    if (p.filename().string().ends_with(".fabric.csv")) {
      ++nvlink_files;  // collect's NVLink domain file of a node, read by --nvlink-domains
      continue;
    }
    if (ext == ".probe") {
      ++probe_files;  // collect's node probe record, attached to its host's export below
      continue;
    }
    if (ext != ".xml" && ext != ".json") {
      ++ignored;  // collect's logs, editor backups, interrupted `*.xml.tmp.*`
      continue;
    }
    if (const char* what = ext == ".xml" ? foreign_xml(p) : nullptr) {
      ++ignored;
      warnings.push_back(p.string() + ": " + what + ", not an hwloc export: ignored");
      continue;
    }
    const std::string host = p.stem().string();
    if (!valid_slurm_node_name(host))
      throw InputError(p.string(), 0,
                       "expected <hostname>.xml or <hostname>.json; \"" + host + "\" is not a Slurm node name");
    add_job(jobs, {host, p.string(), p.string()});
  }
  if (ignored)
    warnings.push_back(dir + ": " + std::to_string(ignored) + " file(s) without .xml/.json ignored");
  if (files.size() == static_cast<size_t>(ignored + nvlink_files + probe_files))
    throw InputError(dir, 0,
                     std::string("no node files in the --nodes-dir directory") +
                         (nvlink_files ? " (only NVLink domain files, HOST.fabric.csv, which --nvlink-domains reads)" : "") +
                         ": expected <hostname>.xml (`lstopo --of xml`) "
                         "or <hostname>.json (`slurmtopo discover node`); `slurmtopo collect` gathers them");
}

void jobs_from_class(const std::string& spec, std::map<std::string, Job>& jobs) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw InputError("--node-class", 0, "expected 'HOSTLIST=FILE', e.g. 'gpu[001-064]=dgx.xml', not '" + spec + "'");
  const std::string list = spec.substr(0, eq), file = spec.substr(eq + 1);
  const std::vector<std::string> hosts = expand_hostlist_at(list, "--node-class", 0, "'" + list + "' is not a hostlist");
  for (const std::string& h : hosts) {
    if (!valid_slurm_node_name(h)) throw InputError("--node-class", 0, "\"" + h + "\" is not a Slurm node name");
    add_job(jobs, {h, file, "--node-class " + spec});
  }
}

// Each distinct file once (a node class names one file for many hosts). hwloc exports load
// in at most `threads` child processes (libhwloc crashes on some damaged ones: the crash is
// that file's error), node JSON files on `threads` threads once those children are gone:
// forking while other threads run can leave a child stuck on a lock one of them held.
std::map<std::string, NodeInventory> load_files(const std::vector<Job>& jobs, unsigned threads) {
  std::vector<std::string> paths;
  for (const Job& j : jobs)
    if (std::find(paths.begin(), paths.end(), j.path) == paths.end()) paths.push_back(j.path);
  std::vector<NodeInventory> loaded(paths.size());
  std::vector<std::exception_ptr> errors(paths.size());
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::string> xml;
  std::vector<size_t> xml_at, not_xml;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (fs::path(paths[i]).extension() == ".xml") {
      xml.push_back(paths[i]);
      xml_at.push_back(i);
    } else {
      not_xml.push_back(i);
    }
  }
  std::vector<std::variant<NodeInventory, InputError>> xml_nodes = load_node_xmls(xml, threads);
  for (size_t k = 0; k < xml.size(); ++k) {
    if (auto* n = std::get_if<NodeInventory>(&xml_nodes[k])) loaded[xml_at[k]] = std::move(*n);
    else errors[xml_at[k]] = std::make_exception_ptr(std::get<InputError>(xml_nodes[k]));
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k; (k = next.fetch_add(1)) < not_xml.size();) {
      try {
        loaded[not_xml[k]] = load_node_file(paths[not_xml[k]], "");
      } catch (...) {
        errors[not_xml[k]] = std::current_exception();
      }
    }
  };
  threads = static_cast<unsigned>(std::min<size_t>(threads, not_xml.size()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  // Every bad file is named at once: an admin fixing a cluster's exports should not meet
  // them one run at a time.
  std::vector<std::pair<std::string, int>> bad_at;
  std::string others;
  std::map<std::string, NodeInventory> by_path;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (!errors[i]) {
      by_path.emplace(paths[i], std::move(loaded[i]));
      continue;
    }
    try {
      std::rethrow_exception(errors[i]);
    } catch (const InputError& e) {
      if (bad_at.empty()) others = e.what();
      else others += std::string("\n") + e.what();
      bad_at.push_back({e.file(), e.line()});
    }
  }
  if (bad_at.size() == 1) std::rethrow_exception(*std::find_if(errors.begin(), errors.end(), [](auto& e) { return e != nullptr; }));
  if (!bad_at.empty())
    throw InputError(bad_at.front().first, bad_at.front().second,
                     counted(bad_at.size(), "node file", "node files") + " cannot be used:\n" + others);
  return by_path;
}

// "gpu[001-064]: <warning>" for every distinct warning text.
std::vector<std::string> merged_warnings(const std::vector<NodeInventory>& nodes) {
  std::vector<std::pair<std::string, std::vector<std::string>>> by_text;
  for (const NodeInventory& n : nodes)
    for (const std::string& w : n.warnings) {
      auto it = std::find_if(by_text.begin(), by_text.end(), [&](const auto& e) { return e.first == w; });
      if (it == by_text.end()) by_text.push_back({w, {n.hostname}});
      else it->second.push_back(n.hostname);
    }
  std::vector<std::string> out;
  for (auto& [text, hosts] : by_text) out.push_back(compress_hostlist(hosts) + ": " + text);
  return out;
}

}  // namespace

NodeInventory load_node_file(const std::string& path, const std::string& hostname) {
  const std::string ext = fs::path(path).extension().string();
  NodeInventory n;
  if (ext == ".json") {
    n = load_node_json(path);
  } else if (ext == ".xml") {
    n = load_node_xml(path, hostname);
  } else {
    throw InputError(path, 0, "expected an hwloc export (.xml) or a slurmtopo node file (.json)");
  }
  if (!hostname.empty()) n.hostname = hostname;
  return n;
}

std::vector<NodeClass> group_node_classes(const std::vector<NodeInventory>& nodes) {
  std::vector<size_t> order(nodes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return natural_less(nodes[a].hostname, nodes[b].hostname); });
  std::vector<NodeClass> classes;
  std::map<std::string, size_t> by_signature;
  for (size_t i : order) {
    const std::string sig = nodes[i].hardware_signature();
    auto [it, added] = by_signature.emplace(sig, classes.size());
    if (added) classes.push_back({sig, {}, "", i});
    classes[it->second].hosts.push_back(nodes[i].hostname);
  }
  for (NodeClass& c : classes) c.hostlist = compress_hostlist(c.hosts);
  return classes;
}

NodeSet load_node_set(const NodeSources& sources) {
  NodeSet set;
  std::map<std::string, Job> jobs;
  std::vector<std::string> own_warnings;
  if (!sources.nodes_dir.empty()) jobs_from_dir(sources.nodes_dir, jobs, own_warnings);
  for (const std::string& spec : sources.node_classes) jobs_from_class(spec, jobs);

  // --nodes restricts: a host outside the list is not read at all (its file may even be
  // one that would not load), so the files written describe exactly the hosts asked for.
  if (!sources.expected_hosts.empty()) {
    const std::set<std::string> wanted(sources.expected_hosts.begin(), sources.expected_hosts.end());
    std::erase_if(jobs, [&](const auto& job) { return !wanted.count(job.first); });
  }

  std::vector<Job> ordered;
  for (auto& [host, job] : jobs) ordered.push_back(job);
  std::sort(ordered.begin(), ordered.end(), [](const Job& a, const Job& b) { return natural_less(a.host, b.host); });

  for (const std::string& h : sources.expected_hosts)
    if (!jobs.count(h)) set.missing.push_back(h);
  if (!set.missing.empty()) {
    const std::string list = compress_hostlist(set.missing);
    const std::string where = sources.nodes_dir.empty() ? "--node-class" : sources.nodes_dir;
    const std::string text = std::to_string(set.missing.size()) + " host(s) in the node list have no " +
                             "<hostname>.xml/.json nor --node-class: " + list;
    if (!sources.allow_missing)
      throw InputError(where, 0, "a description of every listed node; " + text +
                                     " (collect them with `slurmtopo collect`, or accept with " + sources.allow_missing_option + ")");
    own_warnings.push_back(text + "; they get no NodeName/gres.conf lines");
  }

  std::map<std::string, NodeInventory> by_path = load_files(ordered, sources.threads);
  for (const Job& j : ordered) {
    NodeInventory n = by_path.at(j.path);
    if (n.source.empty()) n.source = j.path;
    if (fs::path(j.path).extension() == ".json" && n.hostname != j.host && !n.hostname.empty())
      own_warnings.push_back(j.path + ": describes host \"" + n.hostname + "\"; used for " + j.host +
                             " (the file name decides)");
    n.hostname = j.host;
    if (!sources.nodes_dir.empty()) attach_probes(sources.nodes_dir, n);
    set.nodes.push_back(std::move(n));
  }
  set.classes = group_node_classes(set.nodes);
  set.warnings = merged_warnings(set.nodes);
  set.warnings.insert(set.warnings.end(), own_warnings.begin(), own_warnings.end());
  return set;
}

NodeSet load_node_set(NodeSources sources, const std::string& nodes) {
  if (sources.nodes_dir.empty() && sources.node_classes.empty())
    throw InputError("--nodes-dir", 0, "expected --nodes-dir DIR and/or --node-class 'HOSTLIST=FILE'");
  if (!nodes.empty()) sources.expected_hosts = expand_hostlist_at(nodes, "--nodes");
  return load_node_set(sources);
}

}  // namespace slurmtopo
