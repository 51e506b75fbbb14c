// The running slurmctld, as `slurmtopo apply` talks to it: its node list, reconfigure, ping and
// the topology it holds. An interface, so the apply plan can be unit-tested with a fake; the
// real one runs scontrol (the integration test runs it against a real slurmctld).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "slurm/topology_conf.h"

namespace slurmtopo {

class SlurmControl {
 public:
  virtual ~SlurmControl() = default;
  // The node names slurmctld knows (`scontrol show nodes`); nullopt when it does not answer.
  virtual std::optional<std::vector<std::string>> node_names() = 0;
  // `scontrol reconfigure`: "" on success, else what scontrol said.
  virtual std::string reconfigure() = 0;
  // `scontrol ping` says the primary slurmctld is UP.
  virtual bool ping() = 0;
  // The switch names of `scontrol show topology`; nullopt when it does not answer.
  virtual std::optional<std::vector<std::string>> switch_names() = 0;
  // `scontrol show topology` as printed, to verify each switch's nodes and children; nullopt
  // when it does not answer (or a control cannot say: then only the names are verified).
  virtual std::optional<std::string> show_topology() { return std::nullopt; }
  // `scontrol show nodes --oneliner`, one node a line, to verify node attributes; nullopt when
  // it does not answer.
  virtual std::optional<std::string> show_nodes() { return std::nullopt; }
};

// scontrol with SLURM_CONF=slurm_conf (empty: scontrol's own default), each call bounded by
// `timeout_seconds` (scontrol retries a dead slurmctld for a minute).
std::unique_ptr<SlurmControl> make_scontrol(const std::string& slurm_conf, int timeout_seconds = 20);

// The values of KEY= in `scontrol show ... --oneliner` output, in order ("NodeName", "SwitchName").
std::vector<std::string> scontrol_values(const std::string& output, const std::string& key);

// The first switch where `scontrol show topology` (shown) and the topology.conf slurmctld was
// told to read (written) differ: a switch missing or extra, or other nodes below it or child
// switches, said the admin's way ("leaf-3: slurmctld shows nodes gpu[1-18], topology.conf gives
// gpu[1-17,19]"); "" when they are the same.
std::string topology_mismatch(const std::string& shown, const ParsedTopology& written);

}  // namespace slurmtopo
