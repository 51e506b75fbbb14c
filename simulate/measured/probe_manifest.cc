#include "simulate/measured/probe_manifest.h"

#include <filesystem>

#include "base/files.h"
#include "base/json_fields.h"
#include "base/version.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

constexpr int kManifestVersion = 1;

std::optional<ProbeKind> kind_named(const std::string& s) {
  for (ProbeKind k : {ProbeKind::Group, ProbeKind::Pair, ProbeKind::Rails, ProbeKind::All})
    if (s == to_string(k)) return k;
  return std::nullopt;
}

std::vector<std::string> strings_at(const JsonFields& f, const char* key) {
  std::vector<std::string> out;
  const nlohmann::json& a = f.array(key);
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_string()) throw JsonSchemaError{f.at(key) / i, std::string("each of \"") + key + "\" to be a string"};
    out.push_back(a[i].get<std::string>());
  }
  return out;
}

}  // namespace

std::string probe_manifest_json(const ProbePlan& plan) {
  nlohmann::ordered_json j;
  j[kSlurmtopoVersionKey] = slurmtopo_version();
  j["version"] = kManifestVersion;
  j["placements"] = nlohmann::ordered_json::array();
  for (const ProbePlacement& p : plan.placements)
    j["placements"].push_back(
        {{"name", p.name}, {"kind", to_string(p.kind)}, {"groups", p.groups}, {"hosts", p.hosts}, {"output", p.output}});
  return j.dump(2) + "\n";
}

std::optional<std::vector<ProbePlacement>> read_probe_manifest(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return std::nullopt;
  const std::string file = (std::filesystem::path(dir) / kProbeManifestName).string();
  if (!std::filesystem::is_regular_file(file, ec)) return std::nullopt;
  const std::string text = read_file(file, "the probe's placements (probe.json, written by slurmtopo probe)");
  const nlohmann::json root = parse_json_text(text, file);
  try {
    const JsonFields top(root, nlohmann::json::json_pointer(), {"version", "placements"}, kManifestVersion, true);
    top.integer("version", kManifestVersion, kManifestVersion);
    std::vector<ProbePlacement> out;
    const nlohmann::json& list = top.array("placements");
    for (size_t i = 0; i < list.size(); ++i) {
      const JsonFields f(list[i], top.at("placements") / i, {"name", "kind", "groups", "hosts", "output"},
                         kManifestVersion, true);
      ProbePlacement p;
      p.name = f.string("name");
      const auto kind = kind_named(f.string("kind"));
      if (!kind) throw JsonSchemaError{f.at("kind"), "\"kind\" to be group, pair, rails or all"};
      p.kind = *kind;
      p.groups = strings_at(f, "groups");
      p.hosts = strings_at(f, "hosts");
      p.hostlist = compress_hostlist(p.hosts);
      p.output = f.string("output");
      out.push_back(std::move(p));
    }
    return out;
  } catch (const JsonSchemaError& e) {
    throw schema_input_error(text, file, e);
  }
}

}  // namespace slurmtopo
