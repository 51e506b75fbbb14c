// Names for what Slurm sees as one switch but the fabric has as several: the rail leaves of a
// scalable unit, the spines of a plane, a pod's aggregation switches.
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

struct Cluster;

// One member: its own name. Several: capture 1 of `regex` when every member agrees on it,
// else the words they share with "x" for those that vary ("A09-P1-IBLEAF-01-01" and
// "A09-P1-IBLEAF-02-01" → "A09-P1-IBLEAF-x-01"; "su1-rail0".."su1-rail7" → "su1"),
// else their common prefix cut at a separator,
// else the stem at least 3/4 of them share, else "<first member>-x<count>". Never empty.
std::string unit_name(const std::vector<std::string>& members, const std::string& regex);

// Gives every group a name, unique against switch names and each other.
void name_groups(Cluster& cluster, const std::string& regex);

}  // namespace slurmtopo
