// A measured run as the comparison needs it: one nccl-tests run (discover/nccl_tests_output.h)
// with the placement it measured — its hosts in rank order and GPUs per host — and what NCCL's
// log (discover/nccl_log.h) says each of its hosts did: the network, the HCAs bound, GPUDirect
// RDMA, the transport of every channel.
//
// A log belongs to a run by HOST:PID: nccl-tests prints each rank's Pid on its `# Using devices`
// line, and NCCL prefixes each line with HOST:PID, so two runs in one file, or a log holding
// several jobs, still give each run its own processes. PIDs come round again, so a process joins
// a run only from the run's own file or its step's log beside it (the same path but for the
// extension: step1.out and step1.log). Where no PID matches (a log of another job of the same
// hosts), no evidence is taken: a training job's log says nothing of this run.
#pragma once

#include <string>
#include <vector>

#include "discover/nccl_log.h"
#include "discover/nccl_tests_output.h"

namespace slurmtopo {

// One rank as NCCL's log shows it.
struct RankEvidence {
  int rank = -1;
  std::string bus_id;              // "0000:1b:00.0" from Init COMPLETE; "" unknown
  std::vector<std::string> hcas;   // the NET devices its channels leave through, by name
  int line = 0;                    // its Init COMPLETE line
};

// One host of a run, from its NCCL processes.
struct HostEvidence {
  std::string host;
  bool logged = false;             // a process of this run on this host left NCCL lines
  std::string source;              // the log
  std::string version;             // NCCL's
  int cuda_driver = 0;
  std::string network;             // "IB", "Socket", a plugin; "" where the log never says
  int network_line = 0;            // where it says so
  bool no_verbs = false, no_ib_device = false;
  std::vector<std::string> hcas;   // `NET/IB : Using`: the devices bound, in NCCL's order
  std::vector<std::string> socket_devices;
  int ib_channels = 0, gdr_channels = 0, socket_channels = 0, other_net_channels = 0;
  int channel_line = 0;            // the first NET channel line
  std::vector<NcclGdrState> gdr_disabled;  // `GPU Direct RDMA Disabled for ...`
  std::string ib_hca_env;          // NCCL_IB_HCA as NCCL read it
  std::vector<RankEvidence> ranks;
  std::vector<std::string> warnings;
};

struct MeasuredRun {
  NcclTestsRun test;                   // a job's log: only its source and line
  bool job_log = false;                // NCCL's log of a job that is no nccl-tests run of the input:
                                       // its evidence counts, nothing is compared
  std::vector<std::string> hosts;      // distinct hosts in rank order
  int nodes = 0;                       // the nodes it spans: its hosts, or NCCL's nNodes where the
                                       // input holds the logs of only some
  int gpus_per_host = 0;               // ranks / hosts; 0 when the hosts hold different counts
  std::vector<HostEvidence> evidence;  // parallel to hosts
  bool logged() const;                 // any host left NCCL lines
};

// Joins the runs of `outputs` with the processes of `logs` (a process joins the run whose device
// line names its host and PID). The processes no run takes are jobs' logs (a training job's,
// one file per node or one for all): grouped by the communicator their first rank joined
// (commId, the same on every host), else by file, each group a MeasuredRun with job_log set,
// after the runs. A job's processes count only their ranks in that communicator; their channels
// count towards a rank where the process drives one GPU (a channel line does not name its
// communicator, and rank numbers differ between communicators).
std::vector<MeasuredRun> join_measured(std::vector<NcclTestsRun> runs, const std::vector<NcclLog>& logs);

// `FILE`: its runs and the NCCL lines in it. `DIR`: every regular file in it (name order; a
// `.out` and a `.log` of one step both), runs and NCCL lines alike, joined as above.
// InputError: an unreadable path, a bad line (the readers'), neither an nccl-tests run nor an
// NCCL line in any file.
std::vector<MeasuredRun> read_measured(const std::string& path);

}  // namespace slurmtopo
