// Written with ordered_json (fixed key order) so equal inventories give equal bytes; read
// strictly, because gres.conf is generated from what is read here. Schema errors are placed
// on their line by a second, position-tracking pass (json_line.h), only when one occurs.
#include "discover/node_json.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "discover/input_error.h"
#include "discover/json_line.h"

namespace slurmtopo {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kFormat = "slurmtopo-node";
constexpr int kVersion = 1;

std::string guid_string(uint64_t guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
  return buf;
}

ordered_json classes_json(const std::vector<std::vector<PathClass>>& m) {
  ordered_json rows = ordered_json::array();
  for (const auto& row : m) {
    ordered_json r = ordered_json::array();
    for (PathClass c : row) r.push_back(to_string(c));
    rows.push_back(std::move(r));
  }
  return rows;
}

// ---- reading ----------------------------------------------------------------------------

struct SchemaError {
  json::json_pointer where;
  std::string expected;
};

class Fields {
 public:
  Fields(const json& object, json::json_pointer at, std::initializer_list<const char*> keys)
      : object_(object), at_(std::move(at)) {
    if (!object_.is_object()) throw SchemaError{at_, "an object"};
    for (const auto& [key, value] : object_.items())
      if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; }))
        throw SchemaError{at_ / key, "only the keys of format version 1, not \"" + key + "\""};
    for (const char* k : keys)
      if (!object_.contains(k)) throw SchemaError{at_, std::string("the key \"") + k + "\""};
  }

  const json& get(const char* key) const { return object_.at(key); }
  json::json_pointer at(const char* key) const { return at_ / key; }

  std::string string(const char* key) const {
    if (!get(key).is_string()) throw SchemaError{at(key), quoted(key) + " to be a string"};
    return get(key).get<std::string>();
  }
  int64_t integer(const char* key, int64_t min, int64_t max) const {
    return integer_at(get(key), at(key), min, max, quoted(key));
  }
  bool boolean(const char* key) const {
    if (!get(key).is_boolean()) throw SchemaError{at(key), quoted(key) + " to be true or false"};
    return get(key).get<bool>();
  }
  uint64_t guid(const char* key) const { return guid_at(get(key), at(key), quoted(key)); }
  const json& array(const char* key) const {
    if (!get(key).is_array()) throw SchemaError{at(key), quoted(key) + " to be an array"};
    return get(key);
  }

  static int64_t integer_at(const json& v, const json::json_pointer& at, int64_t min, int64_t max,
                            const std::string& what) {
    if (!v.is_number_integer() || v.get<int64_t>() < min || v.get<int64_t>() > max)
      throw SchemaError{at, what + " to be an integer in " + std::to_string(min) + ".." + std::to_string(max)};
    return v.get<int64_t>();
  }
  static uint64_t guid_at(const json& v, const json::json_pointer& at, const std::string& what) {
    const std::string s = v.is_string() ? v.get<std::string>() : "";
    bool ok = s.size() > 2 && s.size() <= 18 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
              s.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
    if (!ok) throw SchemaError{at, what + " to be a GUID \"0x<hex>\""};
    return std::strtoull(s.c_str() + 2, nullptr, 16);
  }

 private:
  static std::string quoted(const char* key) { return std::string("\"") + key + "\""; }
  const json& object_;
  json::json_pointer at_;
};

std::vector<int> int_list(const Fields& f, const char* key, int64_t min, int64_t max) {
  std::vector<int> out;
  const json& a = f.array(key);
  for (size_t i = 0; i < a.size(); ++i)
    out.push_back(static_cast<int>(Fields::integer_at(a[i], f.at(key) / i, min, max,
                                                      std::string("each of \"") + key + "\"")));
  return out;
}

PathClass path_class(const json& v, const json::json_pointer& at) {
  for (PathClass c : {PathClass::PIX, PathClass::PXB, PathClass::PHB, PathClass::NODE, PathClass::SYS,
                      PathClass::Unknown})
    if (v.is_string() && v.get<std::string>() == to_string(c)) return c;
  throw SchemaError{at, "a path class: PIX, PXB, PHB, NODE, SYS or UNKNOWN"};
}

std::vector<std::vector<PathClass>> class_matrix(const Fields& f, const char* key, size_t rows, size_t cols) {
  const json& a = f.array(key);
  // [] = not known (a hand-written node): every pair Unknown, so the sizes still match.
  if (a.empty()) return std::vector<std::vector<PathClass>>(rows, std::vector<PathClass>(cols, PathClass::Unknown));
  if (a.size() != rows)
    throw SchemaError{f.at(key), std::string("\"") + key + "\" to have one row per GPU (" + std::to_string(rows) + ")"};
  std::vector<std::vector<PathClass>> m;
  for (size_t r = 0; r < rows; ++r) {
    const json::json_pointer at = f.at(key) / r;
    if (!a[r].is_array() || a[r].size() != cols)
      throw SchemaError{at, "a row of " + std::to_string(cols) + " path classes"};
    std::vector<PathClass> row;
    for (size_t c = 0; c < cols; ++c) row.push_back(path_class(a[r][c], at / c));
    m.push_back(std::move(row));
  }
  return m;
}

Gpu read_gpu(const json& j, const json::json_pointer& at, size_t position, size_t count) {
  Fields f(j, at, {"index", "vendor", "model", "slurm_type", "pci_busid", "device_file", "cores",
                   "numa_node", "socket", "nvlinks"});
  Gpu g;
  g.index = static_cast<int>(f.integer("index", 0, 1 << 20));
  if (static_cast<size_t>(g.index) != position)
    throw SchemaError{f.at("index"), "GPUs in Slurm index order, this one with \"index\": " + std::to_string(position)};
  g.vendor = f.string("vendor");
  g.model = f.string("model");
  g.slurm_type = f.string("slurm_type");
  g.pci_busid = f.string("pci_busid");
  g.device_file = f.string("device_file");
  g.cores = int_list(f, "cores", 0, 1 << 24);
  g.numa_node = static_cast<int>(f.integer("numa_node", -1, 1 << 20));
  g.socket = static_cast<int>(f.integer("socket", -1, 1 << 20));
  g.nvlinks = int_list(f, "nvlinks", -1, 1024);
  if (!g.nvlinks.empty() && g.nvlinks.size() != count)
    throw SchemaError{f.at("nvlinks"), "\"nvlinks\" empty or with one entry per GPU (" + std::to_string(count) + ")"};
  return g;
}

RdmaNic read_nic(const json& j, const json::json_pointer& at) {
  Fields f(j, at, {"name", "node_guid", "port_guids", "pci_busid", "link_layer", "numa_node", "socket"});
  RdmaNic n;
  n.name = f.string("name");
  n.node_guid = f.guid("node_guid");
  const json& ports = f.array("port_guids");
  for (size_t i = 0; i < ports.size(); ++i)
    n.port_guids.push_back(Fields::guid_at(ports[i], f.at("port_guids") / i, "each of \"port_guids\""));
  n.pci_busid = f.string("pci_busid");
  n.link_layer = f.string("link_layer");
  n.numa_node = static_cast<int>(f.integer("numa_node", -1, 1 << 20));
  n.socket = static_cast<int>(f.integer("socket", -1, 1 << 20));
  return n;
}

NodeInventory read_node(const json& root) {
  const json::json_pointer top;
  Fields f(root, top, {"format", "version", "hostname", "source", "sockets", "cores_per_socket",
                       "threads_per_core", "numa_nodes", "memory_mib", "gpus", "nics", "gpu_nic",
                       "gpu_gpu", "pci_bridges_missing", "warnings"});
  if (f.string("format") != kFormat) throw SchemaError{f.at("format"), "\"format\": \"slurmtopo-node\""};
  f.integer("version", kVersion, kVersion);
  NodeInventory n;
  n.hostname = f.string("hostname");
  n.source = f.string("source");
  n.sockets = static_cast<int>(f.integer("sockets", 1, 1 << 16));
  n.cores_per_socket = static_cast<int>(f.integer("cores_per_socket", 1, 1 << 20));
  n.threads_per_core = static_cast<int>(f.integer("threads_per_core", 1, 1024));
  n.numa_nodes = static_cast<int>(f.integer("numa_nodes", 0, 1 << 16));
  n.memory_mib = static_cast<uint64_t>(f.integer("memory_mib", 0, int64_t{1} << 50));
  const json& gpus = f.array("gpus");
  for (size_t i = 0; i < gpus.size(); ++i) n.gpus.push_back(read_gpu(gpus[i], f.at("gpus") / i, i, gpus.size()));
  const json& nics = f.array("nics");
  for (size_t i = 0; i < nics.size(); ++i) n.nics.push_back(read_nic(nics[i], f.at("nics") / i));
  n.gpu_nic = class_matrix(f, "gpu_nic", n.gpus.size(), n.nics.size());
  n.gpu_gpu = class_matrix(f, "gpu_gpu", n.gpus.size(), n.gpus.size());
  n.pci_bridges_missing = f.boolean("pci_bridges_missing");
  const json& warnings = f.array("warnings");
  for (size_t i = 0; i < warnings.size(); ++i) {
    if (!warnings[i].is_string()) throw SchemaError{f.at("warnings") / i, "each warning to be a string"};
    n.warnings.push_back(warnings[i].get<std::string>());
  }
  return n;
}

}  // namespace

std::string node_to_json(const NodeInventory& node) {
  ordered_json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j["hostname"] = node.hostname;
  j["source"] = node.source;
  j["sockets"] = node.sockets;
  j["cores_per_socket"] = node.cores_per_socket;
  j["threads_per_core"] = node.threads_per_core;
  j["numa_nodes"] = node.numa_nodes;
  j["memory_mib"] = node.memory_mib;
  ordered_json& gpus = j["gpus"] = ordered_json::array();
  for (const Gpu& g : node.gpus) {
    ordered_json o;
    o["index"] = g.index;
    o["vendor"] = g.vendor;
    o["model"] = g.model;
    o["slurm_type"] = g.slurm_type;
    o["pci_busid"] = g.pci_busid;
    o["device_file"] = g.device_file;
    o["cores"] = g.cores;
    o["numa_node"] = g.numa_node;
    o["socket"] = g.socket;
    o["nvlinks"] = g.nvlinks;
    gpus.push_back(std::move(o));
  }
  ordered_json& nics = j["nics"] = ordered_json::array();
  for (const RdmaNic& n : node.nics) {
    ordered_json o;
    o["name"] = n.name;
    o["node_guid"] = guid_string(n.node_guid);
    ordered_json& ports = o["port_guids"] = ordered_json::array();
    for (uint64_t p : n.port_guids) ports.push_back(guid_string(p));
    o["pci_busid"] = n.pci_busid;
    o["link_layer"] = n.link_layer;
    o["numa_node"] = n.numa_node;
    o["socket"] = n.socket;
    nics.push_back(std::move(o));
  }
  j["gpu_nic"] = classes_json(node.gpu_nic);
  j["gpu_gpu"] = classes_json(node.gpu_gpu);
  j["pci_bridges_missing"] = node.pci_bridges_missing;
  j["warnings"] = node.warnings;
  return j.dump(1) + "\n";
}

NodeInventory node_from_json(std::string_view text, const std::string& file) {
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    const int line = e.byte ? line_at_offset(text, e.byte - 1) : 0;
    // Keep nlohmann's reason, drop its "[json.exception...] parse error at line L, column C: ".
    const std::string what = e.what();
    const size_t reason = what.find(": ", what.find("parse error"));
    throw InputError(file, line, "expected valid JSON, " + (reason == std::string::npos ? what : what.substr(reason + 2)));
  }
  try {
    return read_node(root);
  } catch (const SchemaError& e) {
    throw InputError(file, json_line_of(text, e.where),
                     "expected " + e.expected + " (at " + (e.where.empty() ? "/" : e.where.to_string()) + ")");
  }
}

NodeInventory load_node_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, std::string("cannot read: ") + std::strerror(errno));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return node_from_json(text, path);
}

}  // namespace slurmtopo
