// Profile YAML → HardwareProfile. One table lists every key (its dotted path, what it must
// be, where it goes), so the reader, the "missing key" check and the error messages cannot
// disagree about the schema. It stays one file past 400 lines because that table, the reader
// that walks it and profile_for_node (which fills the same fields from a node's hardware) are
// one schema: split, a key added in one place would be missed in the other.
#include "simulate/collective/hardware_profile.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "base/files.h"
#include "base/input_error.h"
#include "base/yaml_fields.h"
#include "graph/node_join.h"
#include "simulate/collective/builtin_profiles.h"

namespace slurmtopo {

const char* to_string(Protocol p) {
  switch (p) {
    case Protocol::LL: return "LL";
    case Protocol::LL128: return "LL128";
    case Protocol::Simple: return "Simple";
  }
  return "?";
}

const char* to_string(Algorithm a) {
  switch (a) {
    case Algorithm::Ring: return "ring";
    case Algorithm::Tree: return "tree";
    case Algorithm::Nvls: return "nvls";
    case Algorithm::NvlsTree: return "nvlstree";
  }
  return "?";
}

double HardwareProfile::pcie_gbs() const {
  // NCCL counts 12 GB/s for Gen3 x16 and doubles per generation.
  return 12.0 * std::pow(2.0, pcie_gen - 3) * pcie_width / 16.0;
}

double HardwareProfile::pcie_line_gbs() const {
  // Per lane and direction after encoding (8b/10b to Gen2, 128b/130b to Gen5, FLIT for Gen6).
  static constexpr double kLane[] = {0, 0.25, 0.5, 0.985, 1.969, 3.938, 7.563};
  const int gen = std::clamp(pcie_gen, 0, 6);
  return kLane[gen] * pcie_width;
}

double HardwareProfile::nic_line_gbs() const { return lane_gbps(nic_speed) * 4 / 8.0; }

int HardwareProfile::compute_generation() const {
  return sm >= 100 ? 3 : sm >= 90 ? 2 : sm >= 80 ? 1 : 0;
}

double nic_effective_gbs(LinkSpeed speed) {
  switch (speed) {
    case LinkSpeed::EDR: return 12;
    case LinkSpeed::HDR: return 24;
    case LinkSpeed::NDR: return 48;
    case LinkSpeed::XDR: return 96;
    default: return lane_gbps(speed) * 4 / 8.0 * 0.96;
  }
}

namespace {

using Reader = YamlFields;

std::array<double, 3> triple(const Reader& r, const YAML::Node& v, const std::string& key, double hi) {
  if (!v.IsSequence() || v.size() != 3) r.fail(v, "expected `" + key + "` to be a list of three numbers");
  std::array<double, 3> out{};
  for (size_t i = 0; i < 3; ++i) out[i] = r.number(v[i], key + "[" + std::to_string(i) + "]", 0, hi);
  return out;
}

using Setter = std::function<void(const Reader&, const YAML::Node&, HardwareProfile&)>;

struct Field {
  std::string path;  // dotted key path
  bool required;     // without `base`
  Setter set;
};

constexpr double kMaxGbs = 1e4;
constexpr double kMaxUs = 1e6;

// The protocol names as NCCL_PROTO spells them.
std::array<bool, kProtocols> protocol_list(const Reader& r, const YAML::Node& v) {
  if (!v.IsSequence() || v.size() == 0)
    r.fail(v, "expected `protocols` to be a list of LL, LL128, Simple");
  std::array<bool, kProtocols> on{};
  for (const YAML::Node& item : v) {
    const std::string p = r.choice(item, "protocols", {"LL", "LL128", "Simple"});
    on[p == "LL" ? 0 : p == "LL128" ? 1 : 2] = true;
  }
  return on;
}

LinkSpeed nic_speed(const Reader& r, const YAML::Node& v) {
  std::string t = r.text(v, "nic.speed");
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::toupper(c); });
  const LinkSpeed s = parse_link_speed(t);
  if (s == LinkSpeed::Unknown || lane_gbps(s) < 25)
    r.fail(v, "expected `nic.speed` to be EDR, HDR, NDR or XDR, not `" + v.Scalar() + "`");
  return s;
}

void hw_latency(std::vector<Field>& f, const char* cls, HwLatency NcclConstants::*member) {
  const std::string p = std::string("nccl.hw_latency_us.") + cls + ".";
  auto path = [&](const char* leaf) { return p + leaf; };
  f.push_back({path("tree"), true, [member, p](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
                 (h.nccl.*member).tree = triple(r, v, p + "tree", kMaxUs);
               }});
  f.push_back({path("ring"), true, [member, p](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
                 (h.nccl.*member).ring = triple(r, v, p + "ring", kMaxUs);
               }});
  f.push_back({path("nvls"), true, [member, p](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
                 (h.nccl.*member).nvls = r.number(v, p + "nvls", 0, kMaxUs);
               }});
  f.push_back({path("nvlstree"), true, [member, p](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
                 (h.nccl.*member).nvlstree = r.number(v, p + "nvlstree", 0, kMaxUs);
               }});
}

std::vector<Field> make_fields() {
  std::vector<Field> f{
      {"name", true, [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.name = r.text(v, "name"); }},
      {"description", false,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.description = r.text(v, "description"); }},
      {"gpu.model", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.gpu_model = r.text(v, "gpu.model"); }},
      {"gpu.sm", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.sm = std::stoi(r.choice(v, "gpu.sm", {"70", "80", "90", "100"}));
       }},
      {"gpu.per_node", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.gpus_per_node = r.integer(v, "gpu.per_node", 1, 72); }},
      {"gpu.nvlink.links", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.nvlink_links = r.integer(v, "gpu.nvlink.links", 0, 64); }},
      {"gpu.nvlink.gbs_per_link", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nvlink_gbs_per_link = r.number(v, "gpu.nvlink.gbs_per_link", 0, kMaxGbs);
       }},
      {"gpu.nvlink.line_gbs_per_link", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nvlink_line_gbs_per_link = r.number(v, "gpu.nvlink.line_gbs_per_link", 0, kMaxGbs);
       }},
      {"gpu.nvswitch", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.nvswitch = r.boolean(v, "gpu.nvswitch"); }},
      {"gpu.nvls", true, [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.nvls = r.boolean(v, "gpu.nvls"); }},
      {"gpu.nvls_efficiency", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nvls_efficiency = r.number(v, "gpu.nvls_efficiency", 0, 1);
       }},
      {"gpu.nvlink.domain_nodes", false,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nvlink_domain_nodes = r.integer(v, "gpu.nvlink.domain_nodes", 1, 576);
       }},
      {"gpu.nvlink.domain_nics", false,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nvlink_domain_nics = r.integer(v, "gpu.nvlink.domain_nics", 0, 1024);
       }},
      {"gpu.nvlink.domain_nvls_gbs", false,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nvlink_domain_nvls_gbs = r.number(v, "gpu.nvlink.domain_nvls_gbs", 0, kMaxGbs);
       }},
      {"pcie.gen", true, [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.pcie_gen = r.integer(v, "pcie.gen", 1, 6); }},
      {"pcie.width", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.pcie_width = std::stoi(r.choice(v, "pcie.width", {"1", "2", "4", "8", "16"}));
       }},
      {"nic.speed", true, [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.nic_speed = nic_speed(r, v); }},
      {"nic.per_node", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.nics_per_node = r.integer(v, "nic.per_node", 1, 64); }},
      {"nic.gbs", true, [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.nic_gbs = r.number(v, "nic.gbs", 0.001, kMaxGbs); }},
      {"cpu", true, [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.cpu_vendor = r.choice(v, "cpu", {"intel", "amd", "arm"}); }},
      {"channels", true, [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.channels = r.integer(v, "channels", 1, 64); }},
      {"protocols", true, [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.protocols = protocol_list(r, v); }},
      {"nccl.base_latency_us.tree", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nccl.base_tree = triple(r, v, "nccl.base_latency_us.tree", kMaxUs);
       }},
      {"nccl.base_latency_us.ring", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nccl.base_ring = triple(r, v, "nccl.base_latency_us.ring", kMaxUs);
       }},
      {"nccl.ll_max_bw", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) { h.nccl.ll_max_bw = triple(r, v, "nccl.ll_max_bw", kMaxGbs); }},
      {"nccl.ring_ll128_per_channel", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nccl.ring_ll128_per_channel = triple(r, v, "nccl.ring_ll128_per_channel", kMaxGbs);
       }},
      {"nccl.tree_per_channel", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nccl.tree_per_channel = triple(r, v, "nccl.tree_per_channel", kMaxGbs);
       }},
      {"nccl.tree_ll128_per_channel", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.nccl.tree_ll128_per_channel = triple(r, v, "nccl.tree_ll128_per_channel", kMaxGbs);
       }},
      {"calibration.launch_us", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.calibration.launch_us = r.number(v, "calibration.launch_us", 0, kMaxUs);
       }},
      {"calibration.step_us", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.calibration.step_us = triple(r, v, "calibration.step_us", kMaxUs);
       }},
      {"calibration.net_jitter_us", true,
       [](const Reader& r, const YAML::Node& v, HardwareProfile& h) {
         h.calibration.net_jitter_us = r.number(v, "calibration.net_jitter_us", 0, kMaxUs);
       }},
  };
  hw_latency(f, "nvlink", &NcclConstants::nvlink);
  hw_latency(f, "pci", &NcclConstants::pci);
  hw_latency(f, "net", &NcclConstants::net);
  return f;
}

const std::vector<Field>& fields() {
  static const std::vector<Field> kFields = make_fields();
  return kFields;
}

// Keys allowed directly under `prefix` ("" for the top level, "gpu.", "nccl.hw_latency_us.").
std::vector<std::string> keys_under(const std::string& prefix) {
  std::vector<std::string> out;
  if (prefix.empty()) out.push_back("base");
  for (const Field& f : fields()) {
    const std::string& p = f.path;
    if (p.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = p.substr(prefix.size());
    const std::string key = rest.substr(0, rest.find('.'));
    if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
  }
  return out;
}

bool is_leaf(const std::string& path) {
  return std::any_of(fields().begin(), fields().end(), [&](const Field& f) { return path == f.path; });
}

// Walks a map at `prefix`, setting every leaf it holds; records the leaves seen.
void read_map(const Reader& r, const YAML::Node& map, const std::string& prefix, HardwareProfile& h,
              std::map<std::string, int>& seen) {
  std::string where = "the profile";
  if (!prefix.empty()) {
    where = prefix;  // "gpu." → "`gpu`"
    where.back() = '`';
    where.insert(where.begin(), '`');
  }
  if (!map.IsMap()) r.fail(map, "expected " + where + " to be a map with keys " + Reader::join(keys_under(prefix)));
  std::set<std::string> keys;
  for (const auto& kv : map) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    const std::string path = prefix + key;
    const std::vector<std::string> allowed = keys_under(prefix);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      r.fail(kv.first, "unknown key `" + path + "`; expected one of " + Reader::join(allowed));
    if (!keys.insert(key).second) r.fail(kv.first, "expected `" + path + "` only once");
    if (path == "base") continue;  // handled by the caller
    if (is_leaf(path)) {
      for (const Field& f : fields())
        if (path == f.path) f.set(r, kv.second, h);
      seen[path] = yaml_line(kv.first);
    } else {
      read_map(r, kv.second, path + ".", h, seen);
    }
  }
}

// Rules that tie several keys together; `seen` gives lines for the message.
void check_consistency(const Reader& r, const HardwareProfile& h, const std::map<std::string, int>& seen) {
  // The line of the first of `keys` this file sets (a rule may break through any of them).
  auto fail = [&](std::initializer_list<const char*> keys, const std::string& what) {
    for (const char* key : keys)
      if (const auto it = seen.find(key); it != seen.end()) throw InputError(r.file(), it->second, what);
    throw InputError(r.file(), 0, what);
  };
  if (h.nvlink_links > 0 && h.nvlink_gbs_per_link <= 0)
    fail({"gpu.nvlink.gbs_per_link", "gpu.nvlink.links"}, "expected `gpu.nvlink.gbs_per_link` > 0 when the GPUs have NVLink links");
  if (h.nvlink_gbs_per_link > h.nvlink_line_gbs_per_link)
    fail({"gpu.nvlink.gbs_per_link", "gpu.nvlink.line_gbs_per_link"},
         "expected `gpu.nvlink.gbs_per_link` at most `line_gbs_per_link`: no link carries more than its "
         "signalling rate");
  if (h.nvls && !h.nvswitch) fail({"gpu.nvls", "gpu.nvswitch"}, "expected `gpu.nvls: false` without `gpu.nvswitch`: NVLS is NVSwitch's");
  if (h.nvlink_domain_nodes > 1 && !h.nvswitch)
    fail({"gpu.nvlink.domain_nodes", "gpu.nvswitch"},
         "expected `gpu.nvswitch: true` with `gpu.nvlink.domain_nodes` above 1: a multi-node NVLink domain is "
         "joined by NVLink switches");
  if (h.nvls && h.nvls_efficiency <= 0)
    fail({"gpu.nvls_efficiency", "gpu.nvls"}, "expected `gpu.nvls_efficiency` > 0 when `gpu.nvls` is true");
  if (h.nic_gbs > h.nic_line_gbs())
    fail({"nic.gbs", "nic.speed"}, "expected `nic.gbs` at most the " + std::string(to_string(h.nic_speed)) +
                        " line rate of " + std::to_string(static_cast<int>(h.nic_line_gbs())) + " GB/s");
  if (!h.protocols[static_cast<int>(Protocol::Simple)])
    fail({"protocols"}, "expected `protocols` to include Simple: NVLS and the large messages need it");
}

HardwareProfile parse_with_base(const std::string& yaml, const std::string& source, int depth);

HardwareProfile builtin(const std::string& name, int depth) {
  const std::string text = builtin_profile_text(name);
  if (text.empty()) return {};
  return parse_with_base(text, "builtin:" + name, depth);
}

HardwareProfile parse_with_base(const std::string& yaml, const std::string& source, int depth) {
  const YAML::Node root = load_yaml(yaml, source);
  const Reader r(source);
  if (!root.IsMap()) r.fail(root, "expected a hardware profile: a map with keys " + Reader::join(keys_under("")));

  HardwareProfile h;
  const bool has_base = static_cast<bool>(root["base"]);
  if (has_base) {
    const YAML::Node b = root["base"];
    const std::string name = r.text(b, "base");
    if (depth > 4) r.fail(b, "expected `base` chains of at most 4 profiles");
    h = builtin(name, depth + 1);
    if (h.name.empty())
      r.fail(b, "expected `base` to name a shipped profile (" + Reader::join(builtin_profile_names()) +
                    "), not `" + name + "`");
  }
  std::map<std::string, int> seen;
  read_map(r, root, "", h, seen);
  if (!has_base)
    for (const Field& f : fields())
      if (f.required && !seen.count(f.path))
        throw InputError(source, 0, "missing key `" + f.path + "` (or start from a shipped profile with `base:`)");
  check_consistency(r, h, seen);
  h.source = source;
  return h;
}

bool looks_like_path(const std::string& s) {
  auto ends = [&](const char* suffix) {
    const std::string x = suffix;
    return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
  };
  return s.find('/') != std::string::npos || ends(".yaml") || ends(".yml");
}

}  // namespace

std::vector<std::string> builtin_profile_names() {
  std::vector<std::string> out;
  for (const BuiltinProfile& p : builtin_profiles()) out.emplace_back(p.name);
  std::sort(out.begin(), out.end());
  return out;
}

std::string builtin_profile_text(const std::string& name) {
  for (const BuiltinProfile& p : builtin_profiles())
    if (p.name == name) return std::string(p.yaml);
  return {};
}

HardwareProfile parse_profile(const std::string& yaml, const std::string& source) {
  return parse_with_base(yaml, source, 0);
}

HardwareProfile load_profile(const std::string& name_or_path) {
  if (!looks_like_path(name_or_path)) {
    HardwareProfile h = builtin(name_or_path, 0);
    if (h.name.empty())
      throw InputError("--profile", 0,
                       "expected a shipped profile (" + Reader::join(builtin_profile_names()) +
                           ") or a YAML file, not `" + name_or_path + "`");
    return h;
  }
  return parse_profile(read_file(name_or_path, "the hardware profile"), name_or_path);
}

HardwareProfile profile_for_node(const NodeInventory& node, LinkSpeed speed) {
  const std::string source = node.source.empty() ? node.hostname : node.source;
  if (node.gpus.empty()) throw InputError(source, 0, "expected GPUs in " + node.hostname + " to simulate collectives on");
  const std::string type = node.gpus.front().slurm_type;
  static const std::map<std::string, std::string> kByType{
      {"a100", "a100-hdr"}, {"h100", "h100-ndr"}, {"h200", "h200-ndr"}, {"b200", "b200-ndr"},
      {"gb200", "gb200-nvl72"}, {"gb300", "gb300-nvl72"}};
  const auto it = kByType.find(type);
  if (it == kByType.end())
    throw InputError(source, 0,
                     "no shipped hardware profile for GPU type `" + type +
                         "` (a100, h100, h200, b200, gb200, gb300); give --profile with a profile file");
  HardwareProfile h = load_profile(it->second);
  h.name += " (" + node.hostname + ")";
  h.source = source;
  h.gpus_per_node = static_cast<int>(node.gpus.size());

  // Direct GPU-GPU NVLink (no NVSwitch): the fewest links any GPU has is what a ring through
  // every GPU can count on. On NVSwitch systems the profile's count stands unless the export
  // counted each GPU's links into the switches.
  int direct = -1;
  for (const Gpu& g : node.gpus) {
    if (g.nvlinks.empty()) continue;
    int sum = 0;
    for (size_t j = 0; j < g.nvlinks.size(); ++j)
      if (static_cast<int>(j) != g.index && g.nvlinks[j] > 0) sum += g.nvlinks[j];
    direct = direct < 0 ? sum : std::min(direct, sum);
  }
  if (direct >= 0) {
    h.nvlink_links = direct;
    h.nvswitch = false;
    h.nvls = false;
  } else if (!node.gpus.empty()) {
    // NVSwitch: the fewest links into the switches any GPU has (one link down is one fewer).
    int switched = node.gpus.front().nvswitch_links;
    for (const Gpu& g : node.gpus) switched = std::min(switched, g.nvswitch_links);
    if (switched > 0) h.nvlink_links = switched;
  }

  // Rails: the distinct NICs the GPUs send through, as NCCL picks them.
  std::set<int> used;
  for (const NicChoice& c : nearest_nics(node))
    if (c.nic >= 0 && node.nics[c.nic].link_layer != "Ethernet") used.insert(c.nic);
  if (!used.empty()) h.nics_per_node = static_cast<int>(used.size());
  if (speed != LinkSpeed::Unknown) {
    h.nic_speed = speed;
    h.nic_gbs = nic_effective_gbs(speed);
  }
  return h;
}

}  // namespace slurmtopo
