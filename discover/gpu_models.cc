#include "discover/gpu_models.h"

#include <array>
#include <cctype>
#include <vector>

namespace slurmtopo {
namespace {

struct KnownDevice {
  unsigned vendor, device;
  const char* model;
  const char* type;
};

// Data-centre GPUs seen in cluster exports (pci.ids names). AMD 0x740c is absent on purpose:
// it is both MI250 and MI250X, so the name has to decide.
constexpr std::array<KnownDevice, 31> kDevices{{
    {kPciVendorNvidia, 0x06d2, "Tesla M2070", "m2070"},
    {kPciVendorNvidia, 0x1094, "Tesla M2075", "m2075"},
    {kPciVendorNvidia, 0x1023, "Tesla K40m", "k40m"},
    {kPciVendorNvidia, 0x1024, "Tesla K40c", "k40c"},
    {kPciVendorNvidia, 0x102d, "Tesla K80", "k80"},
    {kPciVendorNvidia, 0x15f7, "Tesla P100-PCIE-12GB", "p100"},
    {kPciVendorNvidia, 0x15f8, "Tesla P100-PCIE-16GB", "p100"},
    {kPciVendorNvidia, 0x15f9, "Tesla P100-SXM2-16GB", "p100"},
    {kPciVendorNvidia, 0x1db1, "Tesla V100-SXM2-16GB", "v100"},
    {kPciVendorNvidia, 0x1db4, "Tesla V100-PCIE-16GB", "v100"},
    {kPciVendorNvidia, 0x1db5, "Tesla V100-SXM2-32GB", "v100"},
    {kPciVendorNvidia, 0x1db6, "Tesla V100-PCIE-32GB", "v100"},
    {kPciVendorNvidia, 0x1db8, "Tesla V100-SXM3-32GB", "v100"},
    {kPciVendorNvidia, 0x1eb8, "Tesla T4", "t4"},
    {kPciVendorNvidia, 0x20b0, "NVIDIA A100-SXM4-40GB", "a100"},
    {kPciVendorNvidia, 0x20b2, "NVIDIA A100-SXM4-80GB", "a100"},
    {kPciVendorNvidia, 0x20b5, "NVIDIA A100 80GB PCIe", "a100"},
    {kPciVendorNvidia, 0x20f1, "NVIDIA A100-PCIE-40GB", "a100"},
    {kPciVendorNvidia, 0x2330, "NVIDIA H100 80GB HBM3", "h100"},
    {kPciVendorNvidia, 0x2331, "NVIDIA H100 PCIe", "h100"},
    {kPciVendorNvidia, 0x2335, "NVIDIA H200", "h200"},
    {kPciVendorNvidia, 0x2901, "NVIDIA B200", "b200"},
    {kPciVendorNvidia, 0x2941, "NVIDIA GB200", "gb200"},
    // 0x66a1 is also the Radeon Pro VII workstation card; in clusters it is the MI50 32GB.
    {kPciVendorAmd, 0x66a1, "AMD Instinct MI50 32GB", "mi50"},
    {kPciVendorAmd, 0x738c, "AMD Instinct MI100", "mi100"},
    {kPciVendorAmd, 0x7408, "AMD Instinct MI250X", "mi250x"},
    {kPciVendorAmd, 0x740f, "AMD Instinct MI210", "mi210"},
    {kPciVendorAmd, 0x74a0, "AMD Instinct MI300A", "mi300a"},
    {kPciVendorAmd, 0x74a1, "AMD Instinct MI300X", "mi300x"},
    {kPciVendorAmd, 0x74a5, "AMD Instinct MI325X", "mi325x"},
    {kPciVendorAmd, 0x74b5, "AMD Instinct MI300X VF", "mi300x"},
}};

const KnownDevice* find_device(unsigned vendor, unsigned device) {
  for (const auto& d : kDevices)
    if (d.vendor == vendor && d.device == device) return &d;
  return nullptr;
}

std::vector<std::string> lowercase_words(std::string_view s) {
  std::vector<std::string> words;
  std::string word;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }

// prefix, 1-4 digits, at most two letters: "h100", "t4", "k40m", "l40s", "a6000", "gh200".
// Chip codes ("gv100gl", "tu104gl", "ga100") and sizes ("80gb", "hbm3", "sxm4") fail it.
bool is_product_word(const std::string& w, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes) {
    if (w.size() <= p.size() || w.compare(0, p.size(), p) != 0) continue;
    size_t i = p.size(), digits = 0;
    while (i < w.size() && is_digit(w[i])) ++i, ++digits;
    size_t letters = 0;
    while (i < w.size() && is_lower(w[i])) ++i, ++letters;
    if (i == w.size() && digits >= 1 && digits <= 4 && letters <= 2) return true;
  }
  return false;
}

// The name as gres.conf can carry it: what slurmd's AutoDetect does (lowercase, spaces to
// underscores), plus any other character outside [a-z0-9._-] to '_'.
std::string safe_type(std::string_view model) {
  std::string out;
  for (char c : model) {
    const char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool keep = is_lower(l) || is_digit(l) || l == '.' || l == '-';
    if (keep) out += l;
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

}  // namespace

std::string slurm_gpu_type(std::string_view model, unsigned vendor_id, unsigned device_id) {
  const KnownDevice* known = find_device(vendor_id, device_id);
  if (vendor_id == kPciVendorAmd && known) return known->type;
  const std::vector<std::string> words = lowercase_words(model);
  for (const auto& w : words) {
    if (vendor_id == kPciVendorAmd ? is_product_word(w, {"mi"})
                                   : is_product_word(w, {"gb", "gh", "a", "b", "h", "k", "l", "m", "p", "t", "v"}))
      return w;
  }
  if (known) return known->type;
  return safe_type(model);
}

std::string pci_gpu_model(unsigned vendor_id, unsigned device_id) {
  const KnownDevice* known = find_device(vendor_id, device_id);
  return known ? known->model : "";
}

unsigned nvlink_link_bandwidth(std::string_view type) {
  for (std::string_view t : {"p100"})
    if (type == t) return 20000;
  for (std::string_view t : {"v100", "a100", "a800", "a30", "a40", "a6000", "h100", "h200", "h800", "h20", "gh200"})
    if (type == t) return 25000;
  return 0;
}

}  // namespace slurmtopo
