// One reader for the GUID->name lists sites keep: ibnetdiscover's --node-name-map
// (`0xGUID "name"`), plain `GUID name` lists (X5.map's `H-003048c74e4a0000 x5570comp1`), and
// `name: 0xGUID` lists (Azure CycleCloud's nodes_guids.txt, one line per rail).
#include "discover/name_map.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <vector>

#include "base/files.h"
#include "base/input_error.h"
#include "base/words.h"
#include "discover/fabric.h"
#include "slurm/node_names.h"

namespace slurmtopo {
namespace {

constexpr const char* kExpected =
    "expected `0xGUID \"name\"`, `GUID name` or `name: 0xGUID`";


int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `0x` + 1-16 hex digits, `H-`/`S-`/`R-` (ibnetdiscover's node-type prefixes) + hex, or 16
// bare hex digits. Bare hex must be full length so that a name like `cafe` is not a GUID.
std::optional<uint64_t> parse_guid(std::string_view s) {
  bool prefixed = false;
  const std::string_view node_types = "HSRhsr";
  if (s.size() > 2 && s[1] == '-' && node_types.find(s[0]) != std::string_view::npos) {
    s.remove_prefix(2);
    prefixed = true;
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    prefixed = true;
  }
  if (s.empty() || s.size() > 16 || (!prefixed && s.size() != 16)) return std::nullopt;
  uint64_t guid = 0;
  for (char c : s) {
    const int v = hex_value(c);
    if (v < 0) return std::nullopt;
    guid = guid << 4 | static_cast<uint64_t>(v);
  }
  return guid;
}

struct Token {
  std::string text;
  bool quoted = false;
};

// White-space separated words, `"..."` kept whole, `#` outside quotes ends the line.
std::vector<Token> tokenize(std::string_view line, const std::string& file, int number) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (true) {
    while (i < line.size() && is_space(line[i])) ++i;
    if (i == line.size() || line[i] == '#') return tokens;
    if (line[i] == '"') {
      const size_t close = line.find('"', i + 1);
      if (close == std::string_view::npos)
        throw InputError(file, number, std::string(kExpected) + "; the name's closing `\"` is missing");
      tokens.push_back({std::string(line.substr(i + 1, close - i - 1)), true});
      i = close + 1;
    } else {
      const size_t start = i;
      while (i < line.size() && !is_space(line[i]) && line[i] != '#') ++i;
      tokens.push_back({std::string(line.substr(start, i - start)), false});
    }
  }
}

struct Entry {
  uint64_t guid;
  std::string name;
};

Entry parse_entry(const std::vector<Token>& t, const std::string& file, int number) {
  auto bad = [&](const std::string& why) -> InputError {
    return InputError(file, number, std::string(kExpected) + "; " + why);
  };
  const bool name_first =
      !t[0].quoted && t[0].text.size() > 1 && t[0].text.back() == ':';
  if (name_first) {
    if (t.size() != 2) throw bad("`name:` must be followed by exactly one GUID");
    const auto guid = parse_guid(t[1].text);
    if (!guid) throw bad("`" + t[1].text + "` is not a GUID");
    return {*guid, t[0].text.substr(0, t[0].text.size() - 1)};
  }
  const auto guid = t[0].quoted ? std::nullopt : parse_guid(t[0].text);
  if (!guid) throw bad("`" + t[0].text + "` is not a GUID");
  if (t.size() == 1) throw bad("no name after the GUID");
  if (t.size() > 2) throw bad("text after the name (quote names that contain spaces)");
  if (t[1].text.empty()) throw bad("the name is empty");
  return {*guid, t[1].text};
}

}  // namespace

std::optional<std::string> NameMap::lookup(uint64_t guid) const {
  const auto it = by_guid.find(guid);
  if (it == by_guid.end()) return std::nullopt;
  return it->second;
}

NameMap load_name_map(const std::string& path) {
  expect_readable_kind(path);
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, std::string("cannot read: ") + std::strerror(errno));
  NameMap map;
  map.source = path;
  std::unordered_map<uint64_t, int> first_line;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find('\0') != std::string::npos)
      throw InputError(path, number, "binary data (NUL byte): expected a node-name-map or GUID map (text)");
    const std::vector<Token> tokens = tokenize(line, path, number);
    if (tokens.empty()) continue;
    Entry e = parse_entry(tokens, path, number);
    // The name's first word is the node's name (host or switch): Slurm's hostlists, and so
    // topology.conf and every hostlist slurmtopo prints, keep its trailing number in 64 bits.
    const std::string word = e.name.substr(0, e.name.find_first_of(" \t"));
    if (trailing_number_too_large(word))
      throw InputError(path, number,
                       "expected a node name whose number a Slurm hostlist can hold; `" + word +
                           "` ends in a number above 18446744073709551615");
    const auto [it, added] = map.by_guid.emplace(e.guid, e.name);
    if (added) {
      first_line[e.guid] = number;
    } else if (it->second != e.name) {
      throw InputError(path, number,
                       std::string(kExpected) + " with each GUID once; 0x" +
                           guid_hex(e.guid) + " is `" + it->second + "` on line " +
                           std::to_string(first_line[e.guid]) + " and `" + e.name + "` here");
    }
  }
  return map;
}

}  // namespace slurmtopo
