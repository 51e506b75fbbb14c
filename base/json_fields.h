// Strict reading of slurmtopo's own JSON files (fabric snapshots, node descriptions): every
// key known, every value checked, and an error placed on its line. nlohmann's DOM keeps no
// positions, so a schema error carries a JSON pointer and is placed by a second,
// position-tracking pass (json_line.h) only when one occurs: reading stays one DOM parse.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "base/input_error.h"

namespace slurmtopo {

// The key of slurmtopo_version() (base/version.h) at the top of every JSON document slurmtopo
// writes; JsonFields accepts it at a document's top and requires it nowhere, so files written
// before it existed still read.
inline constexpr const char* kSlurmtopoVersionKey = "slurmtopo_version";

// A value the schema rejects: where it is, and what was expected there.
struct JsonSchemaError {
  nlohmann::json::json_pointer where;
  std::string expected;
};

// One JSON object read key by key; every accessor throws JsonSchemaError naming the key.
class JsonFields {
 public:
  // Rejects a non-object and any key not in `keys` ("only the keys of format version N");
  // with `all_required`, also a key of `keys` that is missing (else get() reports it). A
  // document's top object (`at` empty) may also have "slurmtopo_version", a string (the writer).
  JsonFields(const nlohmann::json& object, nlohmann::json::json_pointer at, std::initializer_list<const char*> keys,
             int version, bool all_required = false);

  const nlohmann::json& get(const char* key) const;
  nlohmann::json::json_pointer at(const char* key) const { return at_ / key; }
  std::string string(const char* key) const;
  int64_t integer(const char* key, int64_t min, int64_t max) const;
  bool boolean(const char* key) const;
  uint64_t guid(const char* key) const;  // "0x<1-16 hex digits>"
  const nlohmann::json& array(const char* key) const;

  // The same checks for an array element or any other value; `what` names it ("each of ...").
  static int64_t integer_at(const nlohmann::json& v, const nlohmann::json::json_pointer& at, int64_t min,
                            int64_t max, const std::string& what);
  static uint64_t guid_at(const nlohmann::json& v, const nlohmann::json::json_pointer& at, const std::string& what);

 private:
  const nlohmann::json& object_;
  nlohmann::json::json_pointer at_;
};

// Parses `text`; a syntax error is InputError(file, line, "expected valid JSON, <reason>").
nlohmann::json parse_json_text(std::string_view text, const std::string& file);

// The InputError for a schema error found while reading `text`: its line and JSON pointer.
InputError schema_input_error(std::string_view text, const std::string& file, const JsonSchemaError& error);

}  // namespace slurmtopo
