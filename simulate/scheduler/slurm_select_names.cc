// Hostlists of an allocation without sorting strings, for node tables whose names are one prefix
// and a number (Model::simple_names): what compress_hostlist writes for them, checked against
// it when the tables are built. place() writes a hostlist for every placement; sorting and
// parsing ~100 names each time cost more than the placement itself.
#include <cctype>
#include <charconv>
#include <string>
#include <vector>

#include "simulate/scheduler/slurm_select_model.h"
#include "slurm/hostlist.h"

namespace slurmtopo::select_detail {

// The hostlist of node indices in table order for simple names (Model::simple_names): what
// compress_hostlist writes for them — consecutive numbers joined into runs, one bracket.
std::string simple_hostlist(const SlurmSelect::Model& m, const std::vector<int>& nodes) {
  std::string out = m.name_prefix;
  if (nodes.empty()) return {};
  auto number = [&](uint64_t v) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    const int len = static_cast<int>(end - digits);
    if (len < m.name_width) out.append(m.name_width - len, '0');
    out.append(digits, end);
  };
  if (nodes.size() > 1) out += '[';
  for (size_t i = 0; i < nodes.size();) {
    size_t j = i;
    while (j + 1 < nodes.size() && m.name_number[nodes[j + 1]] == m.name_number[nodes[j]] + 1) ++j;
    if (i > 0) out += ',';
    number(m.name_number[nodes[i]]);
    if (j > i) out += '-', number(m.name_number[nodes[j]]);
    i = j + 1;
  }
  if (nodes.size() > 1) out += ']';
  return out;
}

// Decides Model::simple_names, and keeps it only if it writes what compress_hostlist writes
// for the whole table and for every other node.
void find_simple_names(SlurmSelect::Model& m) {
  m.simple_names = false;
  bool padded = false, unpadded = true;
  int width = -1;
  for (size_t i = 0; i < m.names.size(); ++i) {
    const std::string& name = m.names[i];
    size_t d = name.size();
    while (d > 0 && std::isdigit(static_cast<unsigned char>(name[d - 1]))) --d;
    const size_t digits = name.size() - d;
    if (digits == 0 || digits > 18) return;
    if (i == 0) m.name_prefix = name.substr(0, d);
    else if (name.compare(0, d, m.name_prefix) != 0 || d != m.name_prefix.size()) return;
    if (width == -1) width = static_cast<int>(digits);
    padded = padded || static_cast<int>(digits) != width;  // not one width
    unpadded = unpadded && (digits == 1 || name[d] != '0');
    m.name_number.push_back(std::stoull(name.substr(d)));
    if (i > 0 && m.name_number[i] <= m.name_number[i - 1]) return;
  }
  if (padded && !unpadded) return;
  m.name_width = padded ? 0 : width;
  std::vector<int> all(m.names.size()), every_other;
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  for (size_t i = 0; i < all.size(); i += 2) every_other.push_back(static_cast<int>(i));
  auto names_of = [&](const std::vector<int>& idx) {
    std::vector<std::string> v;
    for (int i : idx) v.push_back(m.names[i]);
    return v;
  };
  m.simple_names = simple_hostlist(m, all) == compress_hostlist(names_of(all)) &&
                   simple_hostlist(m, every_other) == compress_hostlist(names_of(every_other));
}

}  // namespace slurmtopo::select_detail
