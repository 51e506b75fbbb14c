#include "graph/finding_names.h"

#include <algorithm>

#include "slurm/hostlist.h"

namespace slurmtopo {

std::vector<std::string> finding_names(const std::string& text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == ':' || text[i] == '"')) ++i;
    size_t j = i;
    int depth = 0;
    while (j < text.size() && (depth > 0 || (text[j] != ' ' && text[j] != ',' && text[j] != ':' && text[j] != '"'))) {
      depth += text[j] == '[' ? 1 : text[j] == ']' ? -1 : 0;
      ++j;
    }
    std::string token = text.substr(i, j - i);
    i = j;
    if (token.empty() || token == "-") continue;
    // switch[port]: the port is not part of the name.
    if (token.back() == ']' && token.find('[') != std::string::npos) {
      const std::string inside = token.substr(token.find('[') + 1, token.size() - token.find('[') - 2);
      if (std::all_of(inside.begin(), inside.end(), ::isdigit)) {
        out.push_back(token.substr(0, token.find('[')));
        continue;
      }
      try {
        for (auto& n : expand_hostlist(token)) out.push_back(std::move(n));
        continue;
      } catch (const std::exception&) {
      }
    }
    out.push_back(token);
  }
  return out;
}

}  // namespace slurmtopo
