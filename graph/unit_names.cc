#include "graph/unit_names.h"

#include <map>
#include <regex>
#include <set>

#include "base/regex.h"
#include "graph/cluster.h"

namespace slurmtopo {

namespace {
bool separator(char c) { return c == '-' || c == '_' || c == '.'; }

// Members that differ only in some words ("A09-P1-IBLEAF-01-01", "A09-P1-IBLEAF-02-01") keep
// the words they share, with "x" for the ones that vary: "A09-P1-IBLEAF-x-01". Varying words
// at either end are dropped ("su1-rail0".."su1-rail7" → "su1"). "" when nothing is shared.
std::string shared_words(const std::vector<std::string>& names) {
  auto split = [](const std::string& n) {
    std::vector<std::string> words;
    std::string seps;
    size_t start = 0;
    for (size_t i = 0; i <= n.size(); ++i)
      if (i == n.size() || separator(n[i])) {
        words.push_back(n.substr(start, i - start));
        if (i < n.size()) seps += n[i];
        start = i + 1;
      }
    return std::make_pair(words, seps);
  };
  auto [words, seps] = split(names.front());
  for (const auto& n : names) {
    auto [w, s] = split(n);
    if (w.size() != words.size()) return "";
    for (size_t i = 0; i < w.size(); ++i)
      if (w[i] != words[i]) words[i] = "x";
  }
  size_t first = 0, last = words.size();
  while (first < last && words[first] == "x") ++first;
  while (last > first && words[last - 1] == "x") --last;
  std::string out;
  for (size_t i = first; i < last; ++i) {
    if (i > first) out += seps[i - 1];
    out += words[i];
  }
  return out;
}

std::string common_prefix_at_separator(const std::vector<std::string>& names) {
  std::string prefix = names.front();
  for (const auto& n : names) {
    size_t i = 0;
    while (i < prefix.size() && i < n.size() && prefix[i] == n[i]) ++i;
    prefix.resize(i);
  }
  // Cut back to a whole word unless every name continues with a separator right here.
  bool whole = true;
  for (const auto& n : names)
    if (n.size() > prefix.size() && !separator(n[prefix.size()])) whole = false;
  if (!whole) {
    size_t cut = prefix.find_last_of("-_.");
    prefix.resize(cut == std::string::npos ? 0 : cut);
  }
  while (!prefix.empty() && separator(prefix.back())) prefix.pop_back();
  return prefix;
}
}  // namespace

std::string unit_name(const std::vector<std::string>& members, const std::string& regex) {
  if (members.size() == 1) return members.front();
  if (!regex.empty()) {
    const std::regex re = compile_regex(regex);
    std::string agreed;
    bool ok = true;
    for (const auto& m : members) {
      std::smatch match;
      if (!std::regex_search(m, match, re) || match.size() < 2 || match.length(1) == 0 ||
          (!agreed.empty() && agreed != match.str(1))) {
        ok = false;
        break;
      }
      agreed = match.str(1);
    }
    if (ok) return agreed;
  }
  std::string shared = shared_words(members);
  if (shared.size() >= 2) return shared;
  std::string prefix = common_prefix_at_separator(members);
  if (prefix.size() >= 2) return prefix;
  // Nearly all members share a stem (a unit's rail leaves plus one odd switch): use it.
  std::map<std::string, size_t> stems;
  for (const auto& m : members) {
    size_t cut = m.find_last_of("-_.");
    // "sw-<guid>" names (no usable description) share a stem that says nothing.
    if (cut != std::string::npos && cut >= 2 && m.compare(0, 3, "sw-") != 0) ++stems[m.substr(0, cut)];
  }
  for (const auto& [stem, n] : stems)
    if (4 * n >= 3 * members.size()) return stem;
  return members.front() + "-x" + std::to_string(members.size());
}

void name_groups(Cluster& c, const std::string& regex) {
  // A one-leaf group is that leaf and keeps its (already unique) name; a multi-leaf group must
  // not take the name of any switch or of another group.
  std::set<std::string> taken;
  for (const auto& s : c.switches) taken.insert(s.name);
  for (auto& g : c.groups) {
    std::vector<std::string> members;
    for (int s : g.leaves) members.push_back(c.switches[s].name);
    std::string name = unit_name(members, regex);
    if (g.leaves.size() > 1) {
      const std::string base = name;
      for (int k = 2; taken.count(name); ++k) name = base + "-" + std::to_string(k);
      taken.insert(name);
    }
    g.name = name;
  }
}

}  // namespace slurmtopo
