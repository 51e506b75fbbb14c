// nccl-tests stdout → NcclTestsRun. The forms, from NVIDIA/nccl-tests src/common.cu (v2.13–v2.17.2)
// and src/util.cu (v2.17.3+), ../shared/reference/nccl-evidence.md §1:
//   # nccl-tests version 2.19.6 nccl-headers=22809 nccl-library=22809        (v2.17.4+)
//   # Collective test starting: all_reduce_perf                             (v2.16.7+)
//   # nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 1 iters: 20 ...
//   #  Rank  0 Group  0 Pid  41235 on    gpu-017 device  0 [0000:1b:00] NVIDIA H100 80GB HBM3
//   #   Rank  0 Pid  20817 on    gpu-003 device  0 [0x07] NVIDIA A100-SXM4-80GB       (v2.13.0–3)
//   #       size         count      type   redop    root     time   algbw   busbw  #wrong ...
//          8             2     float     sum      -1    30.09    0.00    0.00       0 ...
//   # Out of bounds values : 0 OK
//   # Avg bus bandwidth    : 132.168
// A run starts at whichever of the first three lines comes first and ends at its average.
#include "discover/nccl_tests_output.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <type_traits>

#include "base/input_error.h"
#include "base/lines.h"
#include "base/numbers.h"
#include "base/text.h"
#include "base/words.h"

namespace slurmtopo {

namespace {

constexpr std::string_view kTestsVersionLine = "nccl-tests version";
constexpr std::string_view kStarting = "Collective test starting:";
constexpr std::string_view kOutOfBounds = "Out of bounds values";
constexpr std::string_view kAverage = "Avg bus bandwidth";

// The program names nccl-tests builds (src/*.cu), longest first so that a file named
// "reduce_scatter_perf.out" is not taken for "scatter" or "reduce".
constexpr std::string_view kCollectives[] = {"reduce_scatter", "all_reduce", "all_gather", "alltoallv",
                                             "hypercube",      "broadcast",  "alltoall",   "sendrecv",
                                             "scatter",        "gather",     "reduce"};

// A figure as nccl-tests prints it: "%.2f" narrowed to fit its column ("0.05", "372", "1e+03",
// "1.2e+04"), "%g" for #wrong, or "inf"/"nan" where a time came out 0.
std::optional<double> parse_figure(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<int> parse_int(std::string_view s) {
  long v = 0;
  if (!parse_long(s, v) || v < -2147483647L || v > 2147483647L) return std::nullopt;
  return static_cast<int>(v);
}

// `srun -l` puts "N: " (right-aligned to the widest task number) before each line of task N.
// Returns the label and takes it off `line`; "" where the line has none.
std::string_view take_label(std::string_view& line) {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  const size_t digits = i;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  if (i == digits || i - digits > 6 || i + 1 >= line.size() || line[i] != ':' || line[i + 1] != ' ') return {};
  const std::string_view label = line.substr(digits, i - digits);
  line.remove_prefix(i + 2);
  return label;
}

// "all_reduce_perf" (or a site's "all_reduce_perf_mpi") → "all_reduce".
std::string collective_of_program(std::string_view program) {
  const size_t at = program.find("_perf");
  return std::string(program.substr(0, at));
}

// The collective a file's name gives: "…/all_gather_perf-v2.13.out" → "all_gather"; "" where no
// "<collective>_perf" is in its last component.
std::string collective_of_file(const std::string& file) {
  const size_t slash = file.find_last_of('/');
  const std::string_view base = std::string_view(file).substr(slash == std::string::npos ? 0 : slash + 1);
  for (std::string_view c : kCollectives) {
    const size_t at = base.find(c);
    if (at != std::string_view::npos && base.substr(at + c.size()).starts_with("_perf")) return std::string(c);
  }
  return "";
}

// "[0000:1b:00]" (v2.14.1+, "%04x:%02x:%02x") as printed, lower case; the older "[0x1b]" (bus
// only) as the same domain 0 form, so both name a GPU the way hwloc and sysfs do.
std::optional<std::string> parse_bus_id(std::string_view w) {
  if (w.size() < 3 || w.front() != '[' || w.back() != ']') return std::nullopt;
  std::string s(w.substr(1, w.size() - 2));
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto hex = [](std::string_view h) {
    return !h.empty() && std::all_of(h.begin(), h.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
  };
  if (s.starts_with("0x")) {
    const std::string bus = s.substr(2);
    if (!hex(bus) || bus.size() > 2) return std::nullopt;
    return "0000:" + std::string(2 - bus.size(), '0') + bus + ":00";
  }
  const size_t a = s.find(':'), b = s.find(':', a == std::string::npos ? a : a + 1);
  if (a == std::string::npos || b == std::string::npos) return std::nullopt;
  const std::string_view v(s);
  if (!hex(v.substr(0, a)) || !hex(v.substr(a + 1, b - a - 1)) || !hex(v.substr(b + 1))) return std::nullopt;
  return s;
}

// What a column of the table holds, by its name in the header line.
enum class Field { size, count, type, redop, root, time, algbw, busbw, wrong, i_min, i_max, i_p99, i_cv, timestamp };

struct Column {
  Field field;
  int half;  // 0 out-of-place, 1 in-place, -1 the row's own (size … root, timestamp)
  std::string_view name;
};

std::optional<Field> field_named(std::string_view n) {
  static constexpr std::pair<std::string_view, Field> kNames[] = {
      {"size", Field::size},    {"count", Field::count},   {"type", Field::type},        {"redop", Field::redop},
      {"root", Field::root},    {"time", Field::time},     {"cputime", Field::time},     {"algbw", Field::algbw},
      {"busbw", Field::busbw},  {"#wrong", Field::wrong},  {"i_min", Field::i_min},      {"i_max", Field::i_max},
      {"i_p99", Field::i_p99},  {"i_cv%", Field::i_cv},    {"timestamp", Field::timestamp}};
  for (const auto& [name, f] : kNames)
    if (name == n) return f;
  return std::nullopt;
}

// The columns every version prints without -I or -S, for a row seen before a header line.
std::vector<Column> plain_columns() {
  std::vector<Column> c = {{Field::size, -1, "size"}, {Field::count, -1, "count"}, {Field::type, -1, "type"},
                           {Field::redop, -1, "redop"}, {Field::root, -1, "root"}};
  for (int half = 0; half < 2; ++half) {
    c.push_back({Field::time, half, "time"});
    c.push_back({Field::algbw, half, "algbw"});
    c.push_back({Field::busbw, half, "busbw"});
    c.push_back({Field::wrong, half, "#wrong"});
  }
  return c;
}

// The lines of one stream (the whole file, or one `srun -l` task's), run by run.
class Stream {
 public:
  Stream(const std::string& file, std::string label, const std::string& file_collective, std::vector<NcclTestsRun>& out)
      : file_(file), label_(std::move(label)), file_collective_(file_collective), out_(out) {}

  void read(std::string_view line, int number) {
    line_ = number;
    const std::string_view t = trim(line);
    if (t.empty()) return;
    if (t.front() == '#') return read_comment(trim(t.substr(1)));
    // Rows start with the size, "%12li"; NCCL's own lines ("gpu-017:41235:41235 [0] NCCL INFO"),
    // srun's and the job script's never are a bare number.
    if (run_ && is_number(first_word(t))) read_row(t);
  }

  // The end of the text: a run still open was cut short.
  void finish() { close(); }

 private:
  [[noreturn]] void fail(const std::string& what, std::string_view found) const {
    throw InputError(file_, line_, "expected " + what + ", found " + snippet(found));
  }

  static bool is_number(std::string_view w) {
    return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
  }

  // `rest` is the line after its '#'.
  void read_comment(std::string_view rest) {
    if (rest.starts_with(kTestsVersionLine)) return read_version(rest.substr(kTestsVersionLine.size()));
    if (rest.starts_with(kStarting)) return read_starting(trim(rest.substr(kStarting.size())));
    if (rest.starts_with("nThread ")) return read_parameters(rest);
    if (!run_) return;  // "# Collective test concluded", a finished run's "#": nothing to add
    if (rest.starts_with("Rank ")) return read_device(rest);
    if (first_word(rest) == "size") return read_columns(rest);
    if (rest.starts_with(kOutOfBounds)) return read_out_of_bounds(after_colon(rest));
    if (rest.starts_with(kAverage)) return read_average(after_colon(rest));
    // "# Using devices", "#", the units line, "# Blocking Enabled", "# Reducing maxBytes": no data.
  }

  // "Avg bus bandwidth    : 93.5312 OK" → "93.5312 OK": the padding before ':' differs by version.
  std::string_view after_colon(std::string_view rest) const {
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) fail("\"" + std::string(first_word(rest)) + " ... : VALUE\"", rest);
    return trim(rest.substr(colon + 1));
  }

  // A run's header has not got past its first lines: the next of them belongs to it.
  bool only_header_so_far() const {
    return run_ && !have_parameters_ && run_->devices.empty() && run_->rows.empty();
  }

  void start() {
    close();
    run_.emplace();
    run_->source = file_;
    run_->line = line_;
    run_->label = label_;
    have_parameters_ = false;
    columns_.clear();
  }

  void close() {
    if (!run_) return;
    if (run_->collective.empty()) run_->collective = file_collective_;
    out_.push_back(std::move(*run_));
    run_.reset();
  }

  // " 2.19.6 nccl-headers=22809 nccl-library=22809": the first line of a run from v2.17.4.
  void read_version(std::string_view rest) {
    start();
    const std::vector<std::string_view> w = words(rest);
    if (w.empty()) fail("\"# nccl-tests version V nccl-headers=N nccl-library=N\"", rest);
    run_->version = std::string(w[0]);
    for (std::string_view x : w) {
      if (!x.starts_with("nccl-library=")) continue;
      const auto v = parse_int(x.substr(13));
      if (!v) fail("a whole number after \"nccl-library=\"", x.substr(13));
      run_->nccl_library = *v;
    }
  }

  void read_starting(std::string_view program) {
    if (!only_header_so_far() || !run_->collective.empty()) start();
    if (program.empty()) fail("the program's name after \"# Collective test starting:\"", program);
    run_->collective = collective_of_program(first_word(program));
  }

  // "nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 1 iters: 20
  // agg iters: 1 validation: 1 graph: 0 unalign: 0": keys and values, read by key so that the
  // fields added over the versions (unalign: v2.18.2) change nothing.
  void read_parameters(std::string_view rest) {
    if (!only_header_so_far()) start();
    have_parameters_ = true;
    const std::vector<std::string_view> w = words(rest);
    bool threads = false, gpus = false, min = false, max = false;
    for (size_t i = 0; i + 1 < w.size(); ++i) {
      const std::string_view key = w[i], value = w[i + 1];
      if (key == "nThread") threads = read_int(key, value, run_->threads);
      if (key == "nGpus") gpus = read_int(key, value, run_->gpus);
      if (key == "minBytes") min = read_bytes(key, value, run_->min_bytes);
      if (key == "maxBytes") max = read_bytes(key, value, run_->max_bytes);
      if (key == "iters:") {
        const std::string_view before = i > 0 ? w[i - 1] : "";
        if (before == "warmup") read_int("warmup iters:", value, run_->warmup_iters);
        else if (before != "agg") read_int(key, value, run_->iters);
      }
    }
    if (!threads || !gpus || !min || !max)
      fail("\"# nThread T nGpus G minBytes B maxBytes B step: ... iters: N ...\"", rest);
  }

  bool read_int(std::string_view key, std::string_view value, int& out) const {
    const auto v = parse_int(value);
    if (!v || *v < 0) fail("a whole number after \"" + std::string(key) + "\"", value);
    out = *v;
    return true;
  }

  bool read_bytes(std::string_view key, std::string_view value, double& out) const {
    const auto v = parse_uint64(value);
    if (!v || value.starts_with("0x")) fail("a number of bytes after \"" + std::string(key) + "\"", value);
    out = static_cast<double>(*v);
    return true;
  }

  // "Rank  0 Group  0 Pid  41235 on    gpu-017 device  0 [0000:1b:00] NVIDIA H100 80GB HBM3"
  // ("Group" from v2.13.4; "[0x1b]" before v2.14.1).
  void read_device(std::string_view rest) {
    const std::string form = "\"#  Rank R Group G Pid P on HOST device D [BUS] NAME\"";
    const std::string_view whole = rest;
    NcclTestsDevice d;
    d.line = line_;
    auto number = [&](std::string_view key, auto& out) {
      if (next_word(rest) != key) fail(form, whole);
      long v = 0;
      if (!parse_long(next_word(rest), v) || v < 0 || v > 2147483647L) fail(form, whole);
      out = static_cast<std::remove_reference_t<decltype(out)>>(v);
    };
    number("Rank", d.rank);
    std::string_view peek = rest;
    if (next_word(peek) == "Group") number("Group", d.group);
    number("Pid", d.pid);
    if (next_word(rest) != "on") fail(form, whole);
    d.host = std::string(next_word(rest));
    number("device", d.device);
    const auto bus = parse_bus_id(next_word(rest));
    if (!bus || d.host.empty()) fail(form, whole);
    d.bus_id = *bus;
    d.name = std::string(trim(rest));
    run_->devices.push_back(std::move(d));
  }

  // "size count type redop root time algbw busbw #wrong time algbw busbw #wrong [timestamp]",
  // with "cputime" for time under -C 1 and "i_min i_max i_p99 i_cv%" after each half under -I 1.
  void read_columns(std::string_view rest) {
    const std::string form =
        "the table's column names: size count type redop root, then time algbw busbw #wrong for "
        "out-of-place and for in-place";
    std::vector<Column> cols;
    int halves = 0;
    for (std::string_view name : words(rest)) {
      const auto f = field_named(name);
      if (!f) fail(form, name);
      if (*f == Field::time) {
        ++halves;
        if (name == "cputime") run_->cpu_time = true;
      }
      const bool own = *f <= Field::root || *f == Field::timestamp;
      cols.push_back({*f, own ? -1 : halves - 1, name});
    }
    const std::vector<Column> plain = plain_columns();
    auto has = [&cols](Field f, int half) {
      return std::any_of(cols.begin(), cols.end(), [&](const Column& c) { return c.field == f && c.half == half; });
    };
    bool complete = halves == 2;
    for (const Column& p : plain) complete = complete && has(p.field, p.half);
    if (!complete || cols.size() < 5 || cols[0].field != Field::size) fail(form, rest);
    columns_ = std::move(cols);
  }

  void read_row(std::string_view t) {
    if (columns_.empty()) columns_ = plain_columns();
    const std::vector<std::string_view> w = words(t);
    size_t expected = 0;
    for (const Column& c : columns_) expected += c.field == Field::timestamp ? 2 : 1;
    if (w.size() != expected)
      fail(std::to_string(expected) + " fields, as the header names them: size count type redop root, then "
           "time algbw busbw #wrong for out-of-place and for in-place", t);
    NcclTestsRow row;
    row.line = line_;
    size_t at = 0;
    for (const Column& c : columns_) {
      if (c.field == Field::timestamp) {
        row.timestamp = std::string(w[at]) + " " + std::string(w[at + 1]);
        at += 2;
        continue;
      }
      read_cell(c, w[at++], row);
    }
    run_->rows.push_back(std::move(row));
  }

  void read_cell(const Column& c, std::string_view v, NcclTestsRow& row) const {
    const std::string where = c.half < 0 ? "" : c.half == 0 ? " (out-of-place)" : " (in-place)";
    auto figure = [&] {
      const auto x = parse_figure(v);
      if (!x) fail("a number for " + std::string(c.name) + where, v);
      return *x;
    };
    auto whole = [&] {
      long x = 0;
      if (!parse_long(v, x)) fail("a whole number for " + std::string(c.name), v);
      return x;
    };
    NcclTestsFigures& f = c.half == 1 ? row.in_place : row.out_of_place;
    auto stats = [&f]() -> NcclTestsIterationStats& {
      if (!f.per_iteration) f.per_iteration.emplace();
      return *f.per_iteration;
    };
    switch (c.field) {
      case Field::size: row.bytes = static_cast<double>(whole()); break;
      case Field::count: row.count = whole(); break;
      case Field::type: row.type = std::string(v); break;
      case Field::redop: row.redop = std::string(v); break;
      case Field::root: {
        const auto r = parse_int(v);
        if (!r) fail("a whole number for root", v);
        row.root = *r;
        break;
      }
      case Field::time: f.time_us = figure(); break;
      case Field::algbw: f.algbw_gbs = figure(); break;
      case Field::busbw: f.busbw_gbs = figure(); break;
      case Field::wrong: f.nwrong = v == "N/A" ? -1 : wrong_count(figure(), v, where); break;
      case Field::i_min: stats().min_us = figure(); break;
      case Field::i_max: stats().max_us = figure(); break;
      case Field::i_p99: stats().p99_us = figure(); break;
      case Field::i_cv: stats().cv_pct = figure(); break;
      case Field::timestamp: break;
    }
  }

  // #wrong is "%6g" of a count: "0", "1024", "1.04858e+06".
  long wrong_count(double x, std::string_view v, const std::string& where) const {
    if (!(x >= 0 && x < 9.2e18)) fail("a count of wrong elements or N/A for #wrong" + where, v);
    return static_cast<long>(x);
  }

  void read_out_of_bounds(std::string_view value) {
    long n = 0;
    if (!parse_long(first_word(value), n) || n < 0) fail("a count after \"# Out of bounds values :\"", value);
    run_->out_of_bounds = n;
  }

  // "93.5312" then "OK"/"FAILED" when NCCL_TESTS_MIN_BW was set: the last line of a run.
  void read_average(std::string_view value) {
    const auto v = parse_figure(first_word(value));
    if (!v) fail("a number after \"# Avg bus bandwidth :\"", value);
    run_->avg_busbw_gbs = *v;
    run_->complete = true;
    close();
  }

  const std::string& file_;
  std::string label_;
  const std::string& file_collective_;
  std::vector<NcclTestsRun>& out_;
  std::optional<NcclTestsRun> run_;  // the run being read
  bool have_parameters_ = false;     // its "# nThread" line was read
  std::vector<Column> columns_;      // its table's, from the header line
  int line_ = 0;
};

}  // namespace

std::vector<NcclTestsRun> parse_nccl_tests_output(std::string_view text, const std::string& file) {
  const std::string file_collective = collective_of_file(file);
  // A last line with no '\n' after it was being written when the job stopped.
  const int cut_line = text.empty() || text.back() == '\n'
                           ? 0
                           : static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  std::vector<NcclTestsRun> runs;
  std::map<std::string, Stream, std::less<>> streams;
  LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view label = take_label(line);
    auto it = streams.find(label);
    if (it == streams.end())
      it = streams.try_emplace(std::string(label), file, std::string(label), file_collective, runs).first;
    try {
      it->second.read(line, lines.number());
    } catch (const InputError&) {
      // Only the half-written last line is excused: whatever it lacks was never printed.
      if (lines.number() != cut_line) throw;
    }
  }
  for (auto& [label, stream] : streams) stream.finish();
  // Runs are closed stream by stream; the caller wants them in the order they began.
  std::stable_sort(runs.begin(), runs.end(), [](const NcclTestsRun& a, const NcclTestsRun& b) { return a.line < b.line; });
  return runs;
}

bool looks_like_nccl_tests_output(std::string_view head) {
  LineReader lines(head);
  std::string_view line;
  while (lines.next(line)) {
    take_label(line);
    std::string_view t = trim(line);
    if (t.empty() || t.front() != '#') continue;
    t = trim(t.substr(1));
    if (t.starts_with(kTestsVersionLine) || t.starts_with(kStarting) || t.starts_with("nThread ")) return true;
  }
  return false;
}

double nccl_tests_bus_factor(const std::string& collective, int ranks) {
  if (ranks < 1) return 0;
  const double n = ranks;
  if (collective == "all_reduce") return 2 * (n - 1) / n;
  if (collective == "reduce_scatter" || collective == "all_gather" || collective == "alltoall" ||
      collective == "alltoallv" || collective == "gather" || collective == "scatter")
    return (n - 1) / n;
  // hypercube's algbw already counts the n-1 peers (src/hypercube.cu).
  if (collective == "broadcast" || collective == "reduce" || collective == "sendrecv" || collective == "hypercube")
    return 1;
  return 0;
}

}  // namespace slurmtopo
