// ibqueryerrors text → CounterReadings. Lines, as infiniband-diags 44 prints them (captured on
// ibsim, tests/data/counters/README.md):
//   Errors for 0xb83fd20300a00000 "MF0;su1-rail0:MQM8700/U1"          a switch: its node GUID
//      GUID 0xb83fd20300a00000 port ALL: [SymbolErrorCounter == 500] [LinkDownedCounter == 255]
//      GUID 0xb83fd20300a00000 port 1: [SymbolErrorCounter == 500]
//          Link info:      1   1[  ] ==( 4X 53.125 Gbps Active/  LinkUp)==> ...     (-r)
//   Errors for "dgx002 mlx5_0"                                         a CA: its port GUIDs
//      GUID 0xb83fd20300c00011 port 1: [PortRcvErrors == 7] [PortXmitData == 2664 (10.406KB)]
//   ## Summary: 4 nodes checked, 3 bad nodes found
//   ##          1 PMA query failures
//   ## Thresholds: [SymbolErrorCounter = 600][PortXmitDiscards = 5]
// A value followed by "(500.000)" came from PortCountersExtended (64 bits wide).
#include "discover/ibqueryerrors_text.h"

#include <cctype>
#include <limits>

#include "base/input_error.h"
#include "base/lines.h"
#include "base/numbers.h"
#include "base/text.h"

namespace slurmtopo {

namespace {

bool take(std::string_view& s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return false;
  s.remove_prefix(prefix.size());
  return true;
}

// "0x<hex>" up to the next space.
std::optional<uint64_t> take_guid(std::string_view& s) {
  if (!s.starts_with("0x")) return std::nullopt;
  const size_t end = std::min(s.find(' '), s.size());
  const auto v = parse_uint64(s.substr(0, end));
  if (v) s.remove_prefix(end);
  return v;
}

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : text_(text), file_(file) {
    out_.source = file;
    out_.form = "ibqueryerrors";
  }

  CounterReadings read() {
    LineReader lines(text_);
    std::string_view line;
    while (lines.next(line)) {
      line_ = lines.number();
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      read_line(line);
    }
    if (!seen_summary_ && out_.ports.empty())
      throw InputError(file_, 0, "expected ibqueryerrors output: \"Errors for\" blocks and a \"## Summary:\" line");
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::string_view found) const {
    throw InputError(file_, line_, "expected " + what + ", found " + snippet(found));
  }

  void read_line(std::string_view line) {
    const std::string_view t = trim(line);
    if (t.empty()) return;
    // Its own warnings when saved with 2>&1: a query that failed is counted in the summary.
    if (t.starts_with("ibwarn:") || t.starts_with("ibpanic:")) return;
    std::string_view rest = t;
    if (take(rest, "Errors for ")) return read_header(rest);
    if (take(rest, "GUID ")) return read_port(t, rest);
    if (t.starts_with("Link info:")) return;
    if (take(rest, "##")) return read_summary(trim(rest));
    fail("an ibqueryerrors line (\"Errors for\", \"GUID 0x... port N:\", \"Link info:\" or \"## Summary\")", t);
  }

  void read_header(std::string_view rest) {
    switch_guid_ = take_guid(rest).value_or(0);
    rest = trim(rest);
    if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"')
      fail("the node's description in quotes after \"Errors for [0xGUID]\"", rest);
    description_ = std::string(rest.substr(1, rest.size() - 2));
    in_node_ = true;
  }

  // `line` is the whole (trimmed) line, as errors quote it; `rest` follows its "GUID ".
  void read_port(std::string_view line, std::string_view rest) {
    if (!in_node_) fail("an \"Errors for\" line before the first port line", line);
    const auto guid = take_guid(rest);
    if (!guid) fail("a GUID \"0x<hex>\" after \"GUID\"", rest.substr(0, std::min(rest.find(' '), rest.size())));
    if (!take(rest, " port ")) fail("\"GUID 0x<hex> port N:\"", line);
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) fail("\"GUID 0x<hex> port N:\" with a colon", line);
    const std::string_view port_text = rest.substr(0, colon);
    PortCounters p;
    if (port_text == "ALL") {
      p.port = PortCounters::kAllPorts;
    } else {
      const auto n = parse_uint64(port_text);
      if (!n || *n > 254) fail("a port number 0-254 or ALL", port_text);
      p.port = static_cast<int>(*n);
    }
    p.guid = *guid;
    // A CA's block has no node GUID in its header, and its lines carry port GUIDs.
    p.port_guid = switch_guid_ == 0;
    p.description = description_;
    p.line = line_;
    rest.remove_prefix(colon + 1);
    read_values(trim(rest), p);
    out_.ports.push_back(std::move(p));
  }

  // "[Name == 500] [Name == 500 (500.000)] ..."; names that are no error counter (data,
  // packets, the --details counters) are read and left.
  void read_values(std::string_view rest, PortCounters& p) {
    while (!rest.empty()) {
      if (rest.front() != '[') fail("a counter \"[Name == value]\"", rest);
      const size_t close = rest.find(']');
      if (close == std::string_view::npos) fail("the closing ']' of a counter (line cut off?)", rest);
      std::string_view item = rest.substr(1, close - 1);
      rest = trim(rest.substr(close + 1));
      const size_t eq = item.find(" == ");
      if (eq == std::string_view::npos) fail("\"Name == value\" inside the brackets", item);
      const std::string_view name = item.substr(0, eq);
      std::string_view value = item.substr(eq + 4);
      bool extended = false;
      if (const size_t paren = value.find(" ("); paren != std::string_view::npos) {
        extended = true;
        value = value.substr(0, paren);
      }
      const auto v = parse_uint64(value);
      if (!v) fail("a whole number after \"" + std::string(name) + " ==\"", value);
      if (const auto c = find_port_counter(name))
        p.set(*c, *v, extended ? 64 : port_counter_names()[static_cast<size_t>(*c)].bits);
    }
  }

  void read_summary(std::string_view rest) {
    std::string_view r = rest;
    if (take(r, "Summary:")) {
      seen_summary_ = true;
      return;
    }
    if (take(r, "Thresholds:")) {
      for (r = trim(r); !r.empty(); r = trim(r)) {
        const size_t close = r.find(']');
        if (r.front() != '[' || close == std::string_view::npos) fail("a threshold \"[Name = value]\"", r);
        const std::string_view item = r.substr(1, close - 1);
        r.remove_prefix(close + 1);
        const size_t eq = item.find(" = ");
        const auto v = eq == std::string_view::npos ? std::nullopt : parse_uint64(item.substr(eq + 3));
        if (!v) fail("a threshold \"[Name = value]\"", item);
        if (const auto c = find_port_counter(item.substr(0, eq))) out_.printed_above.emplace_back(*c, *v);
      }
      return;
    }
    // "##          2 PMA query failures"; the other summary lines say nothing per port.
    if (const size_t at = r.find(" PMA query failures"); at != std::string_view::npos) {
      // A count that does not fit an int is no count of queries (a port is queried once).
      const std::string_view count = trim(r.substr(0, at));
      const auto n = parse_uint64(count);
      if (!n || *n > static_cast<uint64_t>(std::numeric_limits<int>::max()))
        fail("a count 0-" + std::to_string(std::numeric_limits<int>::max()) + " before \"PMA query failures\"",
             count);
      out_.failed_queries = static_cast<int>(*n);
    }
  }

  std::string_view text_;
  const std::string& file_;
  CounterReadings out_;
  int line_ = 0;
  uint64_t switch_guid_ = 0;
  std::string description_;
  bool in_node_ = false;
  bool seen_summary_ = false;
};

}  // namespace

CounterReadings parse_ibqueryerrors_text(std::string_view text, const std::string& file) {
  return Reader(text, file).read();
}

bool looks_like_ibqueryerrors(std::string_view head) {
  LineReader lines(head);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view t = trim(line);
    if (t.empty() || t.starts_with("ibwarn:")) continue;
    return t.starts_with("Errors for ") || t.starts_with("## Summary:");
  }
  return false;
}

}  // namespace slurmtopo
