// Live PMA reads: one libibumad agent for the performance management class, a window of GMPs on
// the wire matched to their answers by transaction id (the way libibnetdisc's query_smp.c keeps
// SMPs outstanding), each retried on its own timeout.
#include "discover/pma_reads.h"

#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <thread>
#include <unordered_map>

#include "base/input_error.h"

namespace slurmtopo {
namespace {

using Clock = std::chrono::steady_clock;
using Data = std::array<uint8_t, IB_PC_DATA_SZ>;

constexpr unsigned kDefaultTimeoutMs = 1000;
constexpr unsigned kDefaultRetries = 3;
// ClassPortInfo: CapabilityMask bit 12 (PortXmitWait kept), CapabilityMask2 bit 1
// (AdditionalPortCountersExtended: 64-bit error counters) — libibmad iba_types.h, ibqueryerrors.
constexpr uint16_t kAllPortSelect = 1u << 8;
constexpr uint16_t kXmitWaitSupported = 1u << 12;
constexpr uint32_t kExtendedErrorsSupported = 1u << 1;
// PerformanceSet's CounterSelect: the 12 error counters; CounterSelect2 bit 0: PortXmitWait
// (ibqueryerrors -k: mask 0xFFF | 0x10000).
constexpr uint16_t kResetErrors = 0x0FFF;
constexpr uint8_t kResetXmitWait = 0x01;

// Each counter's field in PortCounters and in PortCountersExtended, in PortCounter's order.
struct Fields {
  MAD_FIELDS basic, extended;
};
constexpr Fields kFields[] = {
    {IB_PC_ERR_SYM_F, IB_PC_EXT_ERR_SYM_F},
    {IB_PC_LINK_RECOVERS_F, IB_PC_EXT_LINK_RECOVERS_F},
    {IB_PC_LINK_DOWNED_F, IB_PC_EXT_LINK_DOWNED_F},
    {IB_PC_ERR_RCV_F, IB_PC_EXT_ERR_RCV_F},
    {IB_PC_ERR_PHYSRCV_F, IB_PC_EXT_ERR_PHYSRCV_F},
    {IB_PC_ERR_SWITCH_REL_F, IB_PC_EXT_ERR_SWITCH_REL_F},
    {IB_PC_XMT_DISCARDS_F, IB_PC_EXT_XMT_DISCARDS_F},
    {IB_PC_ERR_XMTCONSTR_F, IB_PC_EXT_ERR_XMTCONSTR_F},
    {IB_PC_ERR_RCVCONSTR_F, IB_PC_EXT_ERR_RCVCONSTR_F},
    {IB_PC_ERR_LOCALINTEG_F, IB_PC_EXT_ERR_LOCALINTEG_F},
    {IB_PC_ERR_EXCESS_OVR_F, IB_PC_EXT_ERR_EXCESS_OVR_F},
    {IB_PC_VL15_DROPPED_F, IB_PC_EXT_VL15_DROPPED_F},
    {IB_PC_XMT_WAIT_F, IB_PC_EXT_XMT_WAIT_F},
};
static_assert(std::size(kFields) == kPortCounterCount);

struct Query {
  uint16_t lid = 0;
  unsigned attr = 0;     // CLASS_PORT_INFO, IB_GSI_PORT_COUNTERS or IB_GSI_PORT_COUNTERS_EXT
  int method = IB_MAD_METHOD_GET;
  int port = 0;          // PortSelect
  bool probe = false;    // a refusal is an answer (AllPortSelect unsupported), not a failure
};

// The local port's performance-management agent, closed on every path out.
class MadWindow {
 public:
  MadWindow(const PmaOptions& o, std::atomic<long>& answers)
      : source_("live:" + o.ca + "/" + std::to_string(o.port)),
        timeout_ms_(o.timeout_ms ? o.timeout_ms : kDefaultTimeoutMs),
        retries_(o.retries ? o.retries : kDefaultRetries),
        window_(o.window ? o.window : kDefaultPmaWindow),
        answers_(answers) {
    fd_ = umad_open_port(o.ca.c_str(), o.port);
    if (fd_ < 0) throw InputError(source_, 0, std::string("cannot open the port for PMA queries: ") + std::strerror(-fd_));
    agent_ = umad_register(fd_, IB_PERFORMANCE_CLASS, 1, 0, nullptr);
    if (agent_ < 0) {
      umad_close_port(fd_);
      throw InputError(source_, 0, "cannot register a performance management agent on the port");
    }
  }
  ~MadWindow() {
    umad_unregister(fd_, agent_);
    umad_close_port(fd_);
  }
  MadWindow(const MadWindow&) = delete;
  MadWindow& operator=(const MadWindow&) = delete;

  // Every query; `ok[i]` when query i was answered with a good status, its data in `out[i]`;
  // `refused[i]` when a probe was answered with a bad status.
  void run(const std::vector<Query>& queries, std::vector<Data>& out, std::vector<bool>& ok,
           std::vector<bool>& refused, std::vector<std::string>& failures) {
    out.assign(queries.size(), Data{});
    ok.assign(queries.size(), false);
    refused.assign(queries.size(), false);
    struct Pending {
      size_t index;
      unsigned tries;
      Clock::time_point deadline;
    };
    std::unordered_map<uint32_t, Pending> pending;
    std::vector<uint8_t> buf(umad_size() + IB_MAD_SIZE);
    auto fail = [&](size_t i, const std::string& why) {
      if (failures.size() < 5)
        failures.push_back("LID " + std::to_string(queries[i].lid) + " port " + std::to_string(queries[i].port) + ": " + why);
    };
    auto send = [&](size_t i, unsigned tries) {
      const Query& q = queries[i];
      ib_rpc_t rpc{};
      rpc.mgtclass = IB_PERFORMANCE_CLASS;
      rpc.method = q.method;
      rpc.attr.id = q.attr;
      rpc.timeout = static_cast<int>(timeout_ms_);
      rpc.datasz = IB_PC_DATA_SZ;
      rpc.dataoffs = IB_PC_DATA_OFFS;
      const uint32_t tid = ++tid_;
      rpc.trid = tid;
      Data data{};
      if (q.attr != CLASS_PORT_INFO) mad_set_field(data.data(), 0, IB_PC_PORT_SELECT_F, static_cast<uint32_t>(q.port));
      if (q.method == IB_MAD_METHOD_SET) {
        mad_set_field(data.data(), 0, IB_PC_COUNTER_SELECT_F, kResetErrors);
        mad_set_field(data.data(), 0, IB_PC_COUNTER_SELECT2_F, kResetXmitWait);
      }
      ib_portid_t dest{};
      dest.lid = q.lid;
      dest.qp = 1;
      dest.qkey = IB_DEFAULT_QP1_QKEY;
      std::fill(buf.begin(), buf.end(), 0);
      const int len = mad_build_pkt(buf.data(), &rpc, &dest, nullptr, data.data());
      // The kernel answers a lost query with a timed-out copy of it; ours is a little later,
      // for stacks that do not (the simulator).
      if (len < 0 || umad_send(fd_, agent_, buf.data(), len, static_cast<int>(timeout_ms_), 0) < 0) {
        fail(i, "cannot send the query");
        return;
      }
      pending[tid] = {i, tries, Clock::now() + std::chrono::milliseconds(timeout_ms_ + 50)};
    };
    auto retry_or_fail = [&](const Pending& p, const std::string& why) {
      if (p.tries < retries_) send(p.index, p.tries + 1);
      else fail(p.index, why + " after " + std::to_string(p.tries + 1) + " tries");
    };

    size_t next = 0;
    while (next < queries.size() || !pending.empty()) {
      while (pending.size() < window_ && next < queries.size()) send(next++, 0);
      if (pending.empty()) continue;
      auto first = Clock::now() + std::chrono::milliseconds(timeout_ms_ + 50);
      for (const auto& [tid, p] : pending) first = std::min(first, p.deadline);
      const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(first - Clock::now()).count();
      int len = IB_MAD_SIZE;
      if (umad_recv(fd_, buf.data(), &len, static_cast<int>(std::max<long long>(wait, 1))) >= 0) {
        void* mad = umad_get_mad(buf.data());
        // The kernel puts its agent's id in the high 32 bits of the transaction id.
        const auto tid = static_cast<uint32_t>(mad_get_field64(mad, 0, IB_MAD_TRID_F));
        auto it = pending.find(tid);
        if (it != pending.end()) {
          const Pending p = it->second;
          pending.erase(it);
          if (umad_status(buf.data()) != 0) {
            retry_or_fail(p, "no answer");
          } else if (const unsigned status = mad_get_field(mad, 0, IB_MAD_STATUS_F); status != 0 && queries[p.index].probe) {
            refused[p.index] = true;
          } else if (status != 0) {
            char hex[16];
            std::snprintf(hex, sizeof hex, "0x%04x", status);
            fail(p.index, std::string("the PMA refused the query (MAD status ") + hex + ")");
          } else {
            std::memcpy(out[p.index].data(), static_cast<uint8_t*>(mad) + IB_PC_DATA_OFFS, IB_PC_DATA_SZ);
            ok[p.index] = true;
            ++answers_;
          }
        }
      }
      const auto now = Clock::now();
      for (auto it = pending.begin(); it != pending.end();) {
        if (it->second.deadline > now) {
          ++it;
          continue;
        }
        const Pending p = it->second;
        it = pending.erase(it);
        retry_or_fail(p, "no answer");
      }
    }
  }

 private:
  std::string source_;
  unsigned timeout_ms_, retries_, window_;
  std::atomic<long>& answers_;
  int fd_ = -1, agent_ = -1;
  uint32_t tid_ = 0;
};

struct Capability {
  bool all_ports = false;       // PortSelect 255 sums the switch's ports
  bool xmit_wait = false;       // PortCounters carries PortXmitWait
  bool extended_errors = false; // PortCountersExtended carries every error counter, 64 bits
  unsigned attr() const { return extended_errors ? unsigned{IB_GSI_PORT_COUNTERS_EXT} : unsigned{IB_GSI_PORT_COUNTERS}; }
};

Capability capability_of(const Data& cpi) {
  const uint16_t mask = static_cast<uint16_t>(cpi[2] << 8 | cpi[3]);
  const uint32_t mask2 = (static_cast<uint32_t>(cpi[4]) << 24 | cpi[5] << 16 | cpi[6] << 8 | cpi[7]) >> 5;
  return {(mask & kAllPortSelect) != 0, (mask & kXmitWaitSupported) != 0, (mask2 & kExtendedErrorsSupported) != 0};
}

PortCounters counters_of(const Data& d, const Capability& cap) {
  PortCounters p;
  Data copy = d;  // mad_get_field takes a non-const buffer
  for (size_t i = 0; i < kPortCounterCount; ++i) {
    const auto c = static_cast<PortCounter>(i);
    if (cap.extended_errors) {
      p.set(c, mad_get_field64(copy.data(), 0, kFields[i].extended), 64);
    } else {
      if (c == PortCounter::PortXmitWait && !cap.xmit_wait) continue;
      p.set(c, mad_get_field(copy.data(), 0, kFields[i].basic), port_counter_names()[i].bits);
    }
  }
  return p;
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// A cabled port of the fabric: its node, its LID (the switch's for a switch port) and number.
struct Target {
  uint64_t guid = 0;
  uint16_t lid = 0;
  int port = 0;
  bool on_switch = false;
};

std::vector<Target> cabled_ports(const Fabric& fabric) {
  std::vector<Target> out;
  for (const Link& l : fabric.links)
    for (const LinkEnd* e : {&l.a, &l.b}) {
      const FabricNode* n = fabric.find(e->guid);
      const uint16_t lid = n && n->kind == NodeKind::Switch ? n->lid : e->lid;
      if (lid) out.push_back({e->guid, lid, e->port, n && n->kind == NodeKind::Switch});
    }
  std::sort(out.begin(), out.end(), [](const Target& x, const Target& y) {
    return std::tie(x.guid, x.port) < std::tie(y.guid, y.port);
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](const Target& x, const Target& y) { return x.guid == y.guid && x.port == y.port; }),
            out.end());
  return out;
}

}  // namespace

PmaReads read_port_counters(const Fabric& fabric, const PmaOptions& o, std::atomic<long>& answers) {
  MadWindow mads(o, answers);
  PmaReads out;
  CounterReadings& r = out.readings;
  r.source = "live:" + o.ca + "/" + std::to_string(o.port);
  r.form = "live";
  const std::vector<Target> targets = cabled_ports(fabric);
  std::map<uint16_t, std::vector<size_t>> by_switch;  // switch LID → its targets
  for (size_t i = 0; i < targets.size(); ++i)
    if (targets[i].on_switch) by_switch[targets[i].lid].push_back(i);
  // ClassPortInfo, read only for the LIDs that need it (see the header), kept for the second read.
  std::map<uint16_t, Capability> caps;
  std::map<uint16_t, bool> cpi_failed;
  std::vector<Data> data;
  std::vector<bool> ok, refused;

  auto fill = [&](PortCounters& p, const Target& t) {
    p.guid = t.guid;
    p.lid = t.lid;
    p.port = t.port;
  };
  // One read of every target: `into[i]` answered when `answered[i]`.
  auto read_all = [&](std::vector<PortCounters>& into, std::vector<bool>& answered) {
    into.assign(targets.size(), PortCounters{});
    answered.assign(targets.size(), false);
    const Capability basic{false, true, false};  // PortCounters as it comes, PortXmitWait included
    // 1. Each switch's ports summed (PortSelect 255) and each HCA port, all at once.
    std::vector<Query> queries;
    std::vector<long> what;  // >= 0: a target; < 0: -1 - index into `sums`
    std::vector<uint16_t> sums;
    for (const auto& [lid, members] : by_switch) {
      what.push_back(-1 - static_cast<long>(sums.size()));
      sums.push_back(lid);
      queries.push_back({lid, IB_GSI_PORT_COUNTERS, IB_MAD_METHOD_GET, PortCounters::kAllPorts, true});
    }
    for (size_t i = 0; i < targets.size(); ++i)
      if (!targets[i].on_switch) {
        what.push_back(static_cast<long>(i));
        queries.push_back({targets[i].lid, IB_GSI_PORT_COUNTERS, IB_MAD_METHOD_GET, targets[i].port});
      }
    // 2. Port by port: the switches whose sum is not zero, or whose PMA does not sum.
    for (int pass = 0; pass < 2 && !queries.empty(); ++pass) {
      mads.run(queries, data, ok, refused, out.failures);
      std::vector<Query> again;
      std::vector<long> again_what;
      for (size_t k = 0; k < queries.size(); ++k) {
        if (what[k] >= 0) {
          if (!ok[k]) continue;
          into[what[k]] = counters_of(data[k], basic);
          fill(into[what[k]], targets[what[k]]);
          answered[what[k]] = true;
          continue;
        }
        const uint16_t lid = sums[-1 - what[k]];
        if (!ok[k] && !refused[k]) continue;  // no answer: its ports are not read
        const PortCounters sum = ok[k] ? counters_of(data[k], basic) : PortCounters{};
        const bool zero = ok[k] && std::all_of(sum.value.begin(), sum.value.end(), [](uint64_t v) { return v == 0; });
        for (size_t i : by_switch[lid]) {
          if (zero) {
            into[i] = sum;  // all zero, the same counters kept
            fill(into[i], targets[i]);
            answered[i] = true;
          } else {
            again_what.push_back(static_cast<long>(i));
            again.push_back({lid, IB_GSI_PORT_COUNTERS, IB_MAD_METHOD_GET, targets[i].port});
          }
        }
      }
      queries = std::move(again);
      what = std::move(again_what);
    }
    // 3. A counter stopped at its maximum: where ClassPortInfo says the PMA keeps every error
    //    counter 64 bits wide, the port is read again from PortCountersExtended.
    std::vector<uint16_t> lids;
    for (size_t i = 0; i < targets.size(); ++i)
      if (answered[i] && into[i].at_max != 0 && !caps.count(targets[i].lid) && !cpi_failed.count(targets[i].lid))
        lids.push_back(targets[i].lid);
    std::sort(lids.begin(), lids.end());
    lids.erase(std::unique(lids.begin(), lids.end()), lids.end());
    std::vector<Query> cpi;
    for (uint16_t lid : lids) cpi.push_back({lid, CLASS_PORT_INFO, IB_MAD_METHOD_GET, 0});
    mads.run(cpi, data, ok, refused, out.failures);
    for (size_t k = 0; k < lids.size(); ++k) {
      if (ok[k]) caps[lids[k]] = capability_of(data[k]);
      else cpi_failed[lids[k]] = true;
    }
    queries.clear();
    what.clear();
    for (size_t i = 0; i < targets.size(); ++i) {
      auto cap = caps.find(targets[i].lid);
      if (!answered[i] || cap == caps.end()) continue;
      if (!cap->second.xmit_wait && !cap->second.extended_errors) {  // the field is reserved: not a reading
        const int bit = static_cast<int>(PortCounter::PortXmitWait);
        into[i].read &= ~(1u << bit);
        into[i].at_max &= ~(1u << bit);
        into[i].value[bit] = 0;
      }
      if (cap->second.extended_errors && into[i].at_max != 0) {
        what.push_back(static_cast<long>(i));
        queries.push_back({targets[i].lid, IB_GSI_PORT_COUNTERS_EXT, IB_MAD_METHOD_GET, targets[i].port});
      }
    }
    mads.run(queries, data, ok, refused, out.failures);
    for (size_t k = 0; k < queries.size(); ++k) {
      if (!ok[k]) continue;  // the 16- and 32-bit values stand, "at least"
      into[what[k]] = counters_of(data[k], caps[queries[k].lid]);
      fill(into[what[k]], targets[what[k]]);
    }
  };
  std::vector<PortCounters> first, second;
  std::vector<bool> first_ok, second_ok;
  Clock::time_point first_at = Clock::now();
  if (o.interval_s > 0) {
    read_all(first, first_ok);
    first_at = Clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(o.interval_s));
  }
  read_all(second, second_ok);
  const double elapsed = std::chrono::duration<double>(Clock::now() - first_at).count();
  r.read_at = utc_now();
  if (o.interval_s > 0) r.interval_s = elapsed;
  for (size_t k = 0; k < targets.size(); ++k) {
    if (!second_ok[k]) {
      ++out.failed;
      continue;
    }
    PortCounters p = second[k];
    if (o.interval_s > 0 && first_ok[k]) {
      for (size_t i = 0; i < kPortCounterCount; ++i) {
        const auto c = static_cast<PortCounter>(i);
        if (!p.has(c) || !first[k].has(c) || p.maxed(c) || first[k].maxed(c) || p[c] < first[k][c]) continue;
        p.rated |= 1u << i;
        p.per_second[i] = static_cast<double>(p[c] - first[k][c]) / elapsed;
      }
    }
    r.ports.push_back(std::move(p));
  }
  r.failed_queries = out.failed;

  if (o.reset) {
    std::vector<Query> resets;
    for (const PortCounters& p : r.ports) resets.push_back({p.lid, IB_GSI_PORT_COUNTERS, IB_MAD_METHOD_SET, p.port});
    std::vector<bool> reset_ok;
    mads.run(resets, data, reset_ok, refused, out.failures);
    out.reset_ports = static_cast<int>(std::count(reset_ok.begin(), reset_ok.end(), true));
  }
  return out;
}

}  // namespace slurmtopo
