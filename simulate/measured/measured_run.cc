#include "simulate/measured/measured_run.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "base/files.h"
#include "base/input_error.h"

namespace slurmtopo {

namespace {

using HostPid = std::pair<std::string, long>;

void add_unique(std::vector<std::string>& list, const std::string& s) {
  if (!s.empty() && std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
}

// The NET device a channel line names, by name: NET/IB/3 is the process's 4th bound device.
std::string net_name(const NcclProcess& p, int index) {
  for (const NcclNetDevice& d : p.net_devices)
    if (d.index == index) return d.device;
  return "";
}

// `comm_id` (a job's log): only the ranks of that communicator ("" where NCCL printed none),
// and the process's send channels go to its rank only where it drives one GPU. nullopt (an
// nccl-tests run): every rank and channel.
void add_process(HostEvidence& e, const NcclProcess& p, const std::string& source,
                 const std::optional<std::string>& comm_id = std::nullopt) {
  if (!e.logged) e.source = source;
  e.logged = true;
  if (e.version.empty()) e.version = p.version;
  if (!e.cuda_driver) e.cuda_driver = p.cuda_driver;
  // One process on sockets makes the host's traffic go over sockets: its peers' channels to it
  // do too.
  if (!p.network.empty() && (e.network.empty() || p.network == "Socket")) {
    e.network = p.network;
    e.network_line = p.first_line;
  }
  e.no_verbs |= p.no_verbs;
  e.no_ib_device |= p.no_ib_device;
  for (const NcclNetDevice& d : p.net_devices) add_unique(e.hcas, d.device);
  for (const std::string& s : p.socket_devices) add_unique(e.socket_devices, s);
  int own_rank = -1;  // a job's process with one rank in the communicator
  for (const NcclRankInit& r : p.ranks) {
    if (comm_id) {
      if (r.comm_id != *comm_id) continue;
      own_rank = own_rank == -1 ? r.rank : -2;
    }
    auto it = std::find_if(e.ranks.begin(), e.ranks.end(), [&](const RankEvidence& x) { return x.rank == r.rank; });
    if (it == e.ranks.end()) {
      RankEvidence x;
      x.rank = r.rank;
      x.bus_id = r.bus_id;
      x.line = r.line;
      e.ranks.push_back(std::move(x));
    }
  }
  for (const NcclChannel& c : p.channels) {
    if (c.transport.rfind("NET/", 0) != 0) continue;
    if (!e.channel_line) e.channel_line = c.line;
    if (c.transport == "NET/IB") {
      ++e.ib_channels;
      e.gdr_channels += c.gdr;
    } else if (c.transport == "NET/Socket") {
      ++e.socket_channels;
    } else {
      ++e.other_net_channels;
    }
    if (c.direction != "send" || c.transport != "NET/IB" || c.from_rank < 0) continue;
    if (comm_id && own_rank < 0) continue;
    const int from = comm_id ? own_rank : c.from_rank;
    auto r = std::find_if(e.ranks.begin(), e.ranks.end(), [&](const RankEvidence& x) { return x.rank == from; });
    if (r == e.ranks.end()) {
      RankEvidence x;
      x.rank = from;
      x.line = c.line;
      r = e.ranks.insert(e.ranks.end(), std::move(x));
    }
    add_unique(r->hcas, net_name(p, c.net_device));
  }
  for (const NcclGdrState& g : p.gdr)
    if (!g.enabled) e.gdr_disabled.push_back(g);
  if (auto it = p.env.find("NCCL_IB_HCA"); it != p.env.end() && e.ib_hca_env.empty()) e.ib_hca_env = it->second;
  for (const std::string& w : p.warnings) e.warnings.push_back(w);
}

}  // namespace

bool MeasuredRun::logged() const {
  return std::any_of(evidence.begin(), evidence.end(), [](const HostEvidence& e) { return e.logged; });
}

namespace {

// "dir/step1.out" and "dir/step1.log" are one step's: the same path without its extension.
std::string stem(const std::string& path) {
  const size_t slash = path.rfind('/');
  const size_t dot = path.find('.', slash == std::string::npos ? 0 : slash + 1);
  return dot == std::string::npos ? path : path.substr(0, dot);
}

// A run's hosts (in rank order), its ranks per host even or 0, and an empty evidence per host.
void place_hosts(MeasuredRun& m, std::vector<std::string> hosts, std::map<std::string, int>& ranks_on) {
  m.hosts = std::move(hosts);
  m.nodes = static_cast<int>(m.hosts.size());
  if (!m.hosts.empty()) {
    const int first = ranks_on[m.hosts.front()];
    const bool even = std::all_of(m.hosts.begin(), m.hosts.end(), [&](const std::string& h) { return ranks_on[h] == first; });
    m.gpus_per_host = first > 0 && even ? first : 0;
  }
  for (const std::string& h : m.hosts) {
    HostEvidence e;
    e.host = h;
    m.evidence.push_back(std::move(e));
  }
}

void sort_ranks(MeasuredRun& m) {
  for (HostEvidence& e : m.evidence)
    std::sort(e.ranks.begin(), e.ranks.end(), [](const RankEvidence& a, const RankEvidence& b) { return a.rank < b.rank; });
}

// The processes no run took, one MeasuredRun per communicator (or file).
void add_jobs(std::vector<MeasuredRun>& out, const std::vector<NcclLog>& logs, const std::set<const NcclProcess*>& taken) {
  struct Job {
    std::string comm_id;
    std::vector<std::pair<const NcclProcess*, const std::string*>> processes;
  };
  std::vector<Job> jobs;
  std::map<std::string, size_t> index;
  for (const NcclLog& log : logs)
    for (const NcclProcess& p : log.processes) {
      if (taken.count(&p)) continue;
      const std::string comm = p.ranks.empty() ? "" : p.ranks.front().comm_id;
      const std::string key = comm.empty() ? "file " + log.source : "comm " + comm;
      auto [it, fresh] = index.try_emplace(key, jobs.size());
      if (fresh) jobs.push_back({comm, {}});
      jobs[it->second].processes.push_back({&p, &log.source});
    }
  for (const Job& job : jobs) {
    MeasuredRun m;
    m.job_log = true;
    m.test.source = *job.processes.front().second;
    m.test.line = job.processes.front().first->first_line;
    // Hosts in the order of their lowest rank in the communicator, else as they appear.
    std::map<std::string, int> lowest, ranks_on;
    int nnodes = 0;
    for (const auto& [p, source] : job.processes) {
      int& low = lowest.try_emplace(p->host, 1 << 30).first->second;
      for (const NcclRankInit& r : p->ranks) {
        if (r.comm_id != job.comm_id) continue;
        low = std::min(low, r.rank);
        ++ranks_on[p->host];
        nnodes = std::max(nnodes, r.nnodes);
      }
    }
    std::vector<std::string> hosts;
    for (const auto& [p, source] : job.processes)
      if (std::find(hosts.begin(), hosts.end(), p->host) == hosts.end()) hosts.push_back(p->host);
    std::stable_sort(hosts.begin(), hosts.end(),
                     [&](const std::string& a, const std::string& b) { return lowest[a] < lowest[b]; });
    place_hosts(m, std::move(hosts), ranks_on);
    m.nodes = std::max(m.nodes, nnodes);
    for (const auto& [p, source] : job.processes) {
      const size_t h = std::find(m.hosts.begin(), m.hosts.end(), p->host) - m.hosts.begin();
      add_process(m.evidence[h], *p, *source, job.comm_id);
    }
    sort_ranks(m);
    out.push_back(std::move(m));
  }
}

}  // namespace

std::vector<MeasuredRun> join_measured(std::vector<NcclTestsRun> runs, const std::vector<NcclLog>& logs) {
  std::map<HostPid, std::vector<std::pair<const NcclProcess*, const std::string*>>> processes;
  for (const NcclLog& log : logs)
    for (const NcclProcess& p : log.processes) processes[{p.host, p.pid}].push_back({&p, &log.source});
  std::set<const NcclProcess*> taken;
  std::vector<MeasuredRun> out;
  for (NcclTestsRun& run : runs) {
    MeasuredRun m;
    std::map<std::string, int> ranks_on;
    std::vector<std::string> hosts;
    for (const NcclTestsDevice& d : run.devices)
      if (ranks_on[d.host]++ == 0) hosts.push_back(d.host);
    place_hosts(m, std::move(hosts), ranks_on);
    std::set<HostPid> seen;
    for (const NcclTestsDevice& d : run.devices) {
      const HostPid key{d.host, d.pid};
      if (!seen.insert(key).second) continue;
      auto it = processes.find(key);
      if (it == processes.end()) continue;
      const size_t h = std::find(m.hosts.begin(), m.hosts.end(), d.host) - m.hosts.begin();
      // PIDs come round again: only the run's own file, or its step's log beside it.
      for (const auto& [p, source] : it->second)
        if (stem(*source) == stem(run.source)) {
          add_process(m.evidence[h], *p, *source);
          taken.insert(p);
        }
    }
    sort_ranks(m);
    m.test = std::move(run);
    out.push_back(std::move(m));
  }
  add_jobs(out, logs, taken);
  return out;
}

std::vector<MeasuredRun> read_measured(const std::string& path) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (const auto& entry : fs::directory_iterator(path, ec))
      if (entry.is_regular_file()) files.push_back(entry.path().string());
    if (ec) throw InputError(path, 0, "expected a readable directory of nccl-tests outputs and NCCL logs");
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  std::vector<NcclTestsRun> runs;
  std::vector<NcclLog> logs;
  for (const std::string& f : files) {
    const std::string text = read_file(f, "an nccl-tests output or NCCL log");
    // A header with neither a device line nor a row (a stray line of nccl-tests in a job's log)
    // measured nothing; one with devices and no row is a run that hung, and stays.
    for (NcclTestsRun& r : parse_nccl_tests_output(text, f))
      if (!r.devices.empty() || !r.rows.empty()) runs.push_back(std::move(r));
    NcclLog log = parse_nccl_log(text, f);
    if (log.nccl_lines) logs.push_back(std::move(log));
  }
  if (runs.empty() && logs.empty())
    throw InputError(path, 0,
                     "expected nccl-tests output (a `# nThread` header and its size table: all_reduce_perf and the "
                     "other *_perf programs' stdout) or NCCL_DEBUG=INFO lines (HOST:PID:TID [DEV] NCCL INFO ...)");
  return join_measured(std::move(runs), logs);
}

}  // namespace slurmtopo
