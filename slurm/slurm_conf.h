// The NodeName lines of a slurm.conf (or a fragment), following Include lines.
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

struct SlurmNodeLine {
  std::string file;
  int line = 0;
  std::vector<std::string> names;  // expanded hostlist, in the order written
  std::string text;                // the whole NodeName= line as written
  std::string defaults;            // the NodeName=DEFAULT lines before it, in order: what it inherits
};

struct SlurmConf {
  std::vector<SlurmNodeLine> node_lines;
  // ClusterName=, lower-cased as slurmctld stores it (the last one read wins); "" without one.
  std::string cluster_name;
  std::vector<std::string> nodes() const;  // all names, file order, without "DEFAULT"
};

SlurmConf load_slurm_conf(const std::string& path);

}  // namespace slurmtopo
