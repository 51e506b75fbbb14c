// The nodes section: per node class the GPU↔NIC matrix as `nvidia-smi topo -m` prints it,
// each GPU's nearest RDMA NIC with its link layer, rail and leaf, cores per GPU, NCCL_IB_HCA,
// the NodeName line; then the node findings (hosts that differ from their class).
#include <ostream>
#include <set>

#include "slurm/hostlist.h"

#include "report/commission_parts.h"

namespace slurmtopo {

namespace {

bool health(const Finding& f) { return f.check == "nodes.health" || f.check == "nodes.container"; }

std::string cell_class(const std::string& v) {
  if (v == "X") return "X";
  if (v.rfind("NV", 0) == 0) return "NV";
  return v == "-" ? "" : v;
}

}  // namespace

void html_nodes(const CommissionReport& r, std::ostream& out) {
  if (r.classes.empty()) return;
  out << "<section id=\"nodes\"><h2>Nodes</h2>\n";
  std::set<size_t> in_class;  // health findings shown under their class
  for (const ClassNodes& c : r.classes) {
    out << "<h3>" << html_escape(c.hostlist) << "</h3>\n<p>" << html_escape(c.summary) << " (as " << html_escape(c.host)
        << " describes it)</p>\n";
    if (!c.gpus.empty()) {
      out << "<table class=\"matrix\"><caption>GPU and NIC topology, as nvidia-smi topo -m prints it</caption>"
          << "<thead><tr><th scope=\"col\"></th>";
      std::vector<std::string> names = c.gpus;
      names.insert(names.end(), c.nics.begin(), c.nics.end());
      for (const auto& n : names) out << "<th scope=\"col\">" << html_escape(n) << "</th>";
      out << "</tr></thead><tbody>\n";
      for (size_t i = 0; i < c.matrix.size(); ++i) {
        out << "<tr><th scope=\"row\">" << html_escape(names[i]) << "</th>";
        for (const auto& v : c.matrix[i]) {
          const std::string k = cell_class(v);
          out << (k.empty() ? "<td>" : "<td class=\"" + k + "\">") << html_escape(v) << "</td>";
        }
        out << "</tr>\n";
      }
      out << "</tbody></table>\n<p class=\"meta\">X = self, NV# = NVLink links, PIX/PXB = through PCIe switches, "
             "PHB = through the host bridge, NODE = within a NUMA node, SYS = across sockets.</p>\n";
      std::vector<std::vector<std::string>> rows;
      std::vector<std::string> cls;
      for (const auto& g : c.per_gpu) {
        rows.push_back({"GPU" + std::to_string(g.index), g.nic, g.path, g.link_layer, g.rail, g.leaves, std::to_string(g.cores)});
        cls.push_back(g.link_layer == "Ethernet" || g.path == "SYS" ? "warn" : "");
      }
      html_table(out, "Each GPU's nearest RDMA NIC (an Ethernet port is not an InfiniBand rail)",
                 {"GPU", "nearest NIC", "path", "link layer", "rail", "leaf", "cores"}, rows, cls);
    }
    if (!c.nccl_ib_hca.empty()) out << "<p>NCCL_IB_HCA (GPU order): <code>" << html_escape(c.nccl_ib_hca) << "</code></p>\n";
    if (!c.node_line.empty()) out << "<pre>" << html_escape(c.node_line) << "</pre>\n";
    // What the node probes found on this class's hosts: what a job there will suffer.
    std::set<std::string> members;
    for (std::string& h : expand_hostlist(c.hostlist)) members.insert(std::move(h));
    std::vector<std::vector<std::string>> health_rows;
    std::vector<std::string> health_cls;
    for (size_t i = 0; i < r.findings.size(); ++i) {
      const Finding& f = r.findings[i];
      if (f.source != "nodes" || !health(f)) continue;
      const std::vector<std::string> hosts = finding_names(f.subject);  // "gpu[003-004]" → gpu003, gpu004
      if (hosts.empty() || !members.count(hosts.front())) continue;
      health_rows.push_back({"#" + std::to_string(i), f.kind, f.subject, f.detail});
      health_cls.push_back(f.severity == Severity::Fail ? "fail" : f.severity == Severity::Warn ? "warn" : "");
      in_class.insert(i);
    }
    if (!health_rows.empty())
      html_table(out, "Node health (node probes): what a job on these hosts will suffer", {"#", "kind", "hosts", "detail"},
                 health_rows, health_cls);
  }
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < r.findings.size(); ++i)
    if (r.findings[i].source == "nodes" && !in_class.count(i))
      rows.push_back({"#" + std::to_string(i), r.findings[i].kind, r.findings[i].subject, r.findings[i].detail});
  if (rows.empty()) out << "<p class=\"none\">Every host matches its class.</p>\n";
  else html_table(out, "Hosts that differ from their class, and GPUs without a good way out", {"#", "kind", "hosts", "detail"}, rows);
  for (const auto& w : r.node_warnings) out << "<p>warning: " << html_escape(w) << "</p>\n";
  out << "</section>\n";
}

}  // namespace slurmtopo
