// The live sweep. libibnetdisc does the walk and libibmad the table reads; both run on a
// worker thread watched for stalls (discover/sweep_watch.h), because under the simulator a
// MAD to a vanished fabric never returns.
#include "discover/live_fabric.h"

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>

#include "base/input_error.h"
#include "discover/ibnd_fabric.h"
#include "discover/pma_reads.h"
#include "discover/sweep_watch.h"

namespace slurmtopo {
namespace {

// libibnetdisc's own defaults, for the stall limit when the user gives none.
constexpr unsigned kDefaultTimeoutMs = 1000;
constexpr unsigned kDefaultRetries = 3;
// SMPs on the wire at once: ibdiagnet's default (--smp_window 8). libibnetdisc's own is 2 (as
// ibnetdiscover -o), which left a 1,024-HCA sweep waiting on round trips: 0.57 s against 0.32 s
// at 8 under ibsim. OpenSM keeps 4 of its own on the wire; switches answer SMPs one at a time
// each, and a breadth-first walk spreads the 8 over different switches.
constexpr unsigned kDefaultSmpWindow = 8;
constexpr unsigned kPortActive = 4;

struct FabricDeleter {
  void operator()(ibnd_fabric_t* f) const { ibnd_destroy_fabric(f); }
};
using IbndFabric = std::unique_ptr<ibnd_fabric_t, FabricDeleter>;

struct LocalPort {
  std::string ca;
  int port = 0;
  uint64_t port_guid = 0;
  std::string source() const { return "live:" + ca + "/" + std::to_string(port); }
};

// The port we sweep from must be usable and have a LID: directed-route SMPs would walk a
// subnet no SM has configured, and return a fabric of LID 0 that no table or Slurm node could
// use — better to say so before a long sweep.
LocalPort check_local_port(const LiveOptions& o) {
  const std::string asked = "live:" + (o.ca.empty() ? std::string("(first CA)") : o.ca) + "/" +
                            (o.port ? std::to_string(o.port) : std::string("(first active port)"));
  umad_init();
  umad_port_t p{};
  if (int rc = umad_get_port(o.ca.empty() ? nullptr : o.ca.c_str(), o.port, &p); rc < 0)
    throw InputError(asked, 0,
                     std::string("cannot open the InfiniBand port: ") + std::strerror(-rc) +
                         " (no HCA, ib_umad not loaded, or a wrong --ca/--port; `ibstat` lists them)");
  LocalPort local{p.ca_name, p.portnum, be64toh(p.port_guid)};
  const unsigned lid = p.base_lid, state = p.state;
  umad_release_port(&p);
  if (lid == 0)
    throw InputError(local.source(), 0,
                     "the port has LID 0: no subnet manager has swept this subnet yet; start opensm (or wait for "
                     "its sweep) and run again");
  if (state != kPortActive)
    throw InputError(local.source(), 0,
                     "the port is not active (state " + std::to_string(state) + ", LID " + std::to_string(lid) +
                         "): the subnet manager has not brought it up; check that opensm runs and run again");
  return local;
}

// Every switch's LFT, LIDs 0..LinearFDBTop, by directed route (the path the sweep found), so it
// works whatever the tables themselves say. A switch that does not answer loses its table and
// is named in `partial`.
ForwardingTables read_lfts(const ibnd_fabric_t& ibnd, const LocalPort& local, const LiveOptions& o,
                           LiveProgress& progress, std::atomic<long>& answers, std::vector<std::string>& partial) {
  int classes[] = {IB_SMI_CLASS, IB_SMI_DIRECT_CLASS};
  std::string ca = local.ca;
  struct ibmad_port* srcport = mad_rpc_open_port(ca.data(), local.port, classes, 2);
  if (!srcport) throw InputError(local.source(), 0, "cannot open a MAD port to read the forwarding tables");
  if (o.timeout_ms) mad_rpc_set_timeout(srcport, static_cast<int>(o.timeout_ms));
  if (o.retries) mad_rpc_set_retries(srcport, static_cast<int>(o.retries));
  ForwardingTables tables;
  std::vector<const ibnd_node_t*> switches;
  for (const ibnd_node_t* n = ibnd.nodes; n; n = n->next)
    if (n->type == IB_NODE_SWITCH) switches.push_back(n);
  std::sort(switches.begin(), switches.end(), [](auto* a, auto* b) { return a->guid < b->guid; });
  progress.lft_switches = static_cast<long>(switches.size());
  for (const ibnd_node_t* sw : switches) {
    const auto top = static_cast<uint16_t>(mad_get_field(const_cast<uint8_t*>(sw->switchinfo), 0, IB_SW_LINEAR_FDB_TOP_F));
    std::vector<uint8_t> table;
    bool complete = true;
    for (int block = 0; block < lft_blocks(top); ++block) {
      uint8_t data[IB_SMP_DATA_SIZE] = {};
      ib_portid_t portid = sw->path_portid;
      if (!smp_query_via(data, &portid, IB_ATTR_LINEARFORWTBL, block, o.timeout_ms, srcport)) {
        partial.push_back("switch 0x" + guid_hex(sw->guid) + ": LinearForwardingTable block " + std::to_string(block) +
                          " not answered; its forwarding table is left out");
        complete = false;
        break;
      }
      uint8_t ports[ForwardingTables::kBlockLids];
      std::memcpy(ports, data, sizeof ports);
      put_lft_block(table, top, block, ports);
      ++answers;
    }
    if (complete) tables.by_switch.emplace(sw->guid, std::move(table));
    ++progress.lft_done;
  }
  mad_rpc_close_port(srcport);
  return tables;
}

// Fabric::counters from every cabled port; the ports that did not answer go to `partial`.
// Returns how many ports were reset.
int read_counters_into(Fabric& fabric, const LocalPort& local, const LiveOptions& options, std::atomic<long>& answers) {
  PmaOptions pma{local.ca, local.port, options.timeout_ms, options.retries, options.pma_window, options.interval_s,
                 options.reset_counters};
  PmaReads reads = read_port_counters(fabric, pma, answers);
  for (const auto& f : reads.failures) fabric.partial.push_back("port counters: " + f);
  if (reads.failed > static_cast<int>(reads.failures.size()))
    fabric.partial.push_back("port counters: " + std::to_string(reads.failed) + " ports not read in all");
  fabric.counters = std::move(reads.readings);
  return reads.reset_ports;
}

// A show_progress line: "<path> -> new Switch {guid} portnum ..." (libibnetdisc dump_endnode).
void count_node(const std::string& line, LiveProgress& progress) {
  if (line.find("-> new Switch") != std::string::npos) ++progress.switches;
  else if (line.find("-> new ") != std::string::npos) ++progress.cas;
}

// "2026-12-05T17:42:03Z": when the sweep began, in UTC so that reports from hosts in several
// zones compare.
std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// What the sweep thread hands back; the source is also read if the sweep is abandoned.
struct SweepResult {
  std::mutex mutex;
  Fabric fabric;
  std::string source;
  int reset = 0;
};

// The whole sweep, on the watched thread: under the simulator even opening the port waits on it.
void sweep(const LiveOptions& options, LiveProgress& progress, std::atomic<long>& answers, SweepResult& result) {
  const LocalPort local = check_local_port(options);
  {
    std::lock_guard lock(result.mutex);
    result.source = local.source();
  }
  ++answers;
  const std::string started = utc_now();
  ibnd_config_t config{};
  config.max_smps = options.smp_window ? options.smp_window : kDefaultSmpWindow;
  config.show_progress = 1;  // the only way libibnetdisc tells us it found a node
  config.max_hops = options.max_hops;
  config.timeout_ms = options.timeout_ms;
  config.retries = options.retries;
  config.flags = IBND_CONFIG_MLX_EPI;  // FDR10 is only visible in Mellanox's ExtendedPortInfo
  std::string ca = local.ca;
  IbndFabric ibnd(ibnd_discover_fabric(ca.data(), local.port, nullptr, &config));
  if (!ibnd)
    throw InputError(local.source(), 0, "libibnetdisc could not sweep the fabric from this port (see its messages above)");
  Fabric fabric = fabric_from_ibnd(*ibnd);
  if (options.max_hops && !fabric.partial.empty())
    fabric.partial.push_back("the walk stopped at --max-hops " + std::to_string(options.max_hops));
  if (options.routes) {
    std::vector<std::string> missing;
    fabric.routes = read_lfts(*ibnd, local, options, progress, answers, missing);
    fabric.partial.insert(fabric.partial.end(), missing.begin(), missing.end());
  }
  int reset = 0;
  if (options.counters) {
    progress.reading_counters = true;
    reset = read_counters_into(fabric, local, options, answers);
  }
  fabric.source = local.source();
  fabric.captured = started;
  // "mlx5_0-1": what --fabric would call a file, in characters safe in Slurm and file names.
  fabric.name = local.ca + "-" + std::to_string(local.port);
  for (char& c : fabric.name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '-';
  std::lock_guard lock(result.mutex);
  result.fabric = std::move(fabric);
  result.reset = reset;
}

}  // namespace

namespace {

std::string asked_port(const LiveOptions& options) {
  return "live:" + (options.ca.empty() ? std::string("(first CA)") : options.ca) + "/" +
         (options.port ? std::to_string(options.port) : std::string("(first active port)"));
}

// `work` on the watched thread, given up when no MAD has answered for a while: the stall limit
// is max(3 s, 2 x timeout x (retries + 1)), plus the pause between two counter reads, which is
// no silence of the fabric.
void watch(const LiveOptions& options, const std::function<void(std::atomic<long>&)>& work,
           const std::shared_ptr<std::atomic<long>>& answers, const std::function<void()>& tick, SweepResult& result) {
  const std::string asked = asked_port(options);
  const unsigned timeout = options.timeout_ms ? options.timeout_ms : kDefaultTimeoutMs;
  const unsigned retries = options.retries ? options.retries : kDefaultRetries;
  const auto stall = std::chrono::milliseconds(std::max(3000u, 2 * timeout * (retries + 1)) +
                                               static_cast<unsigned>(options.interval_s * 1000));
  const std::string stalled = "the fabric stopped answering: no MAD answered for " +
                              std::to_string(stall.count() / 1000) +
                              " s (subnet manager or simulator gone, or the port went down); nothing was written";
  try {
    run_watched([work, answers] { work(*answers); }, answers, stall, tick, asked, stalled);
  } catch (const AbandonedSweep&) {
    std::lock_guard lock(result.mutex);
    throw AbandonedSweep(result.source.empty() ? asked : result.source, 0, stalled);
  }
}

}  // namespace

Fabric discover_live_fabric(const LiveOptions& options, const std::shared_ptr<LiveProgress>& progress,
                            const std::function<void()>& tick, int* reset) {
  // Anything that moves: the port opened, a node reported (new or known), a table block read.
  auto answers = std::make_shared<std::atomic<long>>(0);
  auto result = std::make_shared<SweepResult>();
  const AbortIsError aborted(asked_port(options) +
                             ": the fabric stopped answering mid-sweep and libibnetdisc aborted (subnet "
                             "manager or simulator gone, or the port went down); nothing was written");
  StdoutLines lines([progress, answers](const std::string& line) {
    count_node(line, *progress);
    ++*answers;
  });
  watch(options, [options, progress, result](std::atomic<long>& a) { sweep(options, *progress, a, *result); }, answers,
        tick, *result);
  lines.restore();
  std::lock_guard lock(result->mutex);
  if (reset) *reset = result->reset;
  return std::move(result->fabric);
}

Fabric read_live_counters(Fabric fabric, const LiveOptions& options, const std::function<void()>& tick, int* reset) {
  auto answers = std::make_shared<std::atomic<long>>(0);
  auto result = std::make_shared<SweepResult>();
  result->fabric = std::move(fabric);
  watch(options,
        [options, result](std::atomic<long>& a) {
          const LocalPort local = check_local_port(options);
          {
            std::lock_guard lock(result->mutex);
            result->source = local.source();
          }
          ++a;
          // The file's LIDs are this subnet's only if the port we read from is in it.
          bool ours = false;
          for (const Link& l : result->fabric.links)
            for (const LinkEnd* e : {&l.a, &l.b}) ours = ours || e->port_guid == local.port_guid || e->guid == local.port_guid;
          if (!ours)
            throw InputError(local.source(), 0,
                             "this port (GUID 0x" + guid_hex(local.port_guid) + ") is not in " +
                                 result->fabric.source +
                                 ": its LIDs are another subnet's; sweep with `discover fabric --counters` instead");
          const int n = read_counters_into(result->fabric, local, options, a);
          std::lock_guard lock(result->mutex);
          result->reset = n;
        },
        answers, tick, *result);
  std::lock_guard lock(result->mutex);
  if (reset) *reset = result->reset;
  return std::move(result->fabric);
}

ForwardingTables tables_for_fabric(ForwardingTables all, const std::string& path, const Fabric& fabric,
                                   size_t& left_out) {
  ForwardingTables mine;
  const size_t total = all.by_switch.size();
  for (auto& [guid, table] : all.by_switch) {
    const FabricNode* n = fabric.find(guid);
    if (n && n->kind == NodeKind::Switch) mine.by_switch.emplace(guid, std::move(table));
  }
  if (mine.empty())
    throw InputError(path, 0, "none of its " + std::to_string(total) +
                                  " forwarding tables is for a switch of the swept fabric");
  left_out = total - mine.by_switch.size();
  return mine;
}

}  // namespace slurmtopo
