#include "discover/nvlink_domains.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "base/files.h"
#include "base/input_error.h"
#include "base/lines.h"
#include "base/text.h"
#include "slurm/hostlist.h"
#include "slurm/node_names.h"

namespace slurmtopo {

namespace {

constexpr const char* kFabricSuffix = ".fabric.csv";

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool none(std::string_view v) { return v.empty() || v == "N/A" || v == "[N/A]" || v == "n/a"; }

bool is_uuid(std::string_view v) {
  if (v.size() != 36) return false;
  for (size_t i = 0; i < v.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? v[i] != '-' : !std::isxdigit(static_cast<unsigned char>(v[i]))) return false;
  }
  return true;
}

bool is_number(std::string_view v) {
  return !v.empty() && v.size() <= 10 && std::all_of(v.begin(), v.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A UUID whose fabric is not up yet reads as all zeros: no domain.
GpuFabric fabric(std::string_view uuid, std::string_view clique) {
  GpuFabric g;
  if (!none(uuid) && lower(uuid) != "00000000-0000-0000-0000-000000000000") g.cluster_uuid = lower(uuid);
  if (!g.cluster_uuid.empty() && !none(clique)) g.clique = std::string(clique);
  return g;
}

}  // namespace

std::vector<std::string> HostFabric::domains() const {
  std::vector<std::string> seen;
  for (const GpuFabric& g : gpus)
    if (std::find(seen.begin(), seen.end(), g.domain()) == seen.end()) seen.push_back(g.domain());
  return seen;
}

NvlinkDomains parse_nvlink_domains(std::string_view text, const std::string& file) {
  NvlinkDomains out;
  out.source = file;
  std::set<std::string> seen;
  LineReader lines(text);
  std::string_view raw;
  while (lines.next(raw)) {
    std::string_view line = trim(raw.substr(0, raw.find('#')));
    if (line.empty()) continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos)
      throw InputError(file, lines.number(), "expected `HOST: CLUSTER_UUID[.CLIQUE_ID]`, got '" + std::string(line) + "'");
    const std::string host(trim(line.substr(0, colon)));
    const std::string_view value = trim(line.substr(colon + 1));
    if (!valid_slurm_node_name(host))
      throw InputError(file, lines.number(), "expected a Slurm node name before ':', got '" + host + "'");
    if (!seen.insert(host).second) throw InputError(file, lines.number(), "host " + host + " is listed twice");
    const size_t dot = value.find('.');
    const std::string_view uuid = value.substr(0, dot);
    const std::string_view clique = dot == std::string_view::npos ? std::string_view{} : value.substr(dot + 1);
    if (!none(value) && (!is_uuid(uuid) || (dot != std::string_view::npos && !is_number(clique))))
      throw InputError(file, lines.number(),
                       "expected a ClusterUUID (8-4-4-4-12 hex digits) with an optional .CLIQUE_ID, or N/A, for " + host +
                           ", got '" + std::string(value) + "'");
    out.hosts.push_back({host, file, lines.number(), {fabric(none(value) ? value : uuid, clique)}});
  }
  return out;
}

std::vector<GpuFabric> parse_nvidia_smi_fabric(std::string_view text, const std::string& file) {
  std::vector<GpuFabric> gpus;
  LineReader lines(text);
  std::string_view raw;
  while (lines.next(raw)) {
    const std::string_view line = trim(raw);
    if (line.empty()) continue;
    const size_t comma = line.find(',');
    const std::string_view uuid = trim(line.substr(0, comma));
    const std::string_view clique = comma == std::string_view::npos ? std::string_view{} : trim(line.substr(comma + 1));
    if (lower(uuid) == "fabric.clusteruuid" && lines.number() == 1) continue;
    const bool ok = comma != std::string_view::npos && clique.find(',') == std::string_view::npos &&
                    (none(uuid) || is_uuid(uuid)) && (none(clique) || is_number(clique));
    if (!ok)
      throw InputError(file, lines.number(),
                       "expected `CLUSTER_UUID, CLIQUE_ID` as `nvidia-smi --query-gpu=fabric.clusterUuid,fabric.cliqueId "
                       "--format=csv,noheader` prints it, got '" + std::string(line) + "'");
    gpus.push_back(fabric(uuid, clique));
  }
  return gpus;
}

NvlinkDomains load_nvlink_domains(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return parse_nvlink_domains(read_file(path, "NVLink domains file"), path);
  NvlinkDomains out;
  out.source = path;
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() <= std::string_view(kFabricSuffix).size() || !name.ends_with(kFabricSuffix)) continue;
    const std::string host = name.substr(0, name.size() - std::string_view(kFabricSuffix).size());
    const std::string file = entry.path().string();
    if (!valid_slurm_node_name(host)) throw InputError(file, 0, "expected HOST.fabric.csv with a Slurm node name as HOST");
    out.hosts.push_back({host, file, 0, parse_nvidia_smi_fabric(read_file(file, "nvidia-smi fabric file"), file)});
  }
  if (ec) throw InputError(path, 0, "cannot read the directory: " + ec.message());
  if (out.hosts.empty()) throw InputError(path, 0, "expected HOST.fabric.csv files (slurmtopo collect writes them), found none");
  std::sort(out.hosts.begin(), out.hosts.end(), [](const auto& a, const auto& b) { return natural_less(a.host, b.host); });
  return out;
}

}  // namespace slurmtopo
