#include "base/json_fields.h"

#include <doctest/doctest.h>

using namespace slurmtopo;
using nlohmann::json;

TEST_CASE("json fields: unknown keys are refused, missing ones named") {
  const json j = json::parse(R"({"a": 1, "zz": 2})");
  CHECK_THROWS_AS(JsonFields(j, nlohmann::json::json_pointer(), {"a"}, 3), JsonSchemaError);
  try {
    JsonFields(j, nlohmann::json::json_pointer(), {"a"}, 3);
  } catch (const JsonSchemaError& e) {
    CHECK(e.expected == "only the keys of format version 3, not \"zz\"");
    CHECK(e.where.to_string() == "/zz");
  }
  const JsonFields lazy(j, nlohmann::json::json_pointer(), {"a", "zz", "b"}, 1);
  CHECK(lazy.integer("a", 0, 5) == 1);
  CHECK_THROWS_AS(lazy.get("b"), JsonSchemaError);
  CHECK_THROWS_AS(JsonFields(j, nlohmann::json::json_pointer(), {"a", "zz", "b"}, 1, true), JsonSchemaError);
}

TEST_CASE("json fields: a document's top may name its writer (slurmtopo_version, a string), nothing below it") {
  const json j = json::parse(R"({"a": {"slurmtopo_version": "0.1.0"}, "slurmtopo_version": "0.1.0"})");
  const JsonFields top(j, nlohmann::json::json_pointer(), {"a"}, 1, true);
  CHECK_THROWS_AS(JsonFields(j["a"], top.at("a"), {}, 1), JsonSchemaError);
  CHECK_NOTHROW(JsonFields(json::parse(R"({"a": 1})"), nlohmann::json::json_pointer(), {"a"}, 1, true));
  try {
    JsonFields(json::parse(R"({"slurmtopo_version": 1})"), nlohmann::json::json_pointer(), {}, 1);
    FAIL("a number accepted as the writer's version");
  } catch (const JsonSchemaError& e) {
    CHECK(e.expected == "\"slurmtopo_version\" to be a string");
  }
}

TEST_CASE("json fields: GUIDs, ranges and types") {
  const json j = json::parse(R"({"g": "0xB83FD20300a00000", "bad": "0x12g4", "n": 7, "s": "x", "t": true, "l": [1]})");
  const JsonFields f(j, nlohmann::json::json_pointer(), {"g", "bad", "n", "s", "t", "l"}, 1);
  CHECK(f.guid("g") == 0xb83fd20300a00000ull);
  CHECK_THROWS_AS(f.guid("bad"), JsonSchemaError);
  CHECK_THROWS_AS(f.guid("n"), JsonSchemaError);
  CHECK_THROWS_AS(f.integer("n", 0, 6), JsonSchemaError);
  CHECK_THROWS_AS(f.string("n"), JsonSchemaError);
  CHECK_THROWS_AS(f.boolean("s"), JsonSchemaError);
  CHECK(f.boolean("t"));
  CHECK(f.array("l").size() == 1);
  CHECK_THROWS_AS(f.array("s"), JsonSchemaError);
}

TEST_CASE("json fields: syntax and schema errors name the file and the line") {
  const std::string text = "{\n  \"a\": 1,\n  \"b\": [\n";
  try {
    parse_json_text(text, "x.json");
    FAIL("a truncated file parsed");
  } catch (const InputError& e) {
    CHECK(e.file() == "x.json");
    CHECK(e.line() >= 3);
    CHECK(std::string(e.what()).find("expected valid JSON") != std::string::npos);
  }
  const std::string good = "{\n  \"a\": 1,\n  \"b\": \"two\"\n}\n";
  const json j = parse_json_text(good, "y.json");
  try {
    JsonFields(j, nlohmann::json::json_pointer(), {"a", "b"}, 1).integer("b", 0, 9);
    FAIL("a string read as an integer");
  } catch (const JsonSchemaError& e) {
    const InputError err = schema_input_error(good, "y.json", e);
    CHECK(err.line() == 3);
    CHECK(std::string(err.what()).find("(at /b)") != std::string::npos);
  }
}
