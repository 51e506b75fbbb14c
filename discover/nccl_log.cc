// NCCL_DEBUG=INFO log → NcclLog. The forms, from NVIDIA/nccl v2.18.3-1 … v2.30.7-1 (the file
// each one is printed by in brackets):
//   [TIMESTAMP ]HOST:PID:TID [DEV] NCCL INFO MESSAGE                      (debug.cc)
//   <blank line>
//   [TIMESTAMP ]HOST:PID:TID [DEV] FILE.cc:LINE[ (FUNC)] NCCL WARN MESSAGE (2.30: FUNC)
//   NCCL version 2.21.5+cuda12.4       ≤2.21 rank 0's bare stdout line; 2.22+ at NCCL_DEBUG=WARN
// TIMESTAMP is NCCL_DEBUG_TIMESTAMP_FORMAT's (2.26+, any strftime text, by default on WARN lines
// only), so the line is found by its fixed part: `HOST:PID:TID [DEV]` just before `NCCL INFO` (or
// before `FILE:LINE[ (FUNC)] NCCL WARN`); whatever precedes it is the timestamp. An `srun -l`
// label ("  3: ") comes before all of it.
#include "discover/nccl_log.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <utility>

#include "base/input_error.h"
#include "base/lines.h"
#include "base/numbers.h"
#include "base/text.h"

namespace slurmtopo {

// The file's own names sit in a namespace of their own: the library compiles in unity batches
// (docs/building.md), where another reader's anonymous `Reader` or `Cursor` would collide.
namespace nccl_log_reader {
namespace {

// ≤2.29 formats a line into char[1024], '\n' included: a longer message is cut at 1023 bytes
// (label excluded). A list cut there ends mid-entry; that is NCCL's doing, not a bad file.
constexpr size_t kNcclLineCut = 1023;

std::string_view strip_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool read_int(std::string_view s, int& out) {
  long v = 0;
  if (!parse_long(s, v) || v < -1000000000L || v > 1000000000L) return false;
  out = static_cast<int>(v);
  return true;
}

// The last space-separated word of `s`, taken off it.
std::string_view take_last_word(std::string_view& s) {
  s = trim(s);
  const size_t sp = s.rfind(' ');
  const std::string_view w = sp == std::string_view::npos ? s : s.substr(sp + 1);
  s = sp == std::string_view::npos ? std::string_view{} : s.substr(0, sp);
  return w;
}

// `srun -l` puts "%*d: " before every line of a task (the blank line before a WARN too).
std::string_view take_srun_label(std::string_view& line) {
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  size_t j = i;
  while (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j]))) ++j;
  if (j == i || j >= line.size() || line[j] != ':') return {};
  if (j + 1 < line.size() && line[j + 1] != ' ') return {};  // "12:00:00" is a time, not a label
  const std::string_view label = line.substr(i, j - i);
  line.remove_prefix(std::min(line.size(), j + 2));
  return label;
}

// A cursor over one message, for the fixed forms NCCL prints with snprintf.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  bool lit(std::string_view w) {
    if (!s_.starts_with(w)) return false;
    s_.remove_prefix(w.size());
    return true;
  }
  bool number(long& out) {
    size_t n = 0;
    if (!s_.empty() && s_[0] == '-') ++n;
    while (n < s_.size() && std::isdigit(static_cast<unsigned char>(s_[n]))) ++n;
    if (!parse_long(s_.substr(0, n), out)) return false;
    s_.remove_prefix(n);
    return true;
  }
  bool number(int& out) {
    long v = 0;
    if (!number(v) || v < -1000000000L || v > 1000000000L) return false;
    out = static_cast<int>(v);
    return true;
  }
  void spaces() {
    while (!s_.empty() && s_.front() == ' ') s_.remove_prefix(1);
  }
  // Up to (not including) the first of `stops`, or the end.
  std::string_view until(std::string_view stops) {
    const size_t end = std::min(s_.find_first_of(stops), s_.size());
    const std::string_view w = s_.substr(0, end);
    s_.remove_prefix(end);
    return w;
  }
  bool done() const { return s_.empty(); }
  std::string_view rest() const { return s_; }

 private:
  std::string_view s_;
};

// `R[D]` of a Channel line: the rank and its NVML index.
bool rank_and_dev(Cursor& c, int& rank) {
  int dev = 0;
  return c.number(rank) && c.lit("[") && c.number(dev) && c.lit("]");
}

// "2.21.5+cuda12.4" (NCCL_SUFFIX may follow the patch number: "2.19.0a0").
bool read_version_text(std::string_view v, std::string& version, std::string& cuda) {
  const size_t plus = v.find("+cuda");
  if (plus == std::string_view::npos) return false;
  const std::string_view nccl = v.substr(0, plus), build = trim(v.substr(plus + 5));
  Cursor c(nccl);
  long major = 0, minor = 0, patch = 0;
  if (!c.number(major) || !c.lit(".") || !c.number(minor) || !c.lit(".") || !c.number(patch)) return false;
  for (char ch : c.rest())
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '-' && ch != '_') return false;
  const size_t dot = build.find('.');
  if (dot == std::string_view::npos || !all_digits(build.substr(0, dot)) || !all_digits(build.substr(dot + 1)))
    return false;
  version = std::string(nccl);
  cuda = std::string(build);
  return true;
}

// int64ToBusId: "1b000" → "0000:1b:00.0", "801000" (a Grace PCI domain 8) → "0008:01:00.0".
std::optional<std::string> bus_id_text(std::string_view hex) {
  if (hex.empty() || hex.size() > 15) return std::nullopt;
  const auto v = parse_uint64("0x" + std::string(hex));
  if (!v) return std::nullopt;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04llx:%02llx:%02llx.%01llx", static_cast<unsigned long long>(*v >> 20),
                static_cast<unsigned long long>((*v & 0xff000) >> 12),
                static_cast<unsigned long long>((*v & 0xff0) >> 4), static_cast<unsigned long long>(*v & 0xf));
  return std::string(buf);
}

// A topology node id is (system id << 56) + local id (graph/topo.h NCCL_TOPO_ID); a net's local
// id is its net device number. Only MNNVL systems print a non-zero system id.
int net_local_id(uint64_t id) { return static_cast<int>(id & ((uint64_t{1} << 56) - 1) & 0x7fffffff); }

// One `[N]name:port[:rail[:plane]]/LINK` member of a `NET/IB : Using` list (2.30.7 adds the
// rail and plane fields, either may be empty).
bool read_net_entry(std::string_view e, int index, std::vector<NcclNetDevice>& out) {
  const size_t slash = e.rfind('/');
  if (slash == std::string_view::npos || slash + 1 == e.size()) return false;
  const std::string_view where = e.substr(0, slash);
  const size_t colon = where.find(':');
  if (colon == std::string_view::npos || colon == 0) return false;
  const std::string_view port = where.substr(colon + 1, where.find(':', colon + 1) - colon - 1);
  NcclNetDevice d;
  d.index = index;
  d.device = std::string(where.substr(0, colon));
  d.link_layer = std::string(e.substr(slash + 1));
  if (!read_int(port, d.port)) return false;
  out.push_back(std::move(d));
  return true;
}

// The list after `NET/IB : Using`, before "; OOB ib0:…": ` [0]mlx5_0:1/IB [1]mlx5_3:1/RoCE [RO]`,
// or with fused NICs (2.20–2.23) ` [0]={[0] mlx5_0:1/IB, [1] mlx5_1:1/IB} [2]mlx5_2:1/IB`. A
// plain entry prints its physical device number, a fused one its members': the net device
// number channel lines use is the entry's place in the list, so `index` is that.
bool read_net_list(std::string_view list, std::vector<NcclNetDevice>& out) {
  Cursor c(list);
  for (int index = 0;; ++index) {
    c.spaces();
    if (c.done()) return true;
    if (c.lit("[RO]")) {
      --index;
      continue;
    }
    int printed = 0;
    if (!c.lit("[") || !c.number(printed) || !c.lit("]")) return false;
    if (!c.lit("={")) {
      if (!read_net_entry(c.until(" "), index, out)) return false;
      continue;
    }
    do {
      c.spaces();
      if (!c.lit("[") || !c.number(printed) || !c.lit("]")) return false;
      c.spaces();
      if (!read_net_entry(c.until(",}"), index, out)) return false;
    } while (c.lit(","));
    if (!c.lit("}")) return false;
  }
}

// "NET/IB/0(4)/GDRDMA(PCI)/Shared" without "NET/": the net's name (a plugin's may hold spaces:
// "AWS Libfabric"), its device number and the PXN proxy rank.
bool read_net_via(std::string_view s, NcclChannel& ch, const std::string& kind) {
  ch.gdr = s.find("/GDRDMA") != std::string_view::npos;
  for (std::string_view suffix : {"/Shared", "(PCI)", "/GDRDMA"})
    if (s.ends_with(suffix)) s.remove_suffix(suffix.size());
  const size_t slash = s.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return false;
  Cursor dev(s.substr(slash + 1));
  if (!dev.number(ch.net_device)) return false;
  if (dev.lit("(") && (!dev.number(ch.proxy_rank) || !dev.lit(")"))) return false;
  if (!dev.done()) return false;
  ch.transport = kind.empty() ? "NET/" + std::string(s.substr(0, slash)) : kind;
  return true;
}

void set_transport(NcclChannel& ch, bool& ok) {
  const std::string_view via = ch.via;
  if (via.starts_with("NET/")) ok = read_net_via(via.substr(4), ch, "");
  else if (via.starts_with("COLLNET/")) ok = read_net_via(via.substr(8), ch, "CollNet");
  else ch.transport = std::string(via.substr(0, std::min(via.find('/'), via.size())));
}

// A message's `KEY VALUE` pairs ("comm 0x… rank 0 nranks 16 cudaDev 0 …"): VALUE of KEY.
std::optional<std::string_view> value_after(std::string_view msg, std::string_view key) {
  Cursor c(msg);
  while (!c.done()) {
    c.spaces();
    const std::string_view word = c.until(" ");
    c.spaces();
    if (word == key) {
      const std::string_view v = c.until(" ");
      if (!v.empty()) return v;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// What one line is, once its prefix is read.
struct Prefix {
  std::string_view label;    // srun -l
  std::string_view host;
  long pid = 0;
  bool warn = false;
  std::string_view where;    // WARN: "transport/net_ib.cc:588"
  std::string_view message;
};

// "gpu-017:41235:41322" → host, pid.
bool host_pid_tid(std::string_view w, std::string_view& host, long& pid) {
  const size_t c2 = w.rfind(':');
  if (c2 == std::string_view::npos || c2 == 0) return false;
  const size_t c1 = w.rfind(':', c2 - 1);
  if (c1 == std::string_view::npos || c1 == 0) return false;
  long tid = 0;
  if (!all_digits(w.substr(c1 + 1, c2 - c1 - 1)) || !all_digits(w.substr(c2 + 1))) return false;
  if (!parse_long(w.substr(c1 + 1, c2 - c1 - 1), pid) || !parse_long(w.substr(c2 + 1), tid)) return false;
  host = w.substr(0, c1);
  return host.find(':') == std::string_view::npos;
}

bool is_dev_word(std::string_view w) {
  return w.size() >= 3 && w.front() == '[' && w.back() == ']' && all_digits(w.substr(1, w.size() - 2));
}

// "transport/net_ib.cc:588": a path, ':' and the line.
bool is_file_line(std::string_view w) {
  const size_t colon = w.rfind(':');
  return colon != std::string_view::npos && colon > 0 && all_digits(w.substr(colon + 1));
}

// `line` without its label: an NCCL INFO or WARN line? Fills `p` when so.
bool read_prefix(std::string_view line, Prefix& p) {
  const size_t info = line.find(" NCCL INFO"), warn = line.find(" NCCL WARN");
  const size_t at = std::min(info, warn);
  if (at == std::string_view::npos) return false;
  const size_t after = at + 10;
  if (after < line.size() && line[after] != ' ') return false;
  p.warn = at == warn;
  p.message = after < line.size() ? line.substr(after + 1) : std::string_view{};
  std::string_view head = line.substr(0, at);
  if (p.warn) {
    std::string_view w = take_last_word(head);
    if (w.size() > 2 && w.front() == '(' && w.back() == ')') w = take_last_word(head);  // 2.30's (func)
    if (!is_file_line(w)) return false;
    p.where = w;
  }
  if (!is_dev_word(take_last_word(head))) return false;
  return host_pid_tid(take_last_word(head), p.host, p.pid);
}

// A bare `NCCL version …` line, after its label (and a timestamp where VERSION lines have one).
std::optional<std::string_view> bare_version(std::string_view line) {
  constexpr std::string_view kVersion = "NCCL version ";
  const size_t at = line.find(kVersion);
  if (at == std::string_view::npos || (at > 0 && line[at - 1] != ' ')) return std::nullopt;
  return line.substr(at + kVersion.size());
}

// A bare version line waiting for its process (see Reader::place_bare_versions).
struct BareVersion {
  int line = 0;
  std::string label, version, cuda;
};

class Reader {
 public:
  Reader(std::string_view text, const std::string& file) : text_(text), file_(file) { out_.source = file; }

  NcclLog read() {
    // NCCL ends every line with '\n': a last line without one was cut while being written (a
    // job killed at its time limit). Dropped unread: a cut NCCL message often still reads, as
    // something else ("via NET/IB/2/GDR" would be a channel without GPUDirect).
    std::string_view text = text_;
    if (!text.empty() && text.back() != '\n') {
      out_.truncated = true;
      const size_t nl = text.rfind('\n');
      text = nl == std::string_view::npos ? std::string_view{} : text.substr(0, nl + 1);
    }
    LineReader lines(text);
    std::string_view line;
    while (lines.next(line)) {
      line_ = lines.number();
      read_line(strip_cr(line));
    }
    place_bare_versions();
    return std::move(out_);
  }

 private:
  void read_line(std::string_view line) {
    const std::string_view label = take_srun_label(line);
    cut_ = line.size() >= kNcclLineCut;
    Prefix p;
    if (!read_prefix(line, p)) {
      if (const auto v = bare_version(line)) read_bare_version(label, *v);
      return;
    }
    p.label = label;
    ++out_.nccl_lines;
    proc_ = &process(p);
    if (p.warn) {
      proc_->warnings.push_back(std::string(p.where) + " " + std::string(trim(p.message)));
      return;
    }
    read_info(trim(p.message));
  }

  // Throws unless the line was cut by NCCL itself, whose end is then simply missing.
  void bad(const std::string& what, std::string_view found) const {
    if (cut_) return;
    throw InputError(file_, line_, "expected " + what + ", found " + snippet(found));
  }

  NcclProcess& process(const Prefix& p) {
    const auto key = std::make_pair(std::string(p.host), p.pid);
    auto [it, added] = index_.emplace(key, out_.processes.size());
    if (added) {
      NcclProcess np;
      np.host = key.first;
      np.pid = p.pid;
      np.first_line = line_;
      np.label = std::string(p.label);
      out_.processes.push_back(std::move(np));
    }
    return out_.processes[it->second];
  }

  void read_info(std::string_view m) {
    if (m.starts_with("NCCL version ")) return read_version(m.substr(13));
    if (m.starts_with("cudaDriverVersion ")) return read_driver(m.substr(18));
    if (m.starts_with("Bootstrap : Using") || m.starts_with("Bootstrap: Using"))
      return read_bootstrap(m.substr(m.find("Using") + 5));
    if (m.starts_with("Using network ")) {
      if (proc_->network.empty()) proc_->network = std::string(trim(m.substr(14)));
      return;
    }
    if (m.starts_with("NET/IB : No device found")) {
      proc_->no_ib_device = true;
      return;
    }
    // ≤2.29 tries libibverbs.so and .so.1 and says so once; 2.30 says "Count not open X" per
    // name tried, and only the last one failing means no verbs at all.
    if (m.starts_with("Failed to open libibverbs") || m == "Count not open libibverbs.so.1" ||
        m == "Could not open libibverbs.so.1") {
      proc_->no_verbs = true;
      return;
    }
    // A connection's line; not the ring's "Channel 00/24 :    0   7   6 …" (graph/rings.cc).
    if ((m.starts_with("Channel ") || m.starts_with("CollNet ")) &&
        (m.find(" via") != std::string_view::npos || m.find(" -> ") != std::string_view::npos))
      return read_channel(m);
    if (m.ends_with("Init COMPLETE")) return read_init(m);
    if (m.starts_with("comm ") && m.find(" nNodes ") != std::string_view::npos) return read_nnodes(m);
    // Not every mention: 2.30 prints a HINT "… would break GPU Direct RDMA protocol."
    if (m.starts_with("GPU Direct RDMA ") ||
        (m.starts_with("NET/") && m.find(" : GPU Direct RDMA ") != std::string_view::npos))
      return read_gdr(m);
    if (m.starts_with("NET/") && m.find(" : Using") != std::string_view::npos) return read_net_using(m);
    read_env(m);
  }

  void read_version(std::string_view v) {
    std::string version, cuda;
    if (!read_version_text(v, version, cuda)) return bad("\"NCCL version X.Y.Z+cudaA.B\"", v);
    proc_->version = version;
    proc_->build_cuda = cuda;
  }

  // Without HOST:PID the line names no process; placed once all are known.
  void read_bare_version(std::string_view label, std::string_view v) {
    BareVersion b;
    if (!read_version_text(v, b.version, b.cuda)) return;  // someone else's "NCCL version" text
    ++out_.nccl_lines;
    b.line = line_;
    b.label = std::string(label);
    bare_.push_back(std::move(b));
  }

  // ≤2.21 only rank 0 prints the bare line (init.cc: `if (myrank == 0) showVersion()`), right
  // after its first lines: it goes to the process with the same srun label, else to one that
  // completed init as rank 0; of those, the last to appear at or before the line, else the first
  // after it. Processes that print their own INFO version keep it.
  void place_bare_versions() {
    for (const BareVersion& b : bare_) {
      auto fits = [&](const NcclProcess& p, bool by_label) {
        if (!p.version.empty()) return false;
        if (by_label) return p.label == b.label;
        for (const NcclRankInit& r : p.ranks)
          if (r.rank == 0) return true;
        return false;
      };
      NcclProcess* chosen = nullptr;
      for (int pass = 0; pass < 3 && !chosen; ++pass) {
        if (pass == 0 && b.label.empty()) continue;
        NcclProcess* before = nullptr;
        NcclProcess* after = nullptr;
        for (NcclProcess& p : out_.processes) {
          if (pass < 2 && !fits(p, pass == 0)) continue;
          if (pass == 2 && !p.version.empty()) continue;
          if (p.first_line <= b.line) before = &p;
          else if (!after) after = &p;
        }
        chosen = before ? before : after;
      }
      if (!chosen) continue;
      chosen->version = b.version;
      chosen->build_cuda = b.cuda;
    }
  }

  void read_driver(std::string_view v) {
    if (!read_int(trim(v), proc_->cuda_driver)) bad("\"cudaDriverVersion N\" with N a whole number", v);
  }

  // " ib0:10.0.0.1<0>" (≤2.24, and 2.25+ `Bootstrap: Using`), " mlx5_0:1" (2.25+ over a net
  // plugin). The interface is what precedes the first ':'.
  void read_bootstrap(std::string_view rest) {
    rest = trim(rest);
    if (rest.starts_with("[")) rest.remove_prefix(std::min(rest.size(), rest.find(']') + 1));
    const std::string_view name = rest.substr(0, std::min(rest.find(':'), rest.size()));
    if (name.empty()) return bad("an interface after \"Bootstrap : Using\"", rest);
    proc_->bootstrap = std::string(name);
  }

  void read_net_using(std::string_view m) {
    const size_t at = m.find(" : Using");
    const std::string_view name = m.substr(4, at - 4);
    std::string_view list = m.substr(at + 8);
    if (name == "Socket") {
      // " [0]eth0:10.1.2.3<0> [1]eth1:10.1.3.3<0>"
      Cursor c(list);
      while (true) {
        c.spaces();
        if (c.done()) return;
        const std::string_view entry = c.until(" ");
        const size_t close = entry.find(']');
        if (!entry.starts_with("[") || close == std::string_view::npos)
          return bad("\"[N]interface:address\" entries after \"NET/Socket : Using\"", entry);
        const std::string_view rest = entry.substr(close + 1);
        proc_->socket_devices.emplace_back(rest.substr(0, std::min(rest.find(':'), rest.size())));
      }
    }
    const size_t oob = list.rfind("; OOB ");
    if (oob != std::string_view::npos) list = list.substr(0, oob);
    std::vector<NcclNetDevice> devices;
    // A plugin's own list may take another form: read what fits it. IB's is NCCL's own.
    if (!read_net_list(list, devices) && name == "IB")
      bad("\"[N]device:port/LINK\" entries after \"NET/IB : Using\"", list);
    // Cut at NCCL's 1023 bytes (no "; OOB" left): the last entry read may be a cut one too.
    if (cut_ && oob == std::string_view::npos && !devices.empty()) {
      const int last = devices.back().index;
      while (!devices.empty() && devices.back().index == last) devices.pop_back();
    }
    proc_->net_devices = std::move(devices);
  }

  void read_channel(std::string_view m) {
    NcclChannel ch;
    ch.line = line_;
    Cursor c(m);
    bool ok = false;
    if (c.lit("Channel ")) {
      // "Channel 00/0 : 0[0] -> 8[0] [send] via …"; SHM's has no "/0".
      int conn = 0;
      ok = c.number(ch.channel) && (!c.lit("/") || c.number(conn)) && c.lit(" : ") && rank_and_dev(c, ch.from_rank) &&
           c.lit(" -> ") && rank_and_dev(c, ch.to_rank);
    } else if (c.lit("CollNet ")) {
      // "CollNet 00/0 : 3 [send] via COLLNET/IBext/0/GDRDMA": the rank and the collective net.
      int conn = 0;
      ok = c.number(ch.channel) && c.lit("/") && c.number(conn) && c.lit(" : ") && c.number(ch.from_rank);
    }
    if (ok) {
      if (c.lit(" [send]")) ch.direction = "send";
      else if (c.lit(" [receive]")) ch.direction = "receive";
      ok = c.lit(" via ");
      ch.via = std::string(trim(c.rest()));
      ok = ok && !ch.via.empty();
    }
    if (ok) set_transport(ch, ok);
    if (!ok) return bad("a channel line \"Channel NN/C : R[D] -> R[D] [send|receive] via TRANSPORT\"", m);
    proc_->channels.push_back(std::move(ch));
  }

  // "[ncclCommInitRank ]comm 0x… rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x… -
  // Init COMPLETE" (2.18 without the function's name; a split adds "parent … color … key …").
  void read_init(std::string_view m) {
    NcclRankInit r;
    r.line = line_;
    const auto comm = value_after(m, "comm"), rank = value_after(m, "rank"), nranks = value_after(m, "nranks");
    if (!comm || !rank || !nranks || !read_int(*rank, r.rank) || !read_int(*nranks, r.nranks))
      return bad("\"comm 0x… rank R nranks N … - Init COMPLETE\"", m);
    r.comm = std::string(*comm);
    if (const auto v = value_after(m, "commId")) r.comm_id = std::string(*v);
    if (const auto v = value_after(m, "cudaDev"); v && !read_int(*v, r.cuda_dev))
      return bad("a whole number after \"cudaDev\"", *v);
    if (const auto v = value_after(m, "nvmlDev"); v && !read_int(*v, r.nvml_dev))
      return bad("a whole number after \"nvmlDev\"", *v);
    if (const auto v = value_after(m, "busId")) {
      const auto bus = bus_id_text(*v);
      if (!bus) return bad("a hexadecimal bus id after \"busId\"", *v);
      r.bus_id = *bus;
    }
    const auto n = nnodes_.find({proc_index(), r.comm + " " + std::to_string(r.rank)});
    if (n != nnodes_.end()) r.nnodes = n->second;
    proc_->ranks.push_back(std::move(r));
  }

  // "comm 0x… rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0" (2.20+), printed before
  // the rank's Init COMPLETE.
  void read_nnodes(std::string_view m) {
    const auto comm = value_after(m, "comm"), rank = value_after(m, "rank"), nodes = value_after(m, "nNodes");
    int r = 0, n = 0;
    if (!comm || !rank || !nodes || !read_int(*rank, r) || !read_int(*nodes, n))
      return bad("\"comm 0x… rank R nRanks N nNodes K …\"", m);
    nnodes_[{proc_index(), std::string(*comm) + " " + std::to_string(r)}] = n;
    for (NcclRankInit& ri : proc_->ranks)
      if (ri.comm == *comm && ri.rank == r) ri.nnodes = n;
  }

  size_t proc_index() const { return static_cast<size_t>(proc_ - out_.processes.data()); }

  // "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'" (topo.cc), and graph/paths.cc's
  //   "GPU Direct RDMA Disabled for GPU 1b000 / HCA 2 (distance 7 > 4)"       ≤2.23: bus id, hex
  // (2.18 prints that HCA in decimal, 2.19+ in hex: the same below 10, and read as hex)
  //   "GPU Direct RDMA Enabled for GPU 3 / HCA 0 (distance 4 <= 4), read 1"  2.24–2.28: rank
  //   "GPU Direct RDMA Disabled for GPU/0-110592 (rank 3) - NET/0-2 (distance 9 > 5)"   2.29
  void read_gdr(std::string_view m) {
    constexpr std::string_view kWhat = "\"GPU Direct RDMA Enabled|Disabled for HCA N|GPU G …\"";
    NcclGdrState g;
    g.line = line_;
    Cursor c(m.substr(m.find("GPU Direct RDMA ") + 16));
    if (c.lit("Enabled for ")) g.enabled = true;
    else if (!c.lit("Disabled for ")) return bad(std::string(kWhat), m);
    if (c.lit("HCA ")) {
      if (!c.number(g.hca)) return bad(std::string(kWhat), m);
      c.spaces();
      if (c.lit("'")) g.hca_name = std::string(c.until("'"));
    } else if (c.lit("GPU/")) {
      const auto rank = value_after(c.rest(), "(rank");
      const size_t net = c.rest().find(" - NET/");
      if (!rank || !rank->ends_with(")") || net == std::string_view::npos) return bad(std::string(kWhat), m);
      g.gpu = std::string(rank->substr(0, rank->size() - 1));
      Cursor n(c.rest().substr(net + 7));
      long system = 0, local = 0;
      if (!n.number(system) || !n.lit("-") || !n.number(local) || local < 0) return bad(std::string(kWhat), m);
      g.hca = net_local_id(static_cast<uint64_t>(local));
    } else if (c.lit("GPU ")) {
      g.gpu = std::string(c.until(" "));
      c.spaces();
      if (g.gpu.empty() || !c.lit("/ HCA ")) return bad(std::string(kWhat), m);
      const auto id = parse_uint64("0x" + std::string(c.until(" ")));
      if (!id) return bad(std::string(kWhat), m);
      g.hca = net_local_id(*id);
    } else {
      return bad(std::string(kWhat), m);
    }
    read_distance(c.rest(), g);
    proc_->gdr.push_back(std::move(g));
  }

  // "(distance 7 > 4)", "(distance 4 <= 4), read 1"; absent from the per-HCA line.
  static void read_distance(std::string_view s, NcclGdrState& g) {
    const size_t at = s.find("distance ");
    if (at == std::string_view::npos) return;
    Cursor c(s.substr(at + 9));
    int d = 0, l = 0;
    if (!c.number(d)) return;
    if (!(c.lit(" <= ") || c.lit(" > ")) || !c.number(l)) return;
    g.distance = d;
    g.limit = l;
  }

  // "NCCL_IB_HCA set to =mlx5_0:1", "NCCL_TOPO_FILE set by environment to f.xml",
  // "NCCL_IB_TIMEOUT set by environment to 22." (misc/param.cc ends numbers with a '.'),
  // "TUNER/Plugin: NCCL_TUNER_PLUGIN set to x". NAME is a variable's: "P2P Chunksize set to" is not.
  void read_env(std::string_view m) {
    size_t at = m.find(" set by environment to ");
    size_t len = 23;
    if (at == std::string_view::npos) at = m.find(" set to "), len = 8;
    if (at == std::string_view::npos) return;
    std::string_view head = m.substr(0, at);
    const std::string_view name = take_last_word(head);
    if (name.empty() || !std::isupper(static_cast<unsigned char>(name[0]))) return;
    for (char ch : name)
      if (!std::isupper(static_cast<unsigned char>(ch)) && !std::isdigit(static_cast<unsigned char>(ch)) && ch != '_')
        return;
    std::string_view value = trim(m.substr(at + len));
    long number = 0;
    if (value.ends_with(".") && parse_long(value.substr(0, value.size() - 1), number)) value.remove_suffix(1);
    proc_->env.emplace(std::string(name), std::string(value));  // the first read is what NCCL kept
  }

  std::string_view text_;
  const std::string& file_;
  NcclLog out_;
  std::map<std::pair<std::string, long>, size_t> index_;  // HOST:PID → out_.processes
  std::map<std::pair<size_t, std::string>, int> nnodes_;  // (process, "comm rank") → nNodes
  std::vector<BareVersion> bare_;
  NcclProcess* proc_ = nullptr;  // the current line's; out_.processes only grows between lines
  int line_ = 0;
  bool cut_ = false;
};

bool any_nccl_line(std::string_view head) {
  LineReader lines(head);
  std::string_view line;
  while (lines.next(line)) {
    line = strip_cr(line);
    take_srun_label(line);
    Prefix p;
    if (read_prefix(line, p)) return true;
  }
  return false;
}

}  // namespace
}  // namespace nccl_log_reader

NcclLog parse_nccl_log(std::string_view text, const std::string& file) {
  return nccl_log_reader::Reader(text, file).read();
}

bool looks_like_nccl_log(std::string_view head) { return nccl_log_reader::any_nccl_line(head); }

}  // namespace slurmtopo
