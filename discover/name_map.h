// GUID → hostname maps: ibnetdiscover's --node-name-map (`0xGUID "name"`) and plain
// `GUID name` / `H-GUID name` lists, in one reader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

namespace slurmtopo {

struct NameMap {
  std::string source;  // the file it was read from; "" when none was given
  std::unordered_map<uint64_t, std::string> by_guid;
  std::optional<std::string> lookup(uint64_t guid) const;
};

NameMap load_name_map(const std::string& path);  // InputError with file:line on a bad line

}  // namespace slurmtopo
