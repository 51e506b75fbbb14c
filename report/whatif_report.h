// What `slurmtopo whatif` prints, made from the run's header and its records alone (never from
// the live run), so a merge of shards prints the same bytes as the run itself.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace slurmtopo {

// Text for a person; with `json` the header, a summary and every record (2-space indent).
std::string whatif_report(const nlohmann::ordered_json& header, const std::vector<nlohmann::ordered_json>& records,
                          bool json);

}  // namespace slurmtopo
