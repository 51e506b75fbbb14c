// Strict reading of slurmtopo's own YAML files (site.yaml, hardware profiles): every value
// checked for its type and range, and an error placed on the value's line, so a typo fails
// before anything is read instead of becoming a silently ignored setting.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

namespace slurmtopo {

// The document in `text`. A syntax error is InputError(file, line, "expected YAML: ...").
YAML::Node load_yaml(const std::string& text, const std::string& file);

// 1-based line of a node (yaml-cpp's marks are 0-based).
int yaml_line(const YAML::Node& node);

// Typed access to the values of one file; every check failure is InputError(file, line of
// the value, "expected `KEY` to be ...").
class YamlFields {
 public:
  explicit YamlFields(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& expected) const;

  std::string text(const YAML::Node& v, const std::string& key) const;
  double number(const YAML::Node& v, const std::string& key, double lo, double hi) const;
  int integer(const YAML::Node& v, const std::string& key, int lo, int hi) const;
  int count(const YAML::Node& v, const std::string& key) const;  // a whole number >= 0
  bool boolean(const YAML::Node& v, const std::string& key) const;
  std::string choice(const YAML::Node& v, const std::string& key, const std::vector<std::string>& allowed) const;
  std::vector<std::string> strings(const YAML::Node& v, const std::string& key) const;

  // "a, b, c", for messages that list what is allowed.
  static std::string join(const std::vector<std::string>& items);

 private:
  std::string file_;
};

}  // namespace slurmtopo
