// Slurm 22.05 hostlist semantics, re-derived from src/common/hostlist.c and checked against
// `scontrol show hostnames|hostlist` (tests/slurm/hostlist_test.cc). Where 22.05 silently
// produces a mangled name we throw instead; each such place says so. One file, longer than
// most: expansion, compression and ordering share the prefix/number/suffix rules, and read
// best beside each other and beside hostlist.c.
#include "slurm/hostlist.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "base/input_error.h"
#include "base/words.h"

namespace slurmtopo {
namespace {

using ulong = unsigned long;  // Slurm keeps range bounds in unsigned long (64-bit here)

constexpr ulong kMaxRange = 64 * 1024;        // MAX_RANGE: hosts in one `lo-hi`
constexpr ulong kMaxPrefixCount = 64 * 1024;  // MAX_PREFIX_CNT: values of one outer group
// Not Slurm's: an expression is refused before it expands to more hosts than any cluster has
// (`a[0-65535]b[0-65535]` is 4 billion names), rather than running out of memory.
constexpr ulong kMaxHosts = 1024 * 1024;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
// hostlist_create's separators. 22.05 does not split on newlines.
bool is_separator(char c) { return c == ',' || c == ' ' || c == '\t'; }

[[noreturn]] void fail(std::string_view expr, const std::string& why) {
  throw std::invalid_argument("hostlist `" + std::string(expr) + "`: " + why);
}

// ---- numbers -------------------------------------------------------------------------

// strtoul(s, &end, 10) as Slurm uses it: leading white space and a sign are accepted, and a
// `-` wraps modulo 2^64. `used` is 0 when no digit was read (C sets end = s then).
struct Number {
  ulong value = 0;
  size_t used = 0;
  bool overflow = false;
};

Number parse_ulong(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && is_space(s[i])) ++i;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  Number n;
  const size_t first_digit = i;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    const ulong d = static_cast<ulong>(s[i] - '0');
    if (n.value > (std::numeric_limits<ulong>::max() - d) / 10) n.overflow = true;
    n.value = n.value * 10 + d;
  }
  if (i == first_digit) return {};
  n.used = i;
  if (negative) n.value = 0 - n.value;
  return n;
}

// printf("%0*lu", width, value)
void append_padded(std::string& out, ulong value, int width) {
  const std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) < width) out.append(width - digits.size(), '0');
  out += digits;
}

// ---- expansion -----------------------------------------------------------------------

struct Range {
  ulong lo = 0, hi = 0;
  int width = 0;  // zero padding of every value: the length of the text before `-`
};

// One `lo-hi` item of a bracket, with _parse_single_range's quirks: the width counts the
// characters before `-` even if they are spaces or a sign (`[ 1-2]` is 01,02), `1-` is 1,
// and trailing junk after lo is ignored when hi follows (`[1a-3]` is 01,02,03).
Range parse_range(std::string_view expr, std::string_view item) {
  auto bad = [&](const std::string& why) { fail(expr, "range `" + std::string(item) + "` " + why); };
  if (item.find('x') != std::string_view::npos) bad("is not a number range (no `x` boxes)");
  const size_t dash = item.find('-');
  const std::string_view lo_text = item.substr(0, dash);
  std::string_view hi_text;
  if (dash != std::string_view::npos) {
    hi_text = item.substr(dash + 1);
    if (!hi_text.empty() && hi_text[0] == '-') bad("has a negative number");
  }
  const Number lo = parse_ulong(lo_text);
  if (lo.used == 0) bad("does not start with a number");
  Range r{lo.value, lo.value, static_cast<int>(lo_text.size())};
  bool overflow = lo.overflow;
  if (!hi_text.empty()) {
    const Number hi = parse_ulong(hi_text);
    if (hi.used == 0 || hi.used != hi_text.size()) bad("is not `lo-hi` with numbers");
    r.hi = hi.value;
    overflow = overflow || hi.overflow;
  } else if (lo.used != lo_text.size()) {
    bad("is not a number");
  }
  // 22.05 clamps to ULONG_MAX and prints a different name than the one written.
  if (overflow) bad("has a number above 18446744073709551615, which Slurm mangles");
  if (r.lo > r.hi) bad("runs backwards");
  if (r.hi - r.lo >= kMaxRange) bad("has more than 65536 hosts, Slurm's limit per range");
  return r;
}

std::vector<Range> parse_range_list(std::string_view expr, std::string_view inside) {
  std::vector<Range> ranges;
  size_t start = 0;
  while (true) {
    const size_t comma = inside.find(',', start);
    ranges.push_back(parse_range(expr, inside.substr(start, comma - start)));
    if (comma == std::string_view::npos) return ranges;
    start = comma + 1;
  }
}

// Splits on separators outside brackets, as _next_tok does for balanced input; unbalanced
// or nested brackets are errors (22.05 would invent names such as `n]` from `n[1-3`).
std::vector<std::string_view> tokens(std::string_view expr) {
  std::vector<std::string_view> out;
  size_t start = 0;
  bool in_bracket = false;
  for (size_t i = 0; i <= expr.size(); ++i) {
    const char c = i < expr.size() ? expr[i] : ',';
    if (c == '[') {
      if (in_bracket) fail(expr, "nested `[`");
      in_bracket = true;
    } else if (c == ']') {
      if (!in_bracket) fail(expr, "`]` without `[`");
      in_bracket = false;
    } else if (!in_bracket && is_separator(c)) {
      if (i > start) out.push_back(expr.substr(start, i - start));
      start = i + 1;
    } else if ((static_cast<unsigned char>(c) < 0x20 || c == 0x7f) &&
               !(in_bracket && is_space(c))) {  // strtoul skips white space in a range
      fail(expr, "control character in a host name");
    }
  }
  if (in_bracket) fail(expr, "`[` without `]`");
  return out;
}

[[noreturn]] void too_many_hosts(std::string_view expr) {
  fail(expr, "expands to more than " + std::to_string(kMaxHosts) + " hosts, more than any cluster has");
}

// A plain name: Slurm reprints it from its trailing number, so a number that does not fit in
// 64 bits comes back changed (n18446744073709551616 -> n18446744073709551615).
void check_plain_name(std::string_view expr, std::string_view name) {
  size_t i = name.size();
  while (i > 0 && is_digit(name[i - 1])) --i;
  if (i < name.size() && parse_ulong(name.substr(i)).overflow)
    fail(expr, "`" + std::string(name) + "` ends in a number above 18446744073709551615, "
                   "which Slurm mangles");
}

// `lit0[g1]lit1[g2]...[gk]`: groups 1..k-1 form the prefix. 22.05's recursion makes group
// k-1 the outermost loop, then k-2 ... 1, and group k the innermost.
void expand_token(std::string_view expr, std::string_view token, std::vector<std::string>& out) {
  std::vector<std::string_view> literals;
  std::vector<std::vector<Range>> groups;
  size_t pos = 0;
  while (true) {
    const size_t open = token.find('[', pos);
    if (open == std::string_view::npos) break;
    const size_t close = token.find(']', open);
    literals.push_back(token.substr(pos, open - pos));
    groups.push_back(parse_range_list(expr, token.substr(open + 1, close - open - 1)));
    pos = close + 1;
  }
  if (groups.empty()) {
    check_plain_name(expr, token);
    if (out.size() >= kMaxHosts) too_many_hosts(expr);
    out.emplace_back(token);
    return;
  }
  // 23.02 added suffixes (`n[1-2]-ib`); 22.05 rejects the whole expression.
  if (pos != token.size())
    fail(expr, "text after the last `]` (`" + std::string(token.substr(pos)) +
                   "`), which Slurm 22.05 rejects");

  const size_t k = groups.size();
  std::vector<std::vector<std::string>> values(k);  // each group's numbers as printed
  for (size_t g = 0; g < k; ++g) {
    ulong count = 0;
    for (const Range& r : groups[g]) {
      count += r.hi - r.lo + 1;
      if (g + 1 < k && count > kMaxPrefixCount)
        fail(expr, "a bracket before the last one expands to more than 65536 values");
      if (count > kMaxHosts) too_many_hosts(expr);
      for (ulong v = r.lo;; ++v) {
        std::string text;
        append_padded(text, v, r.width);
        values[g].push_back(std::move(text));
        if (v == r.hi) break;
      }
    }
  }
  ulong names = 1;  // each factor is at most kMaxHosts, so the product cannot wrap before the check
  for (const auto& v : values)
    if ((names *= v.size()) > kMaxHosts) break;
  if (out.size() + names > kMaxHosts) too_many_hosts(expr);
  std::vector<size_t> order;  // outermost loop first
  for (size_t g = k - 1; g-- > 0;) order.push_back(g);
  order.push_back(k - 1);

  std::vector<size_t> pick(k, 0);
  auto emit = [&] {
    std::string name;
    for (size_t g = 0; g < k; ++g) {
      name += literals[g];
      name += values[g][pick[g]];
    }
    // A zero padding as wide as the junk before `-` (`[ 00...0-9]`) can run the digits past 64
    // bits, as a plain name can.
    check_plain_name(expr, name);
    out.push_back(std::move(name));
  };
  // Odometer over `order`, the last entry turning fastest.
  while (true) {
    emit();
    size_t d = order.size();
    while (d > 0) {
      const size_t g = order[d - 1];
      if (++pick[g] < values[g].size()) break;
      pick[g] = 0;
      --d;
    }
    if (d == 0) return;
  }
}

// ---- natural order ------------------------------------------------------------------

// _compare_left/_compare_right of Martin Pool's strnatcmp, which Slurm bundles.
int compare_digits_as_number(std::string_view a, size_t i, std::string_view b, size_t j) {
  int bias = 0;  // the first differing digit decides if the runs are equally long
  for (;; ++i, ++j) {
    const bool da = i < a.size() && is_digit(a[i]), db = j < b.size() && is_digit(b[j]);
    if (!da && !db) return bias;
    if (!da) return -1;
    if (!db) return 1;
    if (bias == 0 && a[i] != b[j]) bias = a[i] < b[j] ? -1 : 1;
  }
}

int compare_digits_as_fraction(std::string_view a, size_t i, std::string_view b, size_t j) {
  for (;; ++i, ++j) {
    const bool da = i < a.size() && is_digit(a[i]), db = j < b.size() && is_digit(b[j]);
    if (!da && !db) return 0;
    if (!da) return -1;
    if (!db) return 1;
    if (a[i] != b[j]) return a[i] < b[j] ? -1 : 1;
  }
}

int strnatcmp(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (true) {
    while (i < a.size() && is_space(a[i])) ++i;
    while (j < b.size() && is_space(b[j])) ++j;
    const char ca = i < a.size() ? a[i] : '\0', cb = j < b.size() ? b[j] : '\0';
    if (is_digit(ca) && is_digit(cb)) {
      // A leading zero makes the run compare digit by digit ("fractional").
      const int r = (ca == '0' || cb == '0') ? compare_digits_as_fraction(a, i, b, j)
                                             : compare_digits_as_number(a, i, b, j);
      if (r != 0) return r;
    }
    if (ca == '\0' && cb == '\0') return 0;
    // Plain `char`, signed on the x86 builds of Slurm: bytes >= 0x80 sort before ASCII.
    const auto sa = static_cast<signed char>(ca), sb = static_cast<signed char>(cb);
    if (sa != sb) return sa < sb ? -1 : 1;
    ++i;
    ++j;
  }
}

// ---- compression ---------------------------------------------------------------------

// _zero_padded: zeros "%0*lu" adds to num at width.
int zero_padding(ulong num, int width) {
  int digits = 1;
  while (num /= 10) ++digits;
  return width > digits ? width - digits : 0;
}

// _width_equiv: can n (printed at wn) and m (at wm) share one width? If so, the width of
// the one whose padding would not change is set to the other's, exactly as Slurm does, so
// later joins see the same widths Slurm's would.
bool width_equiv(ulong n, int& wn, ulong m, int& wm) {
  if (wn == wm) return true;
  const int npad = zero_padding(n, wn), nmpad = zero_padding(n, wm);
  const int mpad = zero_padding(m, wm), mnpad = zero_padding(m, wn);
  if (npad != nmpad && mpad != mnpad) return false;
  if (npad != nmpad)
    wm = wn;
  else
    wn = wm;
  return true;
}

struct Host {
  std::string_view prefix;  // the whole name when there is no trailing number
  bool numbered = false;
  ulong num = 0;
  int width = 0;
};

Host split_host(std::string_view name) {
  if (name.empty()) throw std::invalid_argument("hostlist: empty host name");
  for (char c : name)
    if (is_separator(c) || c == '[' || c == ']' || static_cast<unsigned char>(c) < 0x20)
      throw std::invalid_argument("hostlist: `" + std::string(name) +
                                  "` cannot be a host name (separator, bracket or control "
                                  "character)");
  size_t i = name.size();
  while (i > 0 && is_digit(name[i - 1])) --i;
  if (i == name.size()) return {name};
  const Number n = parse_ulong(name.substr(i));
  if (n.overflow)
    throw std::invalid_argument("hostlist: `" + std::string(name) +
                                "` ends in a number above 18446744073709551615");
  return {name.substr(0, i), true, n.value, static_cast<int>(name.size() - i)};
}

// hostrange_cmp restricted to single hosts, which is a total order: natural order of the
// prefix, names without a number first, then by written width, then by number. Within one
// prefix a zero-padded number sorts after the unpadded ones with fewer digits and before
// those with as many or more, which is what Slurm's width-aware compare yields.
bool host_less(const Host& x, const Host& y) {
  if (int c = strnatcmp(x.prefix, y.prefix)) return c < 0;
  if (x.prefix != y.prefix) return x.prefix < y.prefix;  // only differ by white space
  if (x.numbered != y.numbered) return !x.numbered;
  if (x.width != y.width) return x.width < y.width;
  return x.num < y.num;
}

bool same_host(const Host& x, const Host& y) {
  return x.prefix == y.prefix && x.numbered == y.numbered && x.num == y.num &&
         x.width == y.width;
}

struct HostRange {
  std::string_view prefix;
  bool numbered = false;
  ulong lo = 0, hi = 0;
  int width = 0;
};

void append_range_numbers(std::string& out, const HostRange& r) {
  append_padded(out, r.lo, r.width);
  if (r.lo < r.hi) {
    out += '-';
    append_padded(out, r.hi, r.width);
  }
}

bool same_bracket(const HostRange& a, const HostRange& b) {
  return a.numbered && b.numbered && a.prefix == b.prefix;
}

}  // namespace

std::vector<std::string> expand_hostlist(std::string_view expr) {
  std::vector<std::string> out;
  for (std::string_view token : tokens(expr)) expand_token(expr, token, out);
  return out;
}

std::string compress_hostlist(std::vector<std::string> names) {
  std::vector<Host> hosts;
  hosts.reserve(names.size());
  for (const std::string& name : names) hosts.push_back(split_host(name));
  std::sort(hosts.begin(), hosts.end(), host_less);
  hosts.erase(std::unique(hosts.begin(), hosts.end(), same_host), hosts.end());

  // hostlist_uniq's join: extend the previous range by the next number when the two can
  // share a width.
  std::vector<HostRange> ranges;
  for (const Host& h : hosts) {
    if (!ranges.empty()) {
      HostRange& last = ranges.back();
      int width = h.width;
      if (last.numbered && h.numbered && last.prefix == h.prefix && last.hi + 1 == h.num &&
          last.hi != std::numeric_limits<ulong>::max() &&
          width_equiv(last.lo, last.width, h.num, width)) {
        last.hi = h.num;
        continue;
      }
    }
    ranges.push_back({h.prefix, h.numbered, h.num, h.num, h.width});
  }

  // hostlist_ranged_string: consecutive numbered ranges of one prefix share a bracket.
  std::string out;
  for (size_t i = 0; i < ranges.size();) {
    if (i > 0) out += ',';
    const HostRange& first = ranges[i];
    out += first.prefix;
    if (!first.numbered) {
      ++i;
      continue;
    }
    const bool bracket = first.lo < first.hi ||
                         (i + 1 < ranges.size() && same_bracket(first, ranges[i + 1]));
    if (bracket) out += '[';
    append_range_numbers(out, first);
    for (++i; i < ranges.size() && same_bracket(ranges[i - 1], ranges[i]); ++i) {
      out += ',';
      append_range_numbers(out, ranges[i]);
    }
    if (bracket) out += ']';
  }
  return out;
}

bool natural_less(std::string_view a, std::string_view b) {
  const int c = strnatcmp(a, b);
  return c != 0 ? c < 0 : a < b;
}

std::vector<std::string> expand_hostlist_at(std::string_view expr, const std::string& where, int line,
                                            const std::string& context) {
  try {
    return expand_hostlist(expr);
  } catch (const std::invalid_argument& e) {
    throw InputError(where, line, context.empty() ? std::string(e.what()) : context + ": " + e.what());
  }
}

std::string compress_hostlist_in_order(const std::vector<std::string>& names) {
  std::string out;
  std::vector<std::string> run;
  auto flush = [&] {
    if (run.empty()) return;
    out += (out.empty() ? "" : ",") + compress_hostlist(run);
    run.clear();
  };
  for (const std::string& h : names) {
    if (!run.empty() && !natural_less(run.back(), h)) flush();
    run.push_back(h);
  }
  flush();
  return out;
}

}  // namespace slurmtopo
