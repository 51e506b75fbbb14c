#include "base/nearest_word.h"

#include <algorithm>
#include <cctype>

namespace slurmtopo {

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

size_t edit_distance(const std::string& a_in, const std::string& b_in) {
  const std::string a = lower(a_in), b = lower(b_in);
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string nearest_word(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = 0;
  const std::string w = lower(word);
  const size_t strip = w.find_first_not_of('-') == std::string::npos ? 0 : w.find_first_not_of('-');
  const size_t limit = std::max<size_t>(1, (w.size() - strip) / 3);
  for (const std::string& c : candidates) {
    const std::string lc = lower(c);
    size_t d = edit_distance(w, lc);
    const bool prefix = w.size() - strip >= 3 && (lc.starts_with(w) || w.starts_with(lc));
    if (d > limit && !prefix) continue;
    if (best.empty() || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace slurmtopo
