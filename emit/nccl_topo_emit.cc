#include "emit/nccl_topo_emit.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "base/input_error.h"
#include "emit/nccl_topo.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

EmitNcclTopoResult emit_nccl_topo(const EmitNcclTopoRequest& r) {
  if (r.out_dir.empty()) throw InputError("--output", 0, "expected the directory to write the NCCL topology files into");
  const NodeSet set = load_node_set(r.sources, r.nodes);
  EmitNcclTopoResult out;
  out.warnings = set.warnings;
  std::map<std::string, const NodeInventory*> by_name;
  for (const NodeInventory& n : set.nodes) by_name.emplace(n.hostname, &n);
  for (const NodeClass& c : set.classes) {
    if (set.nodes[c.representative].gpus.empty()) continue;
    // Hosts by the file their own layout gives, in the order their first host appears.
    std::vector<std::pair<std::string, std::vector<std::string>>> layouts;
    for (const auto& host : c.hosts) {
      auto it = by_name.find(host);
      if (it == by_name.end()) continue;
      const std::string body = render_nccl_topo(*it->second);
      auto same = std::find_if(layouts.begin(), layouts.end(), [&](const auto& l) { return l.first == body; });
      if (same == layouts.end()) layouts.push_back({body, {host}});
      else same->second.push_back(host);
    }
    for (const auto& [body, hosts] : layouts) {
      NcclTopoFile f;
      f.hostlist = compress_hostlist(hosts);
      f.class_hosts = c.hostlist;
      f.path = (std::filesystem::path(r.out_dir) / (hosts.front() + ".xml")).string();
      f.text = "<!--\nNCCL topology for " + f.hostlist + (f.hostlist != c.hostlist ? " (of class " + c.hostlist + ")" : "") +
               ", written by slurmtopo from " + by_name[hosts.front()]->source + ":\n  " + r.command +
               "\nSet NCCL_TOPO_FILE=" + f.path + " in the jobs' environment on those nodes.\n"
               "PCIe switches shared by a GPU and a NIC are virtual (ffff:ff:NN.0); NCCL fills in the devices.\n-->\n" +
               body;
      out.files.push_back(std::move(f));
    }
  }
  if (out.files.empty()) throw InputError(r.sources.nodes_dir.empty() ? "--node-class" : r.sources.nodes_dir, 0,
                                          "no node has GPUs: nothing for NCCL_TOPO_FILE");
  std::error_code ec;
  std::filesystem::create_directories(r.out_dir, ec);
  if (ec) throw InputError(r.out_dir, 0, "cannot create the output directory: " + ec.message());
  for (auto& f : out.files) f.written = atomic_write(f.path, f.text);
  return out;
}

}  // namespace slurmtopo
