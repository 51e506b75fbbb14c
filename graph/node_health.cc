#include "graph/node_health.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "base/text.h"
#include "slurm/hostlist.h"

namespace slurmtopo {
namespace {

using Kind = NodeAnomaly::Kind;

std::string rate_text(double gbps) { return fixed_decimals(gbps, gbps == std::floor(gbps) ? 0 : 1) + " Gb/s"; }

// Usable bandwidth of a PCIe link, per lane × lanes: Gen1-2 code 8b/10b, Gen3+ 128b/130b.
double pcie_bandwidth(double gts, int width) { return gts * (gts <= 5.01 ? 0.8 : 128.0 / 130.0) * width; }

std::string share_text(double fraction) {
  if (std::abs(fraction - 0.5) < 0.02) return "half its PCIe bandwidth";
  if (std::abs(fraction - 0.25) < 0.02) return "a quarter of its PCIe bandwidth";
  return std::to_string(static_cast<int>(std::lround(fraction * 100))) + " % of its PCIe bandwidth";
}

std::string link_text(int gen, int width) {
  return "x" + std::to_string(width) + (gen > 0 ? " Gen" + std::to_string(gen) : "");
}

// Slurm's GPU index of a bus id: the hwloc export's order, else the probe's (nvidia-smi lists
// GPUs in bus id order too).
std::string gpu_name(const NodeInventory& n, const std::string& bus_id, size_t fallback) {
  for (const Gpu& g : n.gpus)
    if (g.pci_busid == bus_id) return "GPU " + std::to_string(g.index) + " (" + bus_id + ")";
  return "GPU " + std::to_string(fallback) + " (" + bus_id + ")";
}

struct Rails {
  std::map<std::string, std::vector<int>> gpus_of;  // rail NIC name → the GPUs whose nearest it is
  bool known() const { return !gpus_of.empty(); }   // the export had GPUs and NICs
  bool has(const std::string& device) const { return gpus_of.count(device) > 0; }
};

Rails rails_of(const HostJoin& h) {
  Rails r;
  for (const GpuPath& p : h.gpus)
    if (!p.nic_name.empty()) r.gpus_of[p.nic_name].push_back(p.gpu);
  return r;
}

// NCCL_IB_HCA as NCCL reads it (misc/utils.cc parseStringList/matchIfList): "^" excludes, "="
// makes every name exact (else a prefix: mlx5_1 takes mlx5_10), ":port" limits the port.
struct IbHcaList {
  bool exclude = false, exact = false;
  std::vector<std::pair<std::string, int>> entries;  // name, port (-1: every port)
  bool names(const std::string& entry, const std::string& device) const {
    return exact ? device == entry : device.starts_with(entry);
  }
  bool uses(const std::string& device, int port) const {
    bool matched = false;
    for (const auto& [name, want] : entries) matched = matched || (names(name, device) && (want <= 0 || want == port));
    return exclude ? !matched : matched;
  }
};

IbHcaList parse_ib_hca(std::string s) {
  IbHcaList l;
  l.exclude = s.starts_with("^");
  if (l.exclude) s.erase(0, 1);
  l.exact = s.starts_with("=");
  if (l.exact) s.erase(0, 1);
  for (size_t start = 0; start <= s.size();) {
    size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    const std::string entry = s.substr(start, comma - start);
    start = comma + 1;
    if (entry.empty()) continue;
    const size_t colon = entry.find(':');
    l.entries.emplace_back(entry.substr(0, colon), colon == std::string::npos ? -1 : std::atoi(entry.c_str() + colon + 1));
  }
  return l;
}

}  // namespace

std::vector<DowntrainedLink> downtrained_links(const NodeInventory& n) {
  std::vector<DowntrainedLink> out;
  if (!n.probe) return out;
  const NodeProbe& p = *n.probe;
  auto add = [&](DowntrainedLink d, int gen, int width, int max_gen, int max_width, double gts, double max_gts,
                 const std::string& extra) {
    d.share = pcie_bandwidth(gts, width) / pcie_bandwidth(max_gts, max_width);
    d.link = link_text(gen, width);
    d.detail = d.who + " at " + d.link + ", capable of " + link_text(max_gen, max_width) + ": " + share_text(d.share) +
               extra;
    out.push_back(std::move(d));
  };
  constexpr double kGts[] = {0, 2.5, 5, 8, 16, 32, 64};
  auto gts_of = [&](int gen) { return gen >= 1 && gen <= 6 ? kGts[gen] : 0.0; };
  // GPUs: nvidia-smi's view where there is one (it knows the slot's maximum), else sysfs.
  std::set<std::string> judged;
  const auto& smi = p.nvidia_smi.gpus;
  for (size_t i = 0; i < smi.size(); ++i) {
    const GpuReport& g = smi[i];
    judged.insert(g.bus_id);
    if (g.width_current <= 0 || g.width_max <= 0 || g.gen_current <= 0 || g.gen_max <= 0) continue;
    const bool narrow = g.width_current < g.width_max;
    // Gen1 is where an idle GPU parks its link; between Gen1 and its maximum it trained low.
    const bool slow = g.gen_current < g.gen_max && g.gen_current > 1;
    if (!narrow && !slow) continue;
    std::string extra = "; GPUDirect traffic through it slows the same way";
    if (slow && g.host_gen_max > 0 && g.host_gen_max == g.gen_current)
      extra += " (the slot's maximum is Gen" + std::to_string(g.host_gen_max) + ": a faster slot or riser)";
    else
      extra += narrow ? " (reseat the card; check the riser and the slot's bifurcation setting)"
                      : " (reseat the card; check the riser and the BIOS PCIe speed setting)";
    const int shown = slow ? g.gen_current : g.gen_max;  // an idle Gen1 says nothing of the speed it trains at
    DowntrainedLink d;
    d.bdf = g.bus_id;
    d.gpu = true;
    d.who = gpu_name(n, g.bus_id, i);
    add(std::move(d), shown, g.width_current, g.gen_max, g.width_max, gts_of(shown), gts_of(g.gen_max), extra);
  }
  std::set<std::string> nic_functions;
  for (const RdmaPort& port : p.ports) nic_functions.insert(port.pci);
  size_t gpu_order = 0;
  for (const PciFunction& f : p.pci) {
    const bool gpu = (f.class_code >> 16) == 0x03 && f.vendor == 0x10de;
    const bool nic = nic_functions.count(f.bdf) > 0;
    if (gpu) ++gpu_order;
    // The link's maximum is the lesser of the card's and the slot's (its upstream port's).
    const double max_speed = f.link_max_speed();
    const int max_width = f.link_max_width();
    if ((!gpu && !nic) || f.width <= 0 || max_width <= 0 || f.speed <= 0 || max_speed <= 0) continue;
    if (gpu && judged.count(f.bdf)) continue;
    const int gen = pcie_generation(f.speed), max_gen = pcie_generation(max_speed);
    const bool narrow = f.width < max_width;
    // A NIC does not park its link: any speed below its maximum is how it trained.
    const bool slow = f.speed + 0.01 < max_speed && (nic || gen > 1);
    if (!narrow && !slow) continue;
    DowntrainedLink d;
    d.bdf = f.bdf;
    d.gpu = gpu && !nic;
    if (d.gpu) d.who = gpu_name(n, f.bdf, gpu_order - 1);
    if (nic) {
      for (const RdmaPort& port : p.ports)
        if (port.pci == f.bdf && std::find(d.nics.begin(), d.nics.end(), port.device) == d.nics.end())
          d.nics.push_back(port.device);
      d.who = join_list(d.nics) + " (" + f.bdf + ")";
    }
    add(std::move(d), slow ? gen : max_gen, f.width, max_gen, max_width, slow ? f.speed : max_speed, max_speed,
        nic ? "; every transfer through this NIC is capped by it (reseat the card; check the riser and the slot)"
            : "; GPUDirect traffic through it slows the same way (reseat the card; check the riser and the slot)");
  }
  return out;
}

std::vector<PcieShare> gpu_pcie_shares(const NodeInventory& n, const HostJoin& h) {
  std::vector<PcieShare> out(h.gpus.size());
  for (const DowntrainedLink& d : downtrained_links(n))
    for (size_t g = 0; g < h.gpus.size(); ++g) {
      const GpuPath& path = h.gpus[g];
      const bool own = d.gpu && path.gpu < static_cast<int>(n.gpus.size()) && n.gpus[path.gpu].pci_busid == d.bdf;
      const bool via = !d.nics.empty() && std::find(d.nics.begin(), d.nics.end(), path.nic_name) != d.nics.end();
      if ((own || via) && d.share < out[g].share) out[g] = {d.share, d.who + " at " + d.link};
    }
  return out;
}

namespace {

void pcie_findings(const NodeInventory& n, std::vector<HostFinding>& out) {
  for (DowntrainedLink& d : downtrained_links(n)) out.push_back({Kind::PcieDowntrained, n.hostname, std::move(d.detail)});
}

struct PortKey {
  std::string device;
  int port;
  auto operator<=>(const PortKey&) const = default;
};

// What the other hosts of a class have at each device and port: state, rate, link layer.
struct ClassPorts {
  std::map<PortKey, std::vector<const RdmaPort*>> ports;  // one per host with a probe
};

void port_findings(const NodeInventory& n, const NodeProbe& p, const Rails& rails, const ClassPorts& peers,
                   std::vector<HostFinding>& out) {
  // The best rate among the node's ACTIVE InfiniBand rail ports: a rail below it drags every
  // collective that spans the rails down to its speed.
  double best_rail = 0;
  int ib_rails = 0;
  for (const RdmaPort& port : p.ports)
    if ((rails.has(port.device) || !rails.known()) && port.state == "ACTIVE" && port.link_layer == "InfiniBand") {
      best_rail = std::max(best_rail, port.rate_gbps);
      ++ib_rails;
    }
  for (const RdmaPort& port : p.ports) {
    const PortKey key{port.device, port.port};
    const std::string name = port.device + " port " + std::to_string(port.port);
    const bool rail = rails.has(port.device);
    const std::string whose = rail ? " (the NIC of " + gpu_list(rails.gpus_of.at(port.device)) + ")" : "";
    // Peers: the same port on the class's other hosts.
    int peers_active = 0, peers_ib = 0, peers_with = 0;
    std::vector<double> peer_rates;
    if (auto it = peers.ports.find(key); it != peers.ports.end())
      for (const RdmaPort* q : it->second) {
        if (q == &port) continue;
        ++peers_with;
        if (q->state == "ACTIVE") ++peers_active, peer_rates.push_back(q->rate_gbps);
        if (q->link_layer == "InfiniBand") ++peers_ib;
      }
    const bool peers_say_active = peers_with > 0 && peers_active * 2 > peers_with;
    if (port.state != "ACTIVE") {
      if (!rail && !peers_say_active) continue;  // a second port left uncabled on purpose
      std::string why = port.phys_state == "Disabled" ? "disabled (by the SM or ibportstate: enable it)"
                        : port.phys_state == "LinkUp"  ? "up but not ACTIVE (the subnet manager has not brought it up)"
                                                       : "without link (" + (port.phys_state.empty() ? std::string("?") : port.phys_state) +
                                                             "): check the cable and the switch port";
      out.push_back({Kind::PortDown, n.hostname,
                     name + whose + " is " + (port.state.empty() ? "not ACTIVE" : port.state) + ", " + why +
                         (rail ? "; NCCL skips it, so that rail's traffic crowds onto another NIC" : "") +
                         (peers_say_active ? "; it is ACTIVE on " + std::to_string(peers_active) + " of " +
                                                 std::to_string(peers_with) + " other hosts of its class"
                                           : "")});
      continue;
    }
    if (port.link_layer == "Ethernet" && (rail || peers_ib * 2 > peers_with) && (ib_rails > 0 || peers_ib > 0)) {
      out.push_back({Kind::PortEthernet, n.hostname,
                     name + whose + " runs Ethernet where " +
                         (ib_rails > 0 ? std::string("the node's other rails are InfiniBand")
                                       : "its class peers run InfiniBand") +
                         ": NCCL treats it as RoCE, off the InfiniBand fabric (a VPI card set to ETH: "
                         "mlxconfig LINK_TYPE_P" + std::to_string(port.port) + "=1, then a reboot)"});
      continue;
    }
    if (port.link_layer != "InfiniBand" || port.rate_gbps <= 0) continue;
    const double peer_rate = peer_rates.empty() ? 0 : usual_value(peer_rates).first;
    const double expected = std::max((rail || !rails.known()) ? best_rail : 0.0, peer_rate);
    if (port.rate_gbps + 0.5 < expected)
      out.push_back({Kind::PortSlow, n.hostname,
                     name + whose + " is ACTIVE at " + port.rate + " where " +
                         (peer_rate > port.rate_gbps + 0.5 ? "its class peers run " + rate_text(peer_rate)
                                                          : "the node's other rails run " + rate_text(best_rail)) +
                         ": a collective over every rail runs at this one's speed (check the cable, "
                         "the switch port's speed setting, or a lane down)"});
  }
}

void gpudirect_findings(const NodeInventory& n, const NodeProbe& p, std::vector<HostFinding>& out) {
  const bool gpus = !n.gpus.empty() || !p.nvidia_smi.gpus.empty();
  bool rdma = false;
  for (const RdmaPort& port : p.ports) rdma = rdma || port.state == "ACTIVE";
  if (!gpus || !rdma || p.peermem || p.nvidia_module.empty()) return;
  // DMA-BUF (NCCL 2.13+, CUDA 11.7+) needs the open kernel module and Linux 5.12+.
  int major = 0, minor = 0;
  std::sscanf(p.kernel.c_str(), "%d.%d", &major, &minor);
  const bool old_kernel = major > 0 && (major < 5 || (major == 5 && minor < 12));
  if (p.open_module && !old_kernel) return;
  out.push_back({Kind::NoGpuDirect, n.hostname,
                 std::string("no peer-memory module (nvidia-peermem) and ") +
                     (p.open_module ? "Linux " + p.kernel + " (DMA-BUF needs 5.12 or later)"
                                    : "the proprietary NVIDIA kernel module (DMA-BUF needs the open one)") +
                     ": NCCL cannot use GPUDirect RDMA, every transfer to another node is staged through host "
                     "memory (`modprobe nvidia-peermem`, and list it in /etc/modules-load.d)"});
}

void memory_findings(const NodeInventory& n, const NodeProbe& p, std::vector<HostFinding>& out) {
  for (size_t i = 0; i < p.nvidia_smi.gpus.size(); ++i) {
    const GpuReport& g = p.nvidia_smi.gpus[i];
    const std::string who = gpu_name(n, g.bus_id, i);
    if (g.remap_failed)
      out.push_back({Kind::GpuMemory, n.hostname, who + ": a row remapping failed: the GPU's memory is bad (RMA it)"});
    else if (g.remap_pending)
      out.push_back({Kind::GpuMemory, n.hostname,
                     who + ": a row remap is pending: drain the node and reset the GPU (nvidia-smi -r) before jobs run"});
    if (g.retire_pending)
      out.push_back({Kind::GpuMemory, n.hostname,
                     who + ": a page retirement is pending: drain the node and reset the GPU before jobs run"});
  }
}

// NVIDIA's minimum driver for each CUDA major's minor-version compatibility.
int minimum_driver(int cuda_major) {
  switch (cuda_major) {
    case 11: return 450;
    case 12: return 525;
    case 13: return 580;
    default: return 0;
  }
}

std::pair<int, int> version_of(const std::string& v) {
  int a = 0, b = 0;
  std::sscanf(v.c_str(), "%d.%d", &a, &b);
  return {a, b};
}

void container_findings(const NodeInventory& n, const NodeProbe& c, const NodeProbe* host, const Rails& rails,
                        std::vector<HostFinding>& out) {
  const std::vector<RdmaPort>& ports = host && !host->ports.empty() ? host->ports : c.ports;
  bool node_rdma = !n.nics.empty();
  for (const RdmaPort& port : ports) node_rdma = node_rdma || port.link_layer == "InfiniBand";
  bool uverbs = false;
  for (const std::string& d : c.rdma_devices) uverbs = uverbs || d.starts_with("uverbs");
  if (node_rdma && !uverbs) {
    out.push_back({Kind::NoRdmaDevice, n.hostname,
                   "the job's container sees no /dev/infiniband/uverbs*: NCCL will fall back to TCP sockets over the "
                   "bootstrap interface (enroot/Pyxis: MELLANOX_VISIBLE_DEVICES=all; Apptainer: no --contain, or "
                   "--bind /dev/infiniband)"});
  } else if (uverbs && (!c.libibverbs || c.providers.empty())) {
    out.push_back({Kind::NoVerbsProvider, n.hostname,
                   std::string("the image has ") + (!c.libibverbs ? "no libibverbs" : "libibverbs but no provider (mlx5)") +
                       ": NCCL will fall back to TCP sockets over the bootstrap interface (install rdma-core's "
                       "libibverbs and ibverbs-providers in the image)"});
  }
  if (const std::string* spec = c.env("NCCL_IB_HCA"); spec && !ports.empty()) {
    std::vector<std::string> unknown, left_out;
    const IbHcaList list = parse_ib_hca(*spec);
    if (!list.exclude)
      for (const auto& [name, _] : list.entries) {
        if (name.empty()) continue;
        bool any = false;
        for (const RdmaPort& port : ports) any = any || list.names(name, port.device);
        if (!any && std::find(unknown.begin(), unknown.end(), name) == unknown.end()) unknown.push_back(name);
      }
    for (const auto& [device, gpus] : rails.gpus_of) {
      bool used = false, exists = false;
      for (const RdmaPort& port : ports)
        if (port.device == device) exists = true, used = used || list.uses(device, port.port);
      if (exists && !used) left_out.push_back(device + " (" + gpu_list(gpus) + ")");
    }
    if (!unknown.empty())
      out.push_back({Kind::NcclIbHca, n.hostname,
                     "NCCL_IB_HCA=" + *spec + " names " + join_list(unknown) +
                         ", which this node does not have (NCCL matches verbs device names, as ibv_devices "
                         "lists them, not netdevs)"});
    if (!left_out.empty())
      out.push_back({Kind::NcclIbHca, n.hostname,
                     "NCCL_IB_HCA=" + *spec + " leaves out " + join_list(left_out) +
                         ": those GPUs' traffic crosses to another rail's NIC"});
  }
  const std::string image = c.cuda_in_use();
  const NvidiaSmi& smi = c.nvidia_smi.present ? c.nvidia_smi : host ? host->nvidia_smi : c.nvidia_smi;
  if (!image.empty() && !smi.cuda.empty() && !smi.driver.empty()) {
    const int image_major = version_of(image).first;
    const int driver_major_cuda = version_of(smi.cuda).first;
    const int driver = version_of(smi.driver).first;
    const int needed = minimum_driver(image_major);
    std::string why;
    if (image_major > driver_major_cuda && !c.cuda_compat)
      why = "a driver of the CUDA " + std::to_string(image_major) + " branch" +
            (needed ? " (" + std::to_string(needed) + " or later)" : "") + ", or the image's cuda-compat package";
    else if (image_major == driver_major_cuda && needed && driver > 0 && driver < needed)
      why = "driver " + std::to_string(needed) + " or later even with minor-version compatibility";
    if (!why.empty())
      out.push_back({Kind::CudaTooNew, n.hostname,
                     "the image's CUDA " + image + " needs " + why + "; this node's driver " + smi.driver +
                         " runs CUDA " + smi.cuda + " at most: CUDA calls fail at start ('driver version is "
                         "insufficient')"});
  }
}

// Hosts of one class that differ from the rest: driver, kernel, NIC firmware, the image's NCCL.
void drift_findings(const NodeSet& set, std::vector<HostFinding>& out) {
  for (const NodeClass& cls : set.classes) {
    std::vector<const NodeInventory*> nodes;
    for (const NodeInventory& n : set.nodes)
      if (n.probe && std::find(cls.hosts.begin(), cls.hosts.end(), n.hostname) != cls.hosts.end())
        nodes.push_back(&n);
    auto compare = [&](Kind kind, const std::string& what, auto value_of, const std::vector<const NodeInventory*>& of) {
      if (of.size() < 2) return;
      std::vector<std::string> values;
      for (const NodeInventory* n : of) values.push_back(value_of(*n));
      const auto [usual, count] = usual_value(values);
      if (count == static_cast<int>(values.size())) return;
      std::vector<std::string> usual_hosts;
      for (size_t i = 0; i < of.size(); ++i)
        if (values[i] == usual) usual_hosts.push_back(of[i]->hostname);
      for (size_t i = 0; i < of.size(); ++i)
        if (values[i] != usual)
          out.push_back({kind, of[i]->hostname,
                         what + " " + (values[i].empty() ? "(none)" : values[i]) + " where " +
                             std::to_string(count) + " other host" + (count == 1 ? "" : "s") + " of its class (" +
                             compress_hostlist(usual_hosts) + ") " + (count == 1 ? "has " : "have ") +
                             (usual.empty() ? "(none)" : usual)});
    };
    compare(Kind::ClassDrift, "NVIDIA driver", [](const NodeInventory& n) { return n.probe->nvidia_smi.driver; }, nodes);
    compare(Kind::ClassDrift, "kernel", [](const NodeInventory& n) { return n.probe->kernel; }, nodes);
    std::set<std::string> devices;
    for (const NodeInventory* n : nodes)
      for (const RdmaPort& p : n->probe->ports) devices.insert(p.device);
    for (const std::string& d : devices) {
      std::vector<const NodeInventory*> with;
      for (const NodeInventory* n : nodes)
        for (const RdmaPort& p : n->probe->ports)
          if (p.device == d && !p.firmware.empty()) {
            with.push_back(n);
            break;
          }
      compare(Kind::ClassDrift, d + " firmware",
              [&](const NodeInventory& n) {
                for (const RdmaPort& p : n.probe->ports)
                  if (p.device == d) return p.firmware;
                return std::string();
              },
              with);
    }
    std::vector<const NodeInventory*> contained;
    for (const NodeInventory& n : set.nodes)
      if (n.container_probe && std::find(cls.hosts.begin(), cls.hosts.end(), n.hostname) != cls.hosts.end())
        contained.push_back(&n);
    compare(Kind::NcclDrift, "NCCL",
            [](const NodeInventory& n) { return join_list(n.container_probe->nccl_versions); }, contained);
  }
}

}  // namespace

bool nccl_ib_hca_uses(const std::string& spec, const std::string& device, int port) {
  return parse_ib_hca(spec).uses(device, port);
}

std::vector<HostFinding> node_health_findings(const NodeSet& set, const NodeJoin& join) {
  std::vector<HostFinding> out;
  // Each class's ports, for "its peers have it ACTIVE".
  std::map<std::string, ClassPorts> class_ports;  // by class signature
  std::map<std::string, std::string> class_of;    // host → signature
  for (const NodeClass& c : set.classes)
    for (const std::string& h : c.hosts) class_of[h] = c.signature;
  for (const NodeInventory& n : set.nodes) {
    if (!n.probe) continue;
    ClassPorts& cp = class_ports[class_of[n.hostname]];
    for (const RdmaPort& p : n.probe->ports) cp.ports[{p.device, p.port}].push_back(&p);
  }
  for (const HostJoin& h : join.hosts) {
    const NodeInventory& n = set.nodes[h.node];
    const Rails rails = rails_of(h);
    if (n.probe) {
      const NodeProbe& p = *n.probe;
      if (!p.complete)
        out.push_back({Kind::ProbeIncomplete, n.hostname,
                       p.source + " ends before the probe's end marker: the step was cut short; rerun collect "
                                  "there (this node's other findings may be missing)"});
      pcie_findings(n, out);
      port_findings(n, p, rails, class_ports[class_of[n.hostname]], out);
      gpudirect_findings(n, p, out);
      memory_findings(n, p, out);
    }
    if (n.container_probe) {
      if (!n.container_probe->complete)
        out.push_back({Kind::ProbeIncomplete, n.hostname,
                       n.container_probe->source + " ends before the probe's end marker: the container step was "
                                                   "cut short; rerun collect there"});
      container_findings(n, *n.container_probe, n.probe ? &*n.probe : nullptr, rails, out);
    }
  }
  drift_findings(set, out);
  return out;
}

}  // namespace slurmtopo
