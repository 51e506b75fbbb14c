// ibdiagnet2.pm → CounterReadings. A block, as ibdiagnet 2 writes it (a real ibdiagnet 2.10
// capture on Quantum-2, ../shared/reference/port-counters.md; tests/data/counters/README.md):
//   -------------------------------------------------------
//   Port=1 Lid=0x00b4 GUID=0xb0cf0e0300d33fc0 Device=54002 Port Name=ib-switch-sequoia/U1/P1/1/1
//   -------------------------------------------------------
//   symbol_error_counter=0x00000000
//   port_xmit_wait_extended=0x000000023413832c
// GUID is the port's GUID (a switch's ports share its node GUID). Values are hex, or NA where
// the port does not support the counter.
#include "discover/ibdiagnet_pm.h"

#include "base/input_error.h"
#include "base/lines.h"
#include "base/numbers.h"
#include "base/text.h"

namespace slurmtopo {

namespace {

// "Key=value" from a header line, up to the next space ("" when absent).
std::string_view header_field(std::string_view line, std::string_view key) {
  for (size_t at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
    if (at > 0 && line[at - 1] != ' ') continue;
    std::string_view v = line.substr(at + key.size());
    return v.substr(0, std::min(v.find(' '), v.size()));
  }
  return {};
}

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : text_(text), file_(file) {
    out_.source = file;
    out_.form = "ibdiagnet2.pm";
  }

  CounterReadings read() {
    LineReader lines(text_);
    std::string_view line;
    while (lines.next(line)) {
      line_ = lines.number();
      read_line(trim(line));
    }
    if (out_.ports.empty())
      throw InputError(file_, 0, "expected an ibdiagnet2.pm file: a \"Port=N Lid=0x.. GUID=0x..\" block");
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::string_view found) const {
    throw InputError(file_, line_, "expected " + what + ", found " + snippet(found));
  }

  void read_line(std::string_view t) {
    // "# Running timestamp : 2025-03-31 23:43:18 UTC +0000": when the counters were read.
    if (constexpr std::string_view kWhen = "# Running timestamp : "; t.starts_with(kWhen))
      out_.read_at = std::string(trim(t.substr(kWhen.size())));
    if (t.empty() || t.front() == '#' || t.find_first_not_of('-') == std::string_view::npos) return;
    if (t.starts_with("Port=")) return read_header(t);
    if (out_.ports.empty()) fail("a \"Port=N Lid=0x.. GUID=0x..\" line before the first counter", t);
    const size_t eq = t.find('=');
    if (eq == std::string_view::npos || eq == 0) fail("a counter line \"name=0x<hex>\"", t);
    const std::string_view name = t.substr(0, eq), value = t.substr(eq + 1);
    if (value == "NA" || value == "N/A") return;
    const auto v = parse_uint64(value);
    if (!v) fail("a number or NA after \"" + std::string(name) + "=\"", value);
    const auto c = find_port_counter(name);
    if (!c) return;
    PortCounters& p = out_.ports.back();
    const bool extended = name.ends_with("_extended");
    const auto bit = 1u << static_cast<int>(*c);
    // The 64-bit copy wins whichever comes first; the narrow one only fills a gap.
    if (extended) {
      p.set(*c, *v, 64);
      extended_ |= bit;
    } else if (!(extended_ & bit)) {
      p.set(*c, *v, port_counter_names()[static_cast<size_t>(*c)].bits);
    }
  }

  void read_header(std::string_view t) {
    const auto port = parse_uint64(header_field(t, "Port="));
    const auto lid = parse_uint64(header_field(t, "Lid="));
    const auto guid = parse_uint64(header_field(t, "GUID="));
    if (!port || *port > 255 || !lid || *lid > 0xBFFF || !guid)
      fail("\"Port=N Lid=0x<hex> GUID=0x<hex>\" with N 0-255", t);
    PortCounters p;
    p.port = static_cast<int>(*port);
    p.lid = static_cast<uint16_t>(*lid);
    p.guid = *guid;
    p.port_guid = true;
    if (const size_t at = t.find("Port Name="); at != std::string_view::npos)
      p.description = std::string(t.substr(at + 10));
    p.line = line_;
    out_.ports.push_back(std::move(p));
    extended_ = 0;
  }

  std::string_view text_;
  const std::string& file_;
  CounterReadings out_;
  uint32_t extended_ = 0;  // counters of the current block given by their 64-bit copy
  int line_ = 0;
};

}  // namespace

CounterReadings parse_ibdiagnet_pm(std::string_view text, const std::string& file) {
  return Reader(text, file).read();
}

bool looks_like_ibdiagnet_pm(std::string_view head) {
  LineReader lines(head);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view t = trim(line);
    if (t.empty() || t.front() == '#' || t.find_first_not_of('-') == std::string_view::npos) continue;
    return t.starts_with("Port=") && t.find(" GUID=") != std::string_view::npos;
  }
  return false;
}

}  // namespace slurmtopo
