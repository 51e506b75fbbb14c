#include "discover/hwloc_devices.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <tuple>

#include "discover/gpu_models.h"
#include "discover/hwloc_attr.h"

namespace slurmtopo {
namespace {

constexpr unsigned kVendorAmazon = 0x1d0f;
constexpr unsigned kVendorCray = 0x17db;  // HPE Slingshot "Cassini"

std::string info(hwloc_obj_t o, const char* name) {
  const char* v = hwloc_obj_get_info_by_name(o, name);
  std::string s = v ? v : "";
  const size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string name_of(hwloc_obj_t o) { return o->name ? o->name : ""; }

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::vector<hwloc_obj_t> os_devices(hwloc_obj_t pci) {
  std::vector<hwloc_obj_t> out;
  for (hwloc_obj_t c = pci->io_first_child; c; c = c->next_sibling)
    if (c->type == HWLOC_OBJ_OS_DEVICE) out.push_back(c);
  return out;
}

// Compute APIs in the order their GPUModel is trusted: NVML and CUDA names are exact, RSMI
// names are sometimes garbled, OpenCL's are often the chip ("Vega 20").
enum class GpuApi { Nvml, Cuda, Rsmi, LevelZero, OpenCL, None };

GpuApi api_of(hwloc_obj_t os) {
  if (!osdev_type_is(os, HWLOC_OBJ_OSDEV_GPU) && !osdev_type_is(os, HWLOC_OBJ_OSDEV_COPROC)) return GpuApi::None;
  // hwloc 2 sets a subtype; 1.x exports only have the name (and sometimes Backend).
  std::string kind = os->subtype ? os->subtype : info(os, "Backend");
  const std::string name = name_of(os);
  auto is = [&](std::string_view k, std::string_view prefix) {
    return kind == k || (kind.empty() && starts_with(name, prefix));
  };
  if (is("NVML", "nvml")) return GpuApi::Nvml;
  if (is("CUDA", "cuda")) return GpuApi::Cuda;
  if (is("RSMI", "rsmi")) return GpuApi::Rsmi;
  if (is("LevelZero", "ze")) return GpuApi::LevelZero;
  if (is("OpenCL", "opencl")) {
    const std::string device_type = info(os, "OpenCLDeviceType");
    return device_type.empty() || device_type == "GPU" ? GpuApi::OpenCL : GpuApi::None;
  }
  return GpuApi::None;  // DRM card*/renderD*: the BMC's VGA has them too
}

bool is_gpu_function(hwloc_obj_t pci, bool has_compute_device) {
  if (has_compute_device) return true;
  const unsigned cls = pci->attr->pcidev.class_id, vendor = pci->attr->pcidev.vendor_id;
  const bool gpu_vendor = vendor == kPciVendorNvidia || vendor == kPciVendorAmd || vendor == kPciVendorIntel;
  if (gpu_vendor && (cls == 0x0302 || cls == 0x0380 || cls == 0x1200)) return true;
  return cls == 0x0300 && vendor == kPciVendorNvidia;
}

std::string vendor_name(unsigned vendor) {
  switch (vendor) {
    case kPciVendorNvidia: return "nvidia";
    case kPciVendorAmd: return "amd";
    case kPciVendorIntel: return "intel";
  }
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%04x", vendor);
  return buf;
}

// The trailing number of "rsmi12" (RSMI index order within one function).
long trailing_number(const std::string& name) {
  size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
  return i < name.size() ? std::strtol(name.c_str() + i, nullptr, 10) : -1;
}

std::string model_of(hwloc_obj_t pci, const std::vector<hwloc_obj_t>& osdevs, hwloc_obj_t partition) {
  if (partition) {
    std::string own = info(partition, "GPUModel");
    if (!own.empty()) return own;
  }
  for (GpuApi api : {GpuApi::Nvml, GpuApi::Cuda, GpuApi::Rsmi, GpuApi::LevelZero, GpuApi::OpenCL})
    for (hwloc_obj_t os : osdevs)
      if (api_of(os) == api) {
        std::string m = info(os, "GPUModel");
        if (!m.empty()) return m;
      }
  std::string pci_name = info(pci, "PCIDevice");
  if (!pci_name.empty()) return pci_name;
  return pci_gpu_model(pci->attr->pcidev.vendor_id, pci->attr->pcidev.device_id);
}

auto pci_key(hwloc_obj_t pci) {
  const auto& a = pci->attr->pcidev;
  return std::make_tuple(a.domain, a.bus, a.dev, a.func);
}

// "a088:c203:0009:704e" (hwloc's NodeGUID) or the low 64 bits of a GID
// "fe80:0000:0000:0000:a088:c203:0009:704e"; 0 when unparsable.
uint64_t guid_from_groups(const std::string& s) {
  std::string hex;
  for (char c : s)
    if (c != ':') hex += c;
  if (hex.size() > 16) hex = hex.substr(hex.size() - 16);
  if (hex.empty() || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return 0;
  return std::strtoull(hex.c_str(), nullptr, 16);
}

// Port<N>GID0 infos in port order: an InfiniBand port's GUID is its GID0's interface id.
std::vector<uint64_t> port_guids(hwloc_obj_t ofed) {
  std::vector<std::pair<long, uint64_t>> ports;
  for (unsigned i = 0; i < ofed->infos_count; ++i) {
    const std::string name = ofed->infos[i].name ? ofed->infos[i].name : "";
    if (!starts_with(name, "Port") || name.size() < 9 || name.compare(name.size() - 4, 4, "GID0") != 0) continue;
    const std::string number = name.substr(4, name.size() - 8);
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) continue;
    const uint64_t guid = guid_from_groups(ofed->infos[i].value ? ofed->infos[i].value : "");
    if (guid) ports.emplace_back(std::strtol(number.c_str(), nullptr, 10), guid);
  }
  std::sort(ports.begin(), ports.end());
  std::vector<uint64_t> out;
  for (const auto& p : ports) out.push_back(p.second);
  return out;
}

}  // namespace

std::string pci_busid(hwloc_obj_t pci) {
  const auto& a = pci->attr->pcidev;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04x:%02x:%02x.%x", static_cast<unsigned>(a.domain),
                static_cast<unsigned>(a.bus), static_cast<unsigned>(a.dev), static_cast<unsigned>(a.func));
  return buf;
}

std::vector<FoundGpu> find_gpus(hwloc_topology_t topology) {
  struct Candidate {
    FoundGpu found;
    long partition_order;
    std::string render_node;  // the export's own renderD OS device, if exactly one
  };
  std::vector<Candidate> found;
  for (hwloc_obj_t pci = hwloc_get_next_pcidev(topology, nullptr); pci; pci = hwloc_get_next_pcidev(topology, pci)) {
    const std::vector<hwloc_obj_t> osdevs = os_devices(pci);
    std::vector<hwloc_obj_t> rsmi, render;
    bool compute = false;
    for (hwloc_obj_t os : osdevs) {
      const GpuApi api = api_of(os);
      compute = compute || api != GpuApi::None;
      if (api == GpuApi::Rsmi) rsmi.push_back(os);
      if (osdev_type_is(os, HWLOC_OBJ_OSDEV_GPU) && starts_with(name_of(os), "renderD")) render.push_back(os);
    }
    if (!is_gpu_function(pci, compute)) continue;
    std::sort(rsmi.begin(), rsmi.end(), [](hwloc_obj_t a, hwloc_obj_t b) {
      return trailing_number(name_of(a)) < trailing_number(name_of(b));
    });
    // Several RSMI devices on one function are partitions, each its own GPU.
    std::vector<hwloc_obj_t> partitions = rsmi.size() > 1 ? rsmi : std::vector<hwloc_obj_t>{nullptr};
    for (size_t p = 0; p < partitions.size(); ++p) {
      Candidate c;
      Gpu& g = c.found.gpu;
      const unsigned vendor = pci->attr->pcidev.vendor_id;
      g.vendor = vendor_name(vendor);
      g.model = model_of(pci, osdevs, partitions[p]);
      g.slurm_type = slurm_gpu_type(g.model, vendor, pci->attr->pcidev.device_id);
      g.pci_busid = pci_busid(pci);
      c.found.objects = {pci, partitions[p]};
      c.partition_order = static_cast<long>(p);
      if (partitions.size() == 1 && render.size() == 1) c.render_node = name_of(render[0]);
      found.push_back(std::move(c));
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) {
    return std::make_tuple(pci_key(a.found.objects.pci), a.partition_order) <
           std::make_tuple(pci_key(b.found.objects.pci), b.partition_order);
  });
  std::vector<FoundGpu> out;
  int nvidia = 0, render = 0;
  for (auto& c : found) {
    Gpu& g = c.found.gpu;
    g.index = static_cast<int>(out.size());
    if (g.vendor == "nvidia") {
      g.device_file = "/dev/nvidia" + std::to_string(nvidia++);
    } else {
      g.device_file = c.render_node.empty() ? "/dev/dri/renderD" + std::to_string(128 + render)
                                            : "/dev/dri/" + c.render_node;
      ++render;
    }
    out.push_back(std::move(c.found));
  }
  return out;
}

std::vector<FoundNic> find_nics(hwloc_topology_t topology) {
  std::vector<FoundNic> out;
  for (hwloc_obj_t pci = hwloc_get_next_pcidev(topology, nullptr); pci; pci = hwloc_get_next_pcidev(topology, pci)) {
    std::vector<hwloc_obj_t> verbs, nets;
    for (hwloc_obj_t os : os_devices(pci)) {
      if (osdev_type_is(os, HWLOC_OBJ_OSDEV_OPENFABRICS)) verbs.push_back(os);
      if (osdev_type_is(os, HWLOC_OBJ_OSDEV_NETWORK)) nets.push_back(os);
    }
    const unsigned cls = pci->attr->pcidev.class_id, vendor = pci->attr->pcidev.vendor_id;
    const bool infiniband = cls == 0x0207 || cls == 0x0c06;
    const bool slingshot = vendor == kVendorCray;
    if (verbs.empty() && !infiniband && !slingshot) continue;

    RdmaNic base;
    base.pci_busid = pci_busid(pci);
    base.link_layer = slingshot ? "Slingshot"
                      : vendor == kVendorAmazon ? "EFA"
                      : infiniband ? "InfiniBand"
                      : "Ethernet";  // verbs on an Ethernet-class function: RoCE
    if (verbs.empty()) {
      std::sort(nets.begin(), nets.end(), [](hwloc_obj_t a, hwloc_obj_t b) { return name_of(a) < name_of(b); });
      if (!nets.empty()) base.name = name_of(nets[0]);
      out.push_back({base, pci});
      continue;
    }
    for (hwloc_obj_t v : verbs) {
      RdmaNic nic = base;
      nic.name = name_of(v);
      nic.node_guid = guid_from_groups(info(v, "NodeGUID"));
      if (nic.link_layer == "InfiniBand") nic.port_guids = port_guids(v);
      out.push_back({nic, pci});
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const FoundNic& a, const FoundNic& b) {
    return std::make_tuple(pci_key(a.pci), a.nic.name) < std::make_tuple(pci_key(b.pci), b.nic.name);
  });
  return out;
}

}  // namespace slurmtopo
