// What `slurmtopo whatif` prints, made from the run's header and its records alone (never from
// the live run), so a merge of shards prints the same bytes as the run itself.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "simulate/whatif/whatif_plan.h"

namespace slurmtopo {

// Text for a person; with `json` the header, a summary and every record (2-space indent).
std::string whatif_report(const nlohmann::ordered_json& header, const std::vector<nlohmann::ordered_json>& records,
                          bool json);

// What a run prints: a shard's JSON document (for `whatif merge`), or the report of the run
// (through as_merged, so it is the bytes a merge of its shards prints).
std::string whatif_output(const WhatifResult& result, bool json);

// A progress bar for stderr, redrawn in place; nothing unless stderr is a terminal (a log
// file or a pipe gets nothing).
UnitProgress terminal_progress_bar();

}  // namespace slurmtopo
