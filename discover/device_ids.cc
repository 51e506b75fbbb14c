#include "discover/device_ids.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace slurmtopo {
namespace {

constexpr uint32_t kVendorMellanoxIb = 0x02c9;   // NodeInfo:VendorID (the IEEE OUI 00-02-c9)
constexpr uint32_t kVendorMellanoxPci = 0x15b3;  // the PCI vendor id of the same parts

using S = LinkSpeed;
constexpr NodeKind kCa = NodeKind::Ca, kSwitch = NodeKind::Switch;

// Device ids and names: pci.ids (pci-ids.ucw.cz, vendor 15b3) and the device list of NVIDIA's
// MFT `mst` script (dev_id_database), which agree on every id below; the IB node reports the
// same device id as the PCI function. Switch ASIC ids are the decimal MT part number in hex
// (MT43132 = 0xa87c InfiniScale, MT54000 = 0xd2f0 Quantum), which the dumps' factory
// descriptions confirm ("MT43132 Mellanox Technologies", "MT4129 ConnectX7" for 0x1021).
//
// Best speeds: what the names say where they say it (pci.ids "IB SDR", "IB DDR", "IB QDR"; "IS4
// IB QDR"), else the generation's InfiniBand rate (ConnectX-3/Connect-IB/SwitchX FDR 56 Gb/s,
// ConnectX-4/5/Switch-IB EDR 100 Gb/s, ConnectX-6/Quantum HDR 200 Gb/s, ConnectX-7/Quantum-2
// NDR 400 Gb/s, ConnectX-8/Quantum-3 XDR 800 Gb/s; BlueField DPUs as the ConnectX they
// integrate, per the mst list: BlueField ConnectX-5, BlueField-2 ConnectX-6 (HDR VPI parts),
// BlueField-3 ConnectX-7, whose SKUs NVIDIA's DOCA platform list gives up to "NDR IB").
// The speed is the ASIC's: a card sold slower (a QDR-only ConnectX-3 SKU) says so in its
// PortInfo, which the live sweep and cache reader carry and which wins (graph/link_ceilings.h).
//
// Left out on purpose: Ethernet-only parts that never appear in an IB sweep (ConnectX-4 Lx
// 0x1015, ConnectX-6 Dx 0x101d, ConnectX-6 Lx 0x101f), the SHARP aggregation node (0xcf09, a CA
// inside the switch whose cable is no cable), and Voltaire's own ids (vendor 0x08f1: 0x5a05,
// 0x5a06, 0x5a5a in the public dumps), which no public table ties to a product.
constexpr DeviceModel kMellanox[] = {
    // HCAs
    {0x5a44, "InfiniHost MT23108", kCa, S::SDR, 4},
    {0x6340, "ConnectX MT25408", kCa, S::SDR, 4},      // [ConnectX VPI - IB SDR / 10GigE]
    {0x634a, "ConnectX MT25418", kCa, S::DDR, 4},      // [ConnectX VPI PCIe 2.0 2.5GT/s - IB DDR / 10GigE]
    {0x6354, "ConnectX MT25428", kCa, S::QDR, 4},      // [ConnectX VPI PCIe 2.0 2.5GT/s - IB QDR / 10GigE]
    {0x6732, "ConnectX MT26418", kCa, S::DDR, 4},      // [ConnectX VPI PCIe 2.0 5GT/s - IB DDR / 10GigE]
    {0x673c, "ConnectX-2 MT26428", kCa, S::QDR, 4},    // [ConnectX VPI PCIe 2.0 5GT/s - IB QDR / 10GigE]
    {0x6746, "ConnectX-2 MT26438", kCa, S::QDR, 4},    // [ConnectX VPI PCIe 2.0 5GT/s - IB QDR / 10GigE Virtualization+]
    {0x1003, "ConnectX-3", kCa, S::FDR, 4},            // MT27500
    {0x1007, "ConnectX-3 Pro", kCa, S::FDR, 4},        // MT27520
    {0x1011, "Connect-IB", kCa, S::FDR, 4},            // MT27600
    {0x1013, "ConnectX-4", kCa, S::EDR, 4},            // MT27700
    {0x1017, "ConnectX-5", kCa, S::EDR, 4},            // MT27800
    {0x1019, "ConnectX-5 Ex", kCa, S::EDR, 4},         // MT28800
    {0x101b, "ConnectX-6", kCa, S::HDR, 4},            // MT28908
    {0x1021, "ConnectX-7", kCa, S::NDR, 4},            // MT2910
    {0x1023, "ConnectX-8", kCa, S::XDR, 4},            // CX8 Family
    {0xa2d2, "BlueField", kCa, S::EDR, 4},             // MT416842, integrated ConnectX-5
    {0xa2d6, "BlueField-2", kCa, S::HDR, 4},           // MT42822, integrated ConnectX-6
    {0xa2dc, "BlueField-3", kCa, S::NDR, 4},           // MT43244, integrated ConnectX-7
    // Switch ASICs. InfiniScale III also built 12x ports, but a cable between its 4x ports is
    // the usual build; PortInfo says where a port could do more.
    {0xa87c, "InfiniScale", kSwitch, S::SDR, 4},       // MT43132
    {0xb924, "InfiniScale III", kSwitch, S::DDR, 4},   // MT47396
    {0xbd34, "InfiniScale IV", kSwitch, S::SDR, 4},    // "IS4 IB SDR"
    {0xbd35, "InfiniScale IV", kSwitch, S::DDR, 4},    // "IS4 IB DDR"
    {0xbd36, "InfiniScale IV", kSwitch, S::QDR, 4},    // "IS4 IB QDR"
    {0xc738, "SwitchX", kSwitch, S::FDR, 4},           // MT51000 (SwitchX-2 reports the same id)
    {0xcb20, "Switch-IB", kSwitch, S::EDR, 4},         // MT52000
    {0xcf08, "Switch-IB 2", kSwitch, S::EDR, 4},       // MT53000
    {0xd2f0, "Quantum", kSwitch, S::HDR, 4},           // MT54000
    {0xd2f2, "Quantum-2", kSwitch, S::NDR, 4},         // MT54002
    {0xd2f4, "Quantum-3", kSwitch, S::XDR, 4},         // MT54004
};

// The table by device id, sorted when compiled: it is read once per cable end (50k lookups on
// an 8,192-HCA fabric), and a scan to the switch ASICs at its end took as long as the judging.
constexpr auto kById = [] {
  std::array<DeviceModel, std::size(kMellanox)> t{};
  std::copy(std::begin(kMellanox), std::end(kMellanox), t.begin());
  std::sort(t.begin(), t.end(), [](const DeviceModel& x, const DeviceModel& y) { return x.device_id < y.device_id; });
  return t;
}();
static_assert(std::adjacent_find(kById.begin(), kById.end(), [](const DeviceModel& x, const DeviceModel& y) {
                return x.device_id == y.device_id;
              }) == kById.end(),
              "one model per device id");

}  // namespace

const DeviceModel* find_device_model(uint32_t vendor_id, uint32_t device_id) {
  if (vendor_id != kVendorMellanoxIb && vendor_id != kVendorMellanoxPci) return nullptr;
  auto it = std::lower_bound(kById.begin(), kById.end(), device_id,
                             [](const DeviceModel& m, uint32_t id) { return m.device_id < id; });
  return it != kById.end() && it->device_id == device_id ? &*it : nullptr;
}

const DeviceModel* find_device_model(const FabricNode& node) {
  const DeviceModel* m = find_device_model(node.vendor_id, node.device_id);
  const bool is_switch = node.kind == NodeKind::Switch;
  return m && (m->kind == NodeKind::Switch) == is_switch ? m : nullptr;
}

std::string device_label(uint32_t vendor_id, uint32_t device_id) {
  char text[64];
  if (const DeviceModel* m = find_device_model(vendor_id, device_id)) {
    std::snprintf(text, sizeof text, "%s 0x%04x", m->name, device_id);
    return text;
  }
  if (vendor_id == 0 && device_id == 0) return "no device id";
  std::snprintf(text, sizeof text, "vendor 0x%06x device 0x%04x", vendor_id, device_id);
  return text;
}

}  // namespace slurmtopo
