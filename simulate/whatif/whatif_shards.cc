#include "simulate/whatif/whatif_shards.h"

#include <map>

#include "base/files.h"
#include "base/input_error.h"
#include "base/json_fields.h"
#include "base/version.h"

namespace slurmtopo {

using json = nlohmann::ordered_json;

ShardSpec parse_shard(const std::string& text) {
  const size_t slash = text.find('/');
  auto whole = [](const std::string& s) {
    return !s.empty() && s.size() <= 6 && s.find_first_not_of("0123456789") == std::string::npos;
  };
  ShardSpec s;
  if (slash == std::string::npos || !whole(text.substr(0, slash)) || !whole(text.substr(slash + 1)))
    throw InputError("--shard", 0, "expected i/N (i from 0 to N-1), got '" + text + "'");
  s.index = std::stoi(text.substr(0, slash));
  s.count = std::stoi(text.substr(slash + 1));
  if (s.count < 1 || s.index >= s.count)
    throw InputError("--shard", 0, "expected i/N with 0 <= i < N, got '" + text + "'");
  return s;
}

std::vector<int> shard_units(int total, const ShardSpec& shard) {
  std::vector<int> units;
  const long lo = static_cast<long>(total) * shard.index / shard.count;
  const long hi = static_cast<long>(total) * (shard.index + 1) / shard.count;
  for (long u = lo; u < hi; ++u) units.push_back(static_cast<int>(u));
  return units;
}

json shard_document(const json& header, const ShardSpec& shard, const std::vector<json>& records) {
  json doc;
  doc[kSlurmtopoVersionKey] = slurmtopo_version();
  doc["slurmtopo_whatif_shard"] = std::to_string(shard.index) + "/" + std::to_string(shard.count);
  doc["run"] = header;
  doc["records"] = records;
  return doc;
}

MergedRun merge_shards(const std::vector<std::pair<std::string, std::string>>& shards) {
  if (shards.empty()) throw InputError("whatif merge", 0, "expected at least one shard file");
  MergedRun merged;
  std::map<int, json> units;
  std::string first;
  for (const auto& [file, text] : shards) {
    json doc;
    try {
      doc = json::parse(text);
    } catch (const json::parse_error& e) {
      throw InputError(file, 0, std::string("not a whatif shard (") + e.what() + ")");
    }
    if (!doc.is_object() || !doc.contains("slurmtopo_whatif_shard") || !doc.contains("run") || !doc.contains("records") ||
        !doc["records"].is_array())
      throw InputError(file, 0, "not a whatif shard (written by `slurmtopo whatif --shard i/N`)");
    if (first.empty()) {
      merged.header = doc["run"];
      first = file;
    } else if (doc["run"] != merged.header) {
      throw InputError(file, 0, "a shard of another run than " + first + " (different inputs or options)");
    }
    for (auto& rec : doc["records"]) {
      const int unit = rec.value("unit", -1);
      if (unit < 0) throw InputError(file, 0, "a record without its unit");
      if (!units.emplace(unit, rec).second) throw InputError(file, 0, "unit " + std::to_string(unit) + " is in two shards");
    }
  }
  const int total = merged.header.value("units", 0);
  std::string missing;
  for (int u = 0; u < total; ++u)
    if (!units.count(u)) missing += (missing.empty() ? "" : ", ") + std::to_string(u);
  if (!units.empty() && units.rbegin()->first >= total)
    throw InputError(shards.front().first, 0, "unit " + std::to_string(units.rbegin()->first) + " is not in this run");
  if (!missing.empty()) throw InputError(shards.front().first, 0, "units missing from the shards given: " + missing);
  for (auto& [u, rec] : units) merged.records.push_back(std::move(rec));
  return merged;
}

MergedRun merge_shard_files(const std::vector<std::string>& files) {
  std::vector<std::pair<std::string, std::string>> shards;
  for (const auto& f : files) shards.emplace_back(f, read_file(f));
  return merge_shards(shards);
}

MergedRun as_merged(const nlohmann::ordered_json& header, const std::vector<nlohmann::ordered_json>& records) {
  return merge_shards({{"whatif", shard_document(header, {0, 1}, records).dump()}});
}

}  // namespace slurmtopo
