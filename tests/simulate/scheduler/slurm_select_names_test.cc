// Hostlists of placements written without sorting strings (slurm_select_names.cc) must be the
// ones compress_hostlist writes for the same nodes, for every way node names can be numbered.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "simulate/scheduler/slurm_select.h"
#include "slurm/hostlist.h"

using namespace slurmtopo;

namespace {

// Every placement of every size on the given names (no topology, some nodes busy), compared
// with compress_hostlist of the nodes the placement names.
void check_names(const std::string& hostlist, const std::string& busy) {
  SelectSetup setup;
  for (const auto& n : expand_hostlist(hostlist)) setup.nodes.push_back({n, 1, 2});
  const SlurmSelect select(std::move(setup));
  const std::vector<std::string> busy_nodes = busy.empty() ? std::vector<std::string>{} : expand_hostlist(busy);
  const int free_nodes = static_cast<int>(select.node_names().size() - busy_nodes.size());
  for (int count = 1; count <= free_nodes; ++count) {
    SelectJob job;
    job.nodes = count;
    job.exclusive = true;
    const SelectResult r = select.place(job, busy_nodes);
    REQUIRE(r.started);
    CHECK(r.hostlist == compress_hostlist(r.nodes));
  }
}

}  // namespace

TEST_CASE("select hostlists: zero-padded names give compress_hostlist's ranges") {
  check_names("gpu[0001-0040]", "gpu[0003,0010-0012,0039]");
}

TEST_CASE("select hostlists: unpadded names across digit counts (gpu9, gpu10) give compress_hostlist's") {
  check_names("gpu[1-120]", "gpu[5,9,99-101]");
}

TEST_CASE("select hostlists: names compress_hostlist treats differently keep its answer") {
  // Mixed padding (n01 beside n100) and two prefixes: the general writer is used.
  check_names("n[01-12],n100", "n05");
  check_names("a[1-4],b[1-4]", "a2");
  SelectSetup setup;
  for (const auto& n : expand_hostlist("node[8-11]")) setup.nodes.push_back({n, 1, 2});
  const SlurmSelect select(std::move(setup));
  SelectJob job;
  job.nodes = 4;
  CHECK(select.place(job, std::vector<std::string>{}).hostlist == "node[8-11]");
}
