#include "slurm/time_string.h"

#include <sstream>
#include <vector>

#include "base/input_error.h"
#include "base/numbers.h"

namespace slurmtopo {

namespace {
int field(const std::string& option, const std::string& text) {
  return static_cast<int>(parse_whole_number(option, text, 0));
}
}  // namespace

int slurm_time_seconds(const std::string& option, const std::string& text) {
  int days = 0;
  std::string rest = text;
  if (size_t dash = text.find('-'); dash != std::string::npos) {
    days = field(option, text.substr(0, dash));
    rest = text.substr(dash + 1);
  }
  std::vector<int> f;
  std::stringstream in(rest);
  std::string part;
  while (std::getline(in, part, ':')) f.push_back(field(option, part));
  if (f.empty() || f.size() > 3) throw InputError(option, 0, "expected a Slurm time (min, min:sec, h:m:s, d-h[:m[:s]])");
  if (text.find('-') != std::string::npos) {
    while (f.size() < 3) f.push_back(0);
    return ((days * 24 + f[0]) * 60 + f[1]) * 60 + f[2];
  }
  if (f.size() == 1) return f[0] * 60;
  if (f.size() == 2) return f[0] * 60 + f[1];
  return (f[0] * 60 + f[1]) * 60 + f[2];
}

}  // namespace slurmtopo
