#include "discover/node_probe.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <optional>

#include "base/input_error.h"
#include "base/lines.h"
#include "base/numbers.h"
#include "base/text.h"

namespace slurmtopo {
namespace {

// Leading decimal of "32.0 GT/s PCIe", "400 Gb/sec (4X NDR)", "16x"; 0 when none.
double leading_number(std::string_view s) {
  std::string text(trim(s));
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  return end == text.c_str() || !std::isfinite(v) || v < 0 ? 0 : v;
}

int whole_or(std::string_view s, int fallback) {
  long v = 0;
  return parse_long(trim(s), v) && v >= 0 && v < 1000000 ? static_cast<int>(v) : fallback;
}

// nvidia-smi prints the PCI domain with 8 digits ("00000000:1b:00.0"); sysfs and hwloc use 4.
std::string short_bus_id(std::string_view id) {
  std::string s(trim(id));
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s.size() == 16 && s[8] == ':' && s.starts_with("0000")) s.erase(0, 4);
  return s;
}

// "libnccl.so.2.21.5" → "2.21.5"; "" for "libnccl.so.2" (a link name, no full version).
std::string nccl_version(std::string_view path) {
  const size_t at = path.rfind("libnccl.so.");
  if (at == std::string_view::npos) return "";
  std::string_view v = path.substr(at + 11);
  return std::count(v.begin(), v.end(), '.') >= 2 ? std::string(v) : "";
}

RdmaPort parse_port(std::string_view line, const std::string& source, int n) {
  RdmaPort p;
  size_t start = 0;
  bool first = true;
  while (start <= line.size()) {
    size_t tab = line.find('\t', start);
    if (tab == std::string_view::npos) tab = line.size();
    std::string_view field = line.substr(start, tab - start);
    start = tab + 1;
    if (first) {
      p.device = std::string(field);
      first = false;
      continue;
    }
    const size_t eq = field.find('=');
    if (eq == std::string_view::npos)
      throw InputError(source, n, "expected KEY=VALUE fields after the device in an [ib] line, got '" +
                                      std::string(snippet(field)) + "'");
    const std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
    // sysfs writes "4: ACTIVE" and "5: LinkUp": the name is what admins read.
    auto named = [](std::string_view v) {
      const size_t colon = v.find(": ");
      return std::string(trim(colon == std::string_view::npos ? v : v.substr(colon + 2)));
    };
    if (key == "port") p.port = whole_or(value, 0);
    else if (key == "state") p.state = named(value);
    else if (key == "phys_state") p.phys_state = named(value);
    else if (key == "rate") p.rate = std::string(value), p.rate_gbps = leading_number(value);
    else if (key == "link_layer") p.link_layer = std::string(value);
    else if (key == "pci") p.pci = std::string(value);
    else if (key == "fw") p.firmware = std::string(value);
  }
  if (p.device.empty() || p.port <= 0)
    throw InputError(source, n, "expected 'DEVICE<TAB>port=N<TAB>...' in [ib], got '" + std::string(snippet(line)) + "'");
  return p;
}

enum class Section { Head, Pci, Ib, Gdr, Verbs, Cuda, Env, NvidiaSmi, Missing };

}  // namespace

int pcie_generation(double gts) {
  constexpr double kSpeeds[] = {2.5, 5, 8, 16, 32, 64};
  for (int i = 0; i < 6; ++i)
    if (std::abs(gts - kSpeeds[i]) < 0.05) return i + 1;
  return 0;
}

std::string NodeProbe::cuda_in_use() const { return !toolkit_cuda.empty() ? toolkit_cuda : env_cuda; }

const std::string* NodeProbe::env(std::string_view name) const {
  for (const auto& [k, v] : nccl_env)
    if (k == name) return &v;
  return nullptr;
}

PciFunction parse_pci_function(std::string_view line, const std::string& source, int n) {
  auto bad = [&](const std::string& what) {
    return InputError(source, n, "expected 'BDF class=0x.. vendor=0x.. device=0x.. numa=N link=SPEED/WIDTH "
                                 "max=SPEED/WIDTH' in [pci]: " + what);
  };
  PciFunction f;
  const size_t link_at = line.find(" link="), max_at = line.find(" max=");
  if (link_at == std::string_view::npos || max_at == std::string_view::npos || max_at < link_at)
    throw bad("no link= and max= in '" + std::string(snippet(line)) + "'");
  std::string_view head = line.substr(0, link_at);
  const size_t sp = head.find(' ');
  f.bdf = std::string(head.substr(0, sp));
  if (f.bdf.size() < 7 || f.bdf.find(':') == std::string::npos) throw bad("'" + f.bdf + "' is not a PCI address");
  std::string_view rest = sp == std::string_view::npos ? std::string_view{} : head.substr(sp + 1);
  while (!rest.empty()) {
    const size_t next = rest.find(' ');
    std::string_view field = rest.substr(0, next);
    rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next + 1);
    const size_t eq = field.find('=');
    if (eq == std::string_view::npos) throw bad("'" + std::string(field) + "' is not KEY=VALUE");
    const std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
    if (key == "numa") {
      long v = -1;
      f.numa = parse_long(value, v) ? static_cast<int>(v) : -1;
      continue;
    }
    const std::optional<uint64_t> v = parse_uint64(value);
    if (key == "class") f.class_code = v ? static_cast<uint32_t>(*v) : 0;
    else if (key == "vendor") f.vendor = v ? static_cast<uint16_t>(*v) : 0;
    else if (key == "device") f.device = v ? static_cast<uint16_t>(*v) : 0;
  }
  // "32.0 GT/s PCIe/16": the speed has spaces, the width follows the last '/'.
  auto link = [&](std::string_view s, double& speed, int& width) {
    const size_t slash = s.rfind('/');
    if (slash == std::string_view::npos) throw bad("expected SPEED/WIDTH, got '" + std::string(s) + "'");
    speed = leading_number(s.substr(0, slash));
    width = whole_or(s.substr(slash + 1), 0);
  };
  link(line.substr(link_at + 6, max_at - link_at - 6), f.speed, f.width);
  const size_t up_at = line.find(" up=", max_at);  // not in records before the field existed
  link(line.substr(max_at + 5, up_at == std::string_view::npos ? std::string_view::npos : up_at - max_at - 5),
       f.max_speed, f.max_width);
  if (up_at != std::string_view::npos) link(line.substr(up_at + 4), f.up_max_speed, f.up_max_width);
  return f;
}

NvidiaSmi parse_nvidia_smi_q(std::string_view text, const std::string& source, int first_line) {
  (void)source;  // every line of nvidia-smi -q is optional: nothing here is an error
  NvidiaSmi smi;
  smi.present = true;
  LineReader lines(text);
  std::string_view line;
  // Keys nest by indentation (4 spaces a level): keep the path to the current key.
  std::vector<std::pair<size_t, std::string>> path;
  GpuReport* gpu = nullptr;
  while (lines.next(line)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t indent = line.find_first_not_of(' ');
    if (indent == std::string_view::npos) continue;
    std::string_view body = line.substr(indent);
    const size_t colon = body.find(" : ");
    std::string key(trim(colon == std::string_view::npos ? body : body.substr(0, colon)));
    const std::string value(colon == std::string_view::npos ? "" : trim(body.substr(colon + 3)));
    while (!path.empty() && path.back().first >= indent) path.pop_back();
    if (indent == 0 && key.starts_with("GPU ")) {
      smi.gpus.push_back({});
      gpu = &smi.gpus.back();
      gpu->bus_id = short_bus_id(key.substr(4));
      gpu->line = first_line + lines.number() - 1;
      path.clear();
      path.emplace_back(indent, "GPU");
      continue;
    }
    if (colon == std::string_view::npos) {
      path.emplace_back(indent, key);
      continue;
    }
    if (indent == 0 || !gpu) {
      if (key == "Driver Version") smi.driver = value;
      else if (key == "CUDA Version") smi.cuda = value;
      continue;
    }
    std::string where;
    for (const auto& [_, k] : path) where += k + "/";
    where += key;
    const int number = value == "N/A" ? -1 : whole_or(value.substr(0, value.find_first_not_of("0123456789")), -1);
    const bool yes = value == "Yes";
    if (where == "GPU/Product Name") gpu->name = value;
    else if (where.ends_with("GPU Link Info/PCIe Generation/Max")) gpu->gen_max = number;
    else if (where.ends_with("GPU Link Info/PCIe Generation/Current")) gpu->gen_current = number;
    else if (where.ends_with("GPU Link Info/PCIe Generation/Host Max")) gpu->host_gen_max = number;
    else if (where.ends_with("GPU Link Info/Link Width/Max")) gpu->width_max = number;
    else if (where.ends_with("GPU Link Info/Link Width/Current")) gpu->width_current = number;
    else if (where == "GPU/Remapped Rows/Pending") gpu->remap_pending = yes;
    else if (where == "GPU/Remapped Rows/Remapping Failure Occurred") gpu->remap_failed = yes;
    // Pages retired before Ampere: "Pending Page Blacklist" (older drivers: "Pending").
    else if (where == "GPU/Retired Pages/Pending Page Blacklist" || where == "GPU/Retired Pages/Pending")
      gpu->retire_pending = yes;
    else if (where == "GPU/ECC Errors/Aggregate/DRAM Uncorrectable" && number >= 0)
      gpu->dram_uncorrectable = number;
  }
  return smi;
}

NodeProbe parse_node_probe(std::string_view text, const std::string& source) {
  NodeProbe p;
  p.source = source;
  LineReader lines(text);
  std::string_view line;
  if (!lines.next(line) || line != "slurmtopo-probe 1")
    throw InputError(source, 1, line.starts_with("slurmtopo-probe ")
                                    ? "a record of probe format 1; this one is '" + std::string(snippet(line)) +
                                          "' (a newer slurmtopo's collect?)"
                                    : "a node probe record ('slurmtopo-probe 1', written by `slurmtopo collect`)");
  Section section = Section::Head;
  size_t smi_start = 0;
  int smi_line = 0;
  size_t offset = line.size() + 1;
  auto end_smi = [&](size_t at) {
    // An empty section: the probe found no nvidia-smi (it says so under [missing]).
    if (section == Section::NvidiaSmi && !trim(text.substr(smi_start, at - smi_start)).empty())
      p.nvidia_smi = parse_nvidia_smi_q(text.substr(smi_start, at - smi_start), source, smi_line);
  };
  while (lines.next(line)) {
    const size_t here = offset;
    offset += line.size() + 1;
    if (line == "slurmtopo-probe-end") {
      end_smi(here);
      section = Section::Head;
      p.complete = true;
      break;
    }
    if (line.size() > 2 && line.front() == '[' && line.back() == ']') {
      end_smi(here);
      const std::string_view name = line.substr(1, line.size() - 2);
      static constexpr std::pair<std::string_view, Section> kSections[] = {
          {"pci", Section::Pci},   {"ib", Section::Ib},   {"gdr", Section::Gdr},
          {"verbs", Section::Verbs}, {"cuda", Section::Cuda}, {"env", Section::Env},
          {"nvidia-smi", Section::NvidiaSmi}, {"missing", Section::Missing}};
      auto it = std::find_if(std::begin(kSections), std::end(kSections), [&](auto& s) { return s.first == name; });
      if (it == std::end(kSections))
        throw InputError(source, lines.number(), "unknown section '" + std::string(name) + "' in a node probe record");
      section = it->second;
      if (section == Section::NvidiaSmi) smi_start = offset, smi_line = lines.number() + 1;
      continue;
    }
    if (section == Section::NvidiaSmi) continue;  // read as one block above
    if (line.empty()) continue;
    const size_t sp = line.find(' ');
    const std::string_view word = line.substr(0, sp);
    const std::string_view value = sp == std::string_view::npos ? std::string_view{} : line.substr(sp + 1);
    switch (section) {
      case Section::Head:
        if (word == "where") p.where = std::string(value);
        else if (word == "host") p.host = std::string(value);
        else if (word == "kernel") p.kernel = std::string(value);
        break;
      case Section::Pci: p.pci.push_back(parse_pci_function(line, source, lines.number())); break;
      case Section::Ib: p.ports.push_back(parse_port(line, source, lines.number())); break;
      case Section::Gdr:
        if (word == "nvidia") {
          p.nvidia_module = std::string(value);
          p.open_module = value.find("Open Kernel Module") != std::string_view::npos;
        } else if (word == "module" || word.find("memory_peers") != std::string_view::npos ||
                   word.find("peermem") != std::string_view::npos) {
          p.peermem = true;
        }
        break;
      case Section::Verbs:
        if (word == "dev") p.rdma_devices.emplace_back(value);
        else if (word == "lib") p.libibverbs = true;
        else if (word == "provider" || word == "providerlib") p.providers.emplace_back(value.substr(0, value.find(' ')));
        break;
      case Section::Cuda:
        if (word == "toolkit") p.toolkit_cuda = std::string(value);
        else if (word == "CUDA_VERSION") p.env_cuda = std::string(value);
        else if (word == "compat") p.cuda_compat = true;
        else if (word == "nccl")
          if (std::string v = nccl_version(value); !v.empty() &&
              std::find(p.nccl_versions.begin(), p.nccl_versions.end(), v) == p.nccl_versions.end())
            p.nccl_versions.push_back(std::move(v));
        break;
      case Section::Env:
        if (const size_t eq = line.find('='); eq != std::string_view::npos)
          p.nccl_env.emplace_back(std::string(line.substr(0, eq)), std::string(line.substr(eq + 1)));
        break;
      case Section::Missing: p.missing.emplace_back(line); break;
      case Section::NvidiaSmi: break;
    }
  }
  if (!p.complete) end_smi(text.size());
  return p;
}

}  // namespace slurmtopo
