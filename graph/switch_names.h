// Readable, stable Slurm names for switches, from what their node description says.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

// "MF0;A09-P1-IBLEAF-04-04:MQM9701/U1" → "A09-P1-IBLEAF-04-04";
// a director module "MF0;core-1:MCS8500/L01/U1" → "core-1-L01"; anything else sanitised.
// Returns "" when the description says nothing usable.
std::string switch_name_from_description(std::string_view description);

// Keeps [A-Za-z0-9._-], turns every other run into one '-', trims '-' at the ends, and keeps
// a trailing number short enough for Slurm's hostlist parser (≤ 18 digits).
std::string slurm_safe_name(std::string_view text);

struct SwitchNameInput { uint64_t guid; std::string description; };

// Names for a set of switches: from descriptions where they are unique, otherwise
// "sw-<guid>". Slurm's SwitchName limit (64 chars, 24.11+) is respected.
std::vector<std::string> name_switches(const std::vector<SwitchNameInput>& switches);

}  // namespace slurmtopo
