// Shared by the node-discovery tests: the real exports in ../shared/nodes (never copied into
// the repo; a test that needs one is skipped with a MESSAGE when it is absent), a scratch
// directory, and compact spellings of what a NodeInventory holds.
#pragma once

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "base/input_error.h"
#include "discover/hwloc_node.h"
#include "tests/skip.h"

namespace slurmtopo::testing {

inline const std::filesystem::path kSharedNodes =
    std::filesystem::path(SLURMTOPO_SOURCE_DIR) / "../shared/nodes";

// The path of a shared export, or nullopt (with a MESSAGE) when the checkout lacks it.
inline std::optional<std::string> shared_node_file(const std::string& rel) {
  const std::filesystem::path p = kSharedNodes / rel;
  if (!std::filesystem::exists(p)) {
    slurmtopo::testing::skip(p.string() + " is not available");
    return std::nullopt;
  }
  return p.string();
}

inline std::optional<NodeInventory> shared_node(const std::string& rel) {
  auto p = shared_node_file(rel);
  if (!p) return std::nullopt;
  return load_node_xml(*p, "");
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct ScratchDir {
  std::filesystem::path dir;
  ScratchDir() {
    char tmpl[] = "/tmp/slurmtopo-nodes-XXXXXX";
    dir = mkdtemp(tmpl);
  }
  ~ScratchDir() { std::filesystem::remove_all(dir); }
  std::string write(const std::string& name, const std::string& content) const {
    const std::filesystem::path p = dir / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};

// "PIX PIX SYS"
inline std::string row(const std::vector<PathClass>& r) {
  std::string s;
  for (PathClass c : r) s += (s.empty() ? "" : " ") + std::string(to_string(c));
  return s;
}

// "42-55" / "0-3,8"
inline std::string ranges(const std::vector<int>& v) {
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
    i = j + 1;
  }
  return out;
}

inline std::vector<std::string> gpu_busids(const NodeInventory& n) {
  std::vector<std::string> v;
  for (const auto& g : n.gpus) v.push_back(g.pci_busid);
  return v;
}

inline std::vector<std::string> gpu_cores(const NodeInventory& n) {
  std::vector<std::string> v;
  for (const auto& g : n.gpus) v.push_back(ranges(g.cores));
  return v;
}

inline std::vector<std::string> nic_names(const NodeInventory& n) {
  std::vector<std::string> v;
  for (const auto& c : n.nics) v.push_back(c.name);
  return v;
}

inline std::vector<std::string> gpu_nic_rows(const NodeInventory& n) {
  std::vector<std::string> v;
  for (const auto& r : n.gpu_nic) v.push_back(row(r));
  return v;
}

inline bool all_types(const NodeInventory& n, const std::string& type) {
  for (const auto& g : n.gpus)
    if (g.slurm_type != type) return false;
  return !n.gpus.empty();
}

inline bool has_warning(const NodeInventory& n, const std::string& part) {
  for (const auto& w : n.warnings)
    if (w.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace slurmtopo::testing
