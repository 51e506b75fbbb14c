#include "base/json_fields.h"

#include <algorithm>
#include <cstdlib>

#include "base/json_line.h"

namespace slurmtopo {

using nlohmann::json;

namespace {
std::string quoted(const char* key) { return std::string("\"") + key + "\""; }
}  // namespace

JsonFields::JsonFields(const json& object, json::json_pointer at, std::initializer_list<const char*> keys, int version,
                       bool all_required)
    : object_(object), at_(std::move(at)) {
  if (!object_.is_object()) throw JsonSchemaError{at_, "an object"};
  for (const auto& item : object_.items()) {
    const std::string& key = item.key();
    if (key == kSlurmtopoVersionKey && at_.empty()) {
      if (!item.value().is_string()) throw JsonSchemaError{at_ / key, quoted(kSlurmtopoVersionKey) + " to be a string"};
      continue;
    }
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; }))
      throw JsonSchemaError{at_ / key,
                            "only the keys of format version " + std::to_string(version) + ", not \"" + key + "\""};
  }
  if (all_required)
    for (const char* k : keys)
      if (!object_.contains(k)) throw JsonSchemaError{at_, "the key " + quoted(k)};
}

const json& JsonFields::get(const char* key) const {
  auto it = object_.find(key);
  if (it == object_.end()) throw JsonSchemaError{at_, "the key " + quoted(key)};
  return *it;
}

std::string JsonFields::string(const char* key) const {
  const json& v = get(key);
  if (!v.is_string()) throw JsonSchemaError{at(key), quoted(key) + " to be a string"};
  return v.get<std::string>();
}

int64_t JsonFields::integer(const char* key, int64_t min, int64_t max) const {
  return integer_at(get(key), at(key), min, max, quoted(key));
}

bool JsonFields::boolean(const char* key) const {
  const json& v = get(key);
  if (!v.is_boolean()) throw JsonSchemaError{at(key), quoted(key) + " to be true or false"};
  return v.get<bool>();
}

uint64_t JsonFields::guid(const char* key) const { return guid_at(get(key), at(key), quoted(key)); }

const json& JsonFields::array(const char* key) const {
  const json& v = get(key);
  if (!v.is_array()) throw JsonSchemaError{at(key), quoted(key) + " to be an array"};
  return v;
}

int64_t JsonFields::integer_at(const json& v, const json::json_pointer& at, int64_t min, int64_t max,
                               const std::string& what) {
  if (!v.is_number_integer() || v.get<int64_t>() < min || v.get<int64_t>() > max)
    throw JsonSchemaError{at, what + " to be an integer in " + std::to_string(min) + ".." + std::to_string(max)};
  return v.get<int64_t>();
}

uint64_t JsonFields::guid_at(const json& v, const json::json_pointer& at, const std::string& what) {
  if (!v.is_string()) throw JsonSchemaError{at, what + " to be a GUID \"0x<hex>\""};
  const std::string s = v.get<std::string>();
  const bool ok = s.size() > 2 && s.size() <= 18 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
                  s.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
  if (!ok) throw JsonSchemaError{at, what + " to be a GUID \"0x<hex>\", not \"" + s + "\""};
  return std::strtoull(s.c_str() + 2, nullptr, 16);
}

json parse_json_text(std::string_view text, const std::string& file) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // e.byte is 1-based and points at the last character read.
    const int line = e.byte ? line_at_offset(text, e.byte - 1) : 0;
    // Keep nlohmann's reason, drop its "[json.exception...] parse error at line L, column C: ".
    const std::string what = e.what();
    const size_t reason = what.find(": ", what.find("parse error"));
    throw InputError(file, line,
                     "expected valid JSON, " + (reason == std::string::npos ? what : what.substr(reason + 2)));
  } catch (const json::out_of_range& e) {
    // A number beyond a double (1e999) is nlohmann's only out_of_range while parsing; its
    // message quotes the number, which is how the line is found.
    const std::string what = e.what();
    const size_t open = what.find('\''), close = what.rfind('\'');
    const std::string number = open < close ? what.substr(open + 1, close - open - 1) : "";
    const size_t at = number.empty() ? std::string_view::npos : text.find(number);
    throw InputError(file, at == std::string_view::npos ? 0 : line_at_offset(text, at),
                     "expected valid JSON, a number too large for a double" +
                         (number.empty() ? std::string() : ": " + number));
  }
}

InputError schema_input_error(std::string_view text, const std::string& file, const JsonSchemaError& error) {
  return InputError(file, json_line_of(text, error.where),
                    "expected " + error.expected + " (at " + (error.where.empty() ? "/" : error.where.to_string()) +
                        ")");
}

}  // namespace slurmtopo
