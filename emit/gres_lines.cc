#include "emit/gres_lines.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

#include "base/input_error.h"
#include "base/version.h"

namespace slurmtopo {

std::vector<int> slurm_cores(const std::vector<int>& cores, int sockets, int cores_per_socket, CoreRule rule) {
  std::set<int> in(cores.begin(), cores.end());
  if (rule == CoreRule::AsIs || in.empty() || cores_per_socket <= 0 || sockets <= 0) return {in.begin(), in.end()};
  std::set<int> touched;
  for (int c : in) {
    // A core beyond the node is left alone: the check reports it, widening would hide it.
    if (c < 0 || c >= sockets * cores_per_socket) return {in.begin(), in.end()};
    touched.insert(c / cores_per_socket);
  }
  if (rule == CoreRule::OneSocketOrAll && touched.size() > 1)
    for (int s = 0; s < sockets; ++s) touched.insert(s);
  std::vector<int> out;
  for (int s : touched)
    for (int c = s * cores_per_socket; c < (s + 1) * cores_per_socket; ++c) out.push_back(c);
  return out;
}

ClassGres gres_for_class(const NodeInventory& node, const std::string& hostlist, SlurmRelease version,
                         const std::string& dev_dir) {
  ClassGres out;
  out.hostlist = hostlist;
  const CoreRule rule = core_rule(version);
  std::vector<std::string> widened;
  bool any_links = false;
  for (size_t i = 0; i < node.gpus.size(); ++i) {
    const Gpu& g = node.gpus[i];
    GresLine line;
    line.type = g.slurm_type;
    line.file = g.device_file;
    if (!dev_dir.empty() && !line.file.empty())
      line.file = dev_dir + (dev_dir.back() == '/' ? "" : "/") + line.file.substr(line.file.rfind('/') + 1);
    std::vector<int> local(g.cores);
    std::sort(local.begin(), local.end());
    local.erase(std::unique(local.begin(), local.end()), local.end());
    line.local_cores = local;
    line.cores = slurm_cores(local, node.sockets, node.cores_per_socket, rule);
    if (line.cores != local)
      widened.push_back("GPU " + std::to_string(i) + " " + format_ranges(local) + " → " + format_ranges(line.cores));
    if (!g.nvlinks.empty()) {
      line.links = g.nvlinks;
      // Slurm marks the GPU itself with -1; an inventory may carry 0 on its diagonal.
      if (i < line.links.size()) line.links[i] = -1;
      any_links = true;
    }
    out.gpus.push_back(std::move(line));
  }
  if (!widened.empty())
    out.notes.push_back("Cores= widened for Slurm " + to_string(version) + " (" + describe(rule) +
                        "), the GPUs' local cores are part of a socket: " +
                        [&] {
                          std::string s;
                          for (const auto& w : widened) s += (s.empty() ? "" : ", ") + w;
                          return s;
                        }());
  if (!any_links && node.gpus.size() > 1)
    out.notes.push_back("no Links=: the inventory has no direct GPU-GPU link counts (NVSwitch, PCIe-only GPUs, or an export without a link matrix)");
  return out;
}

std::string render_gres_conf(const std::vector<ClassGres>& classes, const GresHeader& header) {
  std::ostringstream out;
  out << "# gres.conf written by slurmtopo " << slurmtopo_version();
  if (!header.command.empty()) out << ": " << header.command;
  out << "\n# for " << header.release << "\n# Cores= are Slurm core ids (hwloc Core L#, socket-major), not CPU ids; File= in PCI bus id order.\n";
  for (const ClassGres& c : classes) {
    out << "\n# " << c.hostlist << ": " << c.gpus.size() << " GPU" << (c.gpus.size() == 1 ? "" : "s") << "\n";
    for (const auto& note : c.notes) out << "# " << note << "\n";
    for (const GresLine& g : c.gpus) {
      out << "NodeName=" << c.hostlist << " Name=gpu";
      if (!g.type.empty()) out << " Type=" << g.type;
      if (!g.file.empty()) out << " File=" << g.file;
      if (!g.cores.empty()) out << " Cores=" << format_ranges(g.cores);
      if (!g.links.empty()) {
        out << " Links=";
        for (size_t i = 0; i < g.links.size(); ++i) out << (i ? "," : "") << g.links[i];
      }
      out << "\n";
    }
  }
  return out.str();
}

}  // namespace slurmtopo
