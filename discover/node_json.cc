// Written with ordered_json (fixed key order) so equal inventories give equal bytes; read
// strictly, because gres.conf is generated from what is read here. Schema errors are placed
// on their line only when one occurs (json_fields.h).
#include "discover/node_json.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "base/files.h"
#include "base/input_error.h"
#include "base/json_fields.h"
#include "base/version.h"

namespace slurmtopo {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kFormat = "slurmtopo-node";
// Version 2 added each GPU's "nvswitch_links"; version 1 files (without it) still read.
constexpr int kVersion = 2;
constexpr int kOldestVersion = 1;

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

std::vector<int> int_list(const JsonFields& f, const char* key, int64_t min, int64_t max) {
  std::vector<int> out;
  const json& a = f.array(key);
  for (size_t i = 0; i < a.size(); ++i)
    out.push_back(static_cast<int>(JsonFields::integer_at(a[i], f.at(key) / i, min, max,
                                                      std::string("each of \"") + key + "\"")));
  return out;
}

PathClass path_class(const json& v, const json::json_pointer& at) {
  for (PathClass c : {PathClass::PIX, PathClass::PXB, PathClass::PHB, PathClass::NODE, PathClass::SYS,
                      PathClass::Unknown})
    if (v.is_string() && v.get<std::string>() == to_string(c)) return c;
  throw JsonSchemaError{at, "a path class: PIX, PXB, PHB, NODE, SYS or UNKNOWN"};
}

// A GPU against itself: X, as nvidia-smi topo -m prints it (older slurmtopo wrote PIX there,
// hand-written files may say UNKNOWN: any path class reads as X).
PathClass self_class(const json& v, const json::json_pointer& at) {
  if (v.is_string() && v.get<std::string>() == to_string(PathClass::X)) return PathClass::X;
  path_class(v, at);
  return PathClass::X;
}

// `square`: gpu_gpu, whose diagonal is X and only the diagonal.
std::vector<std::vector<PathClass>> class_matrix(const JsonFields& f, const char* key, size_t rows, size_t cols,
                                                 bool square) {
  const json& a = f.array(key);
  // [] = not known (a hand-written node): every pair Unknown, so the sizes still match.
  if (a.empty()) {
    std::vector<std::vector<PathClass>> m(rows, std::vector<PathClass>(cols, PathClass::Unknown));
    for (size_t r = 0; square && r < rows; ++r) m[r][r] = PathClass::X;
    return m;
  }
  if (a.size() != rows)
    throw JsonSchemaError{f.at(key), std::string("\"") + key + "\" to have one row per GPU (" + std::to_string(rows) + ")"};
  std::vector<std::vector<PathClass>> m;
  for (size_t r = 0; r < rows; ++r) {
    const json::json_pointer at = f.at(key) / r;
    if (!a[r].is_array() || a[r].size() != cols)
      throw JsonSchemaError{at, "a row of " + std::to_string(cols) + " path classes"};
    std::vector<PathClass> row;
    for (size_t c = 0; c < cols; ++c) {
      if (square && c == r) {
        row.push_back(self_class(a[r][c], at / c));
        continue;
      }
      if (a[r][c].is_string() && a[r][c].get<std::string>() == to_string(PathClass::X))
        throw JsonSchemaError{at / c, std::string("a path class: PIX, PXB, PHB, NODE, SYS or UNKNOWN (X is ") +
                                          (square ? "a GPU against itself, only on the diagonal)" : "a device against itself)")};
      row.push_back(path_class(a[r][c], at / c));
    }
    m.push_back(std::move(row));
  }
  return m;
}

JsonFields gpu_fields(const json& j, const json::json_pointer& at, int version) {
  if (version == 1)
    return JsonFields(j, at, {"index", "vendor", "model", "slurm_type", "pci_busid", "device_file", "cores",
                              "numa_node", "socket", "nvlinks"}, 1, true);
  return JsonFields(j, at, {"index", "vendor", "model", "slurm_type", "pci_busid", "device_file", "cores",
                            "numa_node", "socket", "nvlinks", "nvswitch_links"}, version, true);
}

Gpu read_gpu(const json& j, const json::json_pointer& at, size_t position, size_t count, int version) {
  const JsonFields f = gpu_fields(j, at, version);
  Gpu g;
  g.index = static_cast<int>(f.integer("index", 0, 1 << 20));
  if (static_cast<size_t>(g.index) != position)
    throw JsonSchemaError{f.at("index"), "GPUs in Slurm index order, this one with \"index\": " + std::to_string(position)};
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
    throw JsonSchemaError{f.at("nvlinks"), "\"nvlinks\" empty or with one entry per GPU (" + std::to_string(count) + ")"};
  if (version >= 2) g.nvswitch_links = static_cast<int>(f.integer("nvswitch_links", 0, 1024));
  return g;
}

RdmaNic read_nic(const json& j, const json::json_pointer& at) {
  JsonFields f(j, at, {"name", "node_guid", "port_guids", "pci_busid", "link_layer", "numa_node", "socket"}, kVersion, true);
  RdmaNic n;
  n.name = f.string("name");
  n.node_guid = f.guid("node_guid");
  const json& ports = f.array("port_guids");
  for (size_t i = 0; i < ports.size(); ++i)
    n.port_guids.push_back(JsonFields::guid_at(ports[i], f.at("port_guids") / i, "each of \"port_guids\""));
  n.pci_busid = f.string("pci_busid");
  n.link_layer = f.string("link_layer");
  n.numa_node = static_cast<int>(f.integer("numa_node", -1, 1 << 20));
  n.socket = static_cast<int>(f.integer("socket", -1, 1 << 20));
  return n;
}

NodeInventory read_node(const json& root) {
  const json::json_pointer top;
  JsonFields f(root, top, {"format", "version", "hostname", "source", "sockets", "cores_per_socket",
                       "threads_per_core", "numa_nodes", "memory_mib", "gpus", "nics", "gpu_nic",
                       "gpu_gpu", "pci_bridges_missing", "warnings"}, kVersion, true);
  if (f.string("format") != kFormat) throw JsonSchemaError{f.at("format"), "\"format\": \"slurmtopo-node\""};
  const int version = static_cast<int>(f.integer("version", kOldestVersion, kVersion));
  NodeInventory n;
  n.hostname = f.string("hostname");
  n.source = f.string("source");
  n.sockets = static_cast<int>(f.integer("sockets", 1, 1 << 16));
  n.cores_per_socket = static_cast<int>(f.integer("cores_per_socket", 1, 1 << 20));
  n.threads_per_core = static_cast<int>(f.integer("threads_per_core", 1, 1024));
  n.numa_nodes = static_cast<int>(f.integer("numa_nodes", 0, 1 << 16));
  n.memory_mib = static_cast<uint64_t>(f.integer("memory_mib", 0, int64_t{1} << 50));
  const json& gpus = f.array("gpus");
  for (size_t i = 0; i < gpus.size(); ++i) n.gpus.push_back(read_gpu(gpus[i], f.at("gpus") / i, i, gpus.size(), version));
  const json& nics = f.array("nics");
  for (size_t i = 0; i < nics.size(); ++i) n.nics.push_back(read_nic(nics[i], f.at("nics") / i));
  n.gpu_nic = class_matrix(f, "gpu_nic", n.gpus.size(), n.nics.size(), false);
  n.gpu_gpu = class_matrix(f, "gpu_gpu", n.gpus.size(), n.gpus.size(), true);
  n.pci_bridges_missing = f.boolean("pci_bridges_missing");
  const json& warnings = f.array("warnings");
  for (size_t i = 0; i < warnings.size(); ++i) {
    if (!warnings[i].is_string()) throw JsonSchemaError{f.at("warnings") / i, "each warning to be a string"};
    n.warnings.push_back(warnings[i].get<std::string>());
  }
  return n;
}

}  // namespace

std::string node_to_json(const NodeInventory& node) {
  ordered_json j;
  j["format"] = kFormat;
  j["version"] = kVersion;
  j[kSlurmtopoVersionKey] = slurmtopo_version();
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
    o["nvswitch_links"] = g.nvswitch_links;
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
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

NodeInventory node_from_json(std::string_view text, const std::string& file) {
  const json root = parse_json_text(text, file);
  try {
    return read_node(root);
  } catch (const JsonSchemaError& e) {
    throw schema_input_error(text, file, e);
  }
}

NodeInventory load_node_json(const std::string& path) {
  return node_from_json(read_file(path), path);
}

}  // namespace slurmtopo
