// gres.conf and the NodeName= lines of slurm.conf as slurmd reads them: keys, values and
// hostlists, with every syntax error slurmd is fatal on collected (file:line), so that a file
// about to be written and a file already in place are checked the same way (emit/gres_check.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slurmtopo {

struct GresIssue {
  std::string file;
  int line = 0;  // 0: the file as a whole
  std::string message;
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

}  // namespace slurmtopo
