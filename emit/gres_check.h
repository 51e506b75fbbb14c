// slurmd's rules for gres.conf and the NodeName lines it must agree with (slurm.md, and what
// a real 22.05 slurmd did in tests/integration/slurmd_gres_test.sh), run before a file is
// written. Errors are what slurmd refuses, drains the node for, or — like -1 at the wrong
// Links index — accepts silently and then schedules wrongly; warnings are what it tolerates.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "emit/gres_conf.h"

namespace slurmtopo {

struct GresIssue {
  std::string file;
  int line = 0;  // 0: the file as a whole
  std::string message;
};

struct GresCheck {
  std::vector<GresIssue> errors;
  std::vector<GresIssue> warnings;
  bool ok() const { return errors.empty(); }
};

// One gres.conf line as slurmd reads it.
struct GresConfLine {
  int line = 0;
  bool has_nodes = false;               // no NodeName=: applies to every node
  std::vector<std::string> nodes;       // expanded NodeName=
  std::string name, type;
  std::vector<std::string> files;       // File=/Files= expanded ("/dev/nvidia[0-3]")
  bool has_cores = false, has_links = false, has_count = false;
  std::vector<int> cores, links;
  long count = 0;
  bool autodetect = false;              // an AutoDetect= line
};

struct ParsedGres {
  std::string file;
  std::vector<GresConfLine> lines;
  std::vector<GresIssue> errors;        // syntax slurmd is fatal on (unknown key, bad value)
};

ParsedGres parse_gres_conf(std::string_view text, const std::string& file);

// A NodeName= line of slurm.conf (NodeName=DEFAULT values applied).
struct NodeConfLine {
  int line = 0;
  std::vector<std::string> nodes;
  int cpus = 0, sockets = 0, cores_per_socket = 0, threads_per_core = 0;
  uint64_t real_memory = 0;
  std::vector<std::pair<std::string, long>> gres;  // (name[:type], count), e.g. ("gpu:h100", 8)
};

struct ParsedNodes {
  std::string file;
  std::vector<NodeConfLine> lines;
  std::vector<std::string> gres_types;  // GresTypes=
  std::vector<GresIssue> errors;
};

// Reads NodeName= and GresTypes= lines; every other slurm.conf line is skipped.
ParsedNodes parse_node_conf(std::string_view text, const std::string& file);

// Nodes with the same NodeName line and the same gres.conf lines are checked once, so a
// mistake in a class's line is one issue naming the hostlist, not one per node.
GresCheck check_gres(const ParsedGres& gres, const ParsedNodes& nodes, SlurmRelease version);

}  // namespace slurmtopo
