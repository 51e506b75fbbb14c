// perfquery text → CounterReadings. Blocks, as infiniband-diags 44 prints them (captured on
// ibsim, tests/data/counters/README.md):
//   # Port counters: Lid 1 port 1 (CapMask: 0x1300)
//   PortSelect:......................1
//   SymbolErrorCounter:..............500
//   PortXmitWait:....................4294967295
//   # Port extended counters: Lid 1 port 1 (CapMask: 0x1300 CapMask2: 0x0000000)
//   PortXmitData:....................116280
// The field names are libibmad's, padded with dots. A PortCountersExtended block carries the
// error counters too where CapabilityMask2 bit 1 is set, 64 bits wide. The same port in two
// blocks (perfquery and perfquery -x saved into one file) is one port, and a counter the -x
// block gave keeps its 64-bit value whichever block comes first.
#include "discover/perfquery_text.h"

#include <map>
#include <vector>

#include "base/input_error.h"
#include "base/lines.h"
#include "base/numbers.h"
#include "base/text.h"

namespace slurmtopo {

namespace {

constexpr std::string_view kBasic = "# Port counters: ";
constexpr std::string_view kExtended = "# Port extended counters: ";

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : text_(text), file_(file) {
    out_.source = file;
    out_.form = "perfquery";
  }

  CounterReadings read() {
    LineReader lines(text_);
    std::string_view line;
    while (lines.next(line)) {
      line_ = lines.number();
      read_line(trim(line));
    }
    if (out_.ports.empty())
      throw InputError(file_, 0, "expected perfquery output: a \"# Port counters: Lid L port P\" block");
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::string_view found) const {
    throw InputError(file_, line_, "expected " + what + ", found " + snippet(found));
  }

  void read_line(std::string_view t) {
    if (t.empty() || t.starts_with("ibwarn:")) return;
    if (t.starts_with(kBasic)) return read_header(t.substr(kBasic.size()), false);
    if (t.starts_with(kExtended)) return read_header(t.substr(kExtended.size()), true);
    if (t.front() == '#') return;
    if (current_ < 0) fail("a \"# Port counters: Lid L port P\" line before the first counter", t);
    const size_t colon = t.find(':');
    if (colon == std::string_view::npos || colon == 0) fail("a counter line \"Name:.....value\"", t);
    const std::string_view name = t.substr(0, colon);
    std::string_view value = t.substr(colon + 1);
    while (!value.empty() && value.front() == '.') value.remove_prefix(1);
    const auto v = parse_uint64(value);
    if (!v) fail("a whole number after \"" + std::string(name) + ":...\"", value);
    const auto c = find_port_counter(name);
    if (!c) return;
    const uint32_t bit = 1u << static_cast<int>(*c);
    if (extended_) {
      out_.ports[current_].set(*c, *v, 64);
      wide_[current_] |= bit;
    } else if (!(wide_[current_] & bit)) {
      // A plain block after the -x block of the same port keeps the 64-bit value: its own has
      // 4 to 32 bits and may have stopped at all ones long before.
      out_.ports[current_].set(*c, *v, port_counter_names()[static_cast<size_t>(*c)].bits);
    }
  }

  // "Lid 1 port 1 (CapMask: 0x1300)"; a LID of 0 or out of the unicast range is no port.
  void read_header(std::string_view rest, bool extended) {
    const std::string_view whole = rest;
    auto word = [&rest] {
      rest = trim(rest);
      const size_t end = std::min(rest.find(' '), rest.size());
      const std::string_view w = rest.substr(0, end);
      rest.remove_prefix(end);
      return w;
    };
    const std::string_view lid_word = word(), lid = word(), port_word = word(), port = word();
    const auto l = parse_uint64(lid), p = parse_uint64(port);
    if (lid_word != "Lid" || port_word != "port" || !l || !p || *l < 1 || *l > 0xBFFF || *p > 255)
      fail("\"Lid L port P\" with L a unicast LID and P a port 0-255", whole);
    extended_ = extended;
    const auto key = std::make_pair(static_cast<uint16_t>(*l), static_cast<int>(*p));
    auto [it, added] = index_.emplace(key, static_cast<int>(out_.ports.size()));
    if (added) {
      PortCounters pc;
      pc.lid = key.first;
      pc.port = key.second;
      pc.line = line_;
      out_.ports.push_back(std::move(pc));
      wide_.push_back(0);
    }
    current_ = it->second;
  }

  std::string_view text_;
  const std::string& file_;
  CounterReadings out_;
  std::map<std::pair<uint16_t, int>, int> index_;  // (LID, port) → out_.ports
  std::vector<uint32_t> wide_;  // per out_.ports, bit per PortCounter: given by a -x block, 64 bits
  int current_ = -1;
  bool extended_ = false;
  int line_ = 0;
};

}  // namespace

CounterReadings parse_perfquery_text(std::string_view text, const std::string& file) {
  return Reader(text, file).read();
}

bool looks_like_perfquery(std::string_view head) {
  LineReader lines(head);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view t = trim(line);
    if (t.empty() || t.starts_with("ibwarn:")) continue;
    return t.starts_with(kBasic) || t.starts_with(kExtended);
  }
  return false;
}

}  // namespace slurmtopo
