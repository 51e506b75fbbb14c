#include "base/yaml_fields.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "base/input_error.h"

namespace slurmtopo {

namespace {
std::string shortest(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}
}  // namespace

YAML::Node load_yaml(const std::string& text, const std::string& file) {
  try {
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError(file, e.mark.line + 1, "expected YAML: " + e.msg);
  }
}

int yaml_line(const YAML::Node& node) { return node.Mark().line + 1; }

void YamlFields::fail(const YAML::Node& at, const std::string& expected) const {
  throw InputError(file_, yaml_line(at), expected);
}

std::string YamlFields::text(const YAML::Node& v, const std::string& key) const {
  if (!v.IsScalar()) fail(v, "expected `" + key + "` to be a string");
  return v.Scalar();
}

double YamlFields::number(const YAML::Node& v, const std::string& key, double lo, double hi) const {
  double x = NAN;
  if (v.IsScalar()) {
    try {
      x = v.as<double>();
    } catch (const YAML::BadConversion&) {
    }
  }
  if (!(x >= lo && x <= hi))
    fail(v, "expected `" + key + "` to be a number from " + shortest(lo) + " to " + shortest(hi));
  return x;
}

int YamlFields::integer(const YAML::Node& v, const std::string& key, int lo, int hi) const {
  const double x = number(v, key, lo, hi);
  if (x != std::floor(x)) fail(v, "expected `" + key + "` to be a whole number");
  return static_cast<int>(x);
}

int YamlFields::count(const YAML::Node& v, const std::string& key) const {
  int n = -1;
  if (v.IsScalar()) {
    try {
      n = v.as<int>();
    } catch (const YAML::BadConversion&) {
    }
  }
  if (n < 0) fail(v, "expected `" + key + "` to be a whole number >= 0");
  return n;
}

bool YamlFields::boolean(const YAML::Node& v, const std::string& key) const {
  if (v.IsScalar()) {
    if (v.Scalar() == "true") return true;
    if (v.Scalar() == "false") return false;
  }
  fail(v, "expected `" + key + "` to be true or false");
}

std::string YamlFields::choice(const YAML::Node& v, const std::string& key,
                               const std::vector<std::string>& allowed) const {
  const std::string t = text(v, key);
  if (std::find(allowed.begin(), allowed.end(), t) == allowed.end())
    fail(v, "expected `" + key + "` to be one of " + join(allowed) + ", not `" + t + "`");
  return t;
}

std::vector<std::string> YamlFields::strings(const YAML::Node& v, const std::string& key) const {
  if (!v.IsSequence()) fail(v, "expected `" + key + "` to be a list of strings");
  std::vector<std::string> out;
  for (const YAML::Node& item : v) {
    if (!item.IsScalar()) fail(item, "expected every item of `" + key + "` to be a string");
    out.push_back(item.Scalar());
  }
  return out;
}

std::string YamlFields::join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i];
  return out;
}

}  // namespace slurmtopo
