#include "slurm/config_lines.h"

#include <cctype>

#include "base/lines.h"
#include "base/words.h"

namespace slurmtopo {
namespace {


std::string strip_comment(std::string_view line) {
  int backslashes = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '#' && backslashes % 2 == 0) return std::string(line.substr(0, i));
    backslashes = line[i] == '\\' ? backslashes + 1 : 0;
  }
  return std::string(line);
}

bool strip_continuation(std::string& line) {
  size_t end = line.size();
  while (end > 0 && is_space(line[end - 1])) --end;
  size_t slashes = 0;
  while (slashes < end && line[end - 1 - slashes] == '\\') ++slashes;
  if (slashes % 2 == 0) return false;
  line.resize(end - 1);
  return true;
}

}  // namespace

std::vector<SlurmConfLine> read_slurm_conf_lines(std::string_view text) {
  std::vector<SlurmConfLine> lines;
  bool continued = false;
  LineReader reader(text);
  std::string_view physical;
  while (reader.next(physical)) {
    const int number = reader.number();
    if (!physical.empty() && physical.back() == '\r') physical.remove_suffix(1);
    std::string line = strip_comment(physical);
    const bool continues = strip_continuation(line);
    if (continued)
      lines.back().text += line;
    else
      lines.push_back({number, std::move(line)});
    continued = continues;
  }
  return lines;
}

std::vector<std::string_view> slurm_conf_words(std::string_view s) { return words(s); }

std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

}  // namespace slurmtopo
