// Cutting a what-if run into shards that run anywhere (a Slurm job array) and merging them
// back: shard i of N runs the i-th contiguous slice of the run's units and saves its records
// with the run's header; merging checks that every shard belongs to the same run and that
// every unit is there exactly once, and gives the records in unit order, so the merged output
// is byte for byte what the run prints unsharded.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace slurmtopo {

struct ShardSpec {
  int index = 0;  // 0 .. count-1, as SLURM_ARRAY_TASK_ID runs over --array=0-(N-1)
  int count = 1;
};
ShardSpec parse_shard(const std::string& text);  // "i/N"; throws InputError("--shard", ...)

std::vector<int> shard_units(int total, const ShardSpec& shard);

nlohmann::ordered_json shard_document(const nlohmann::ordered_json& header, const ShardSpec& shard,
                                      const std::vector<nlohmann::ordered_json>& records);

struct MergedRun {
  nlohmann::ordered_json header;
  std::vector<nlohmann::ordered_json> records;  // unit order
};
// (file name, content) per shard. Throws InputError(file, 0, ...) for a file that is not a
// shard, a shard of another run, a unit twice, or units missing.
MergedRun merge_shards(const std::vector<std::pair<std::string, std::string>>& shards);
// The same, reading the files.
MergedRun merge_shard_files(const std::vector<std::string>& files);
// One run's records as its merge would give them: through the shard form and back, so that a
// merge of shards can print nothing else than the run itself.
MergedRun as_merged(const nlohmann::ordered_json& header, const std::vector<nlohmann::ordered_json>& records);

}  // namespace slurmtopo
