// `slurmtopo probe`'s plan on a generated rail-optimized fabric (4 SUs x 4 hosts, each SU one
// Slurm leaf group): the placements match the fabric's groups, and the script, run by /bin/sh
// with a stand-in srun, runs every step and writes every step's output.
#include "simulate/measured/probe_plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "base/files.h"
#include "base/input_error.h"
#include "base/shell_quote.h"
#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"
#include "slurm/hostlist.h"

using namespace slurmtopo;
using V = std::vector<std::string>;

namespace {

const Cluster& four_sus() {
  static const Cluster c = [] {
    RailOptimizedSpec spec;
    spec.scalable_units = 4;
    spec.hosts_per_su = 4;
    spec.rails = 4;
    spec.radix = 16;
    return build_cluster({generate_rail_optimized(spec)}, ClusterOptions{});
  }();
  return c;
}

ProbeRequest probe_request(const std::string& nodes) {
  ProbeRequest r;
  r.nodes = nodes;
  r.out_dir = "/shared/probe";
  return r;
}

V names_of(const ProbePlan& p) {
  V out;
  for (const auto& s : p.placements) out.push_back(s.name);
  return out;
}

// The group (Cluster::groups name) each host is in.
std::map<std::string, std::string> group_of_host(const Cluster& c) {
  std::map<std::string, std::string> out;
  for (const auto& h : c.hosts)
    if (h.group >= 0) out[h.name] = c.groups[h.group].name;
  return out;
}

}  // namespace

TEST_CASE("plan_probe: each leaf group alone, pairs across the spines, one host per group, the whole list") {
  const Cluster& c = four_sus();
  REQUIRE(c.groups.size() == 4);
  const ProbePlan p = plan_probe(c, probe_request("dgx[001-016]"));
  CHECK(names_of(p) == V{"01-group-su1", "02-group-su2", "03-group-su3", "04-group-su4", "05-pair-su1-su2",
                         "06-pair-su3-su4", "07-pair-su1-su4", "08-rails", "09-all"});
  CHECK(p.notes.empty());
  CHECK(p.out_dir == "/shared/probe");
  CHECK(p.script_path == "/shared/probe/probe.sbatch");
  const auto group = group_of_host(c);
  // Each group once, alone, with exactly its hosts.
  std::set<std::string> alone, paired;
  for (const auto& s : p.placements) {
    CHECK(s.output == "/shared/probe/" + s.name + ".out");
    CHECK(s.hostlist == compress_hostlist(s.hosts));
    std::set<std::string> spanned;
    for (const auto& h : s.hosts) spanned.insert(group.at(h));
    if (s.kind == ProbeKind::Group) {
      REQUIRE(s.groups.size() == 1);
      CHECK(alone.insert(s.groups[0]).second);
      CHECK(spanned == std::set<std::string>{s.groups[0]});
      V expected;
      for (int h : c.groups[c.hosts[c.host_index(s.hosts[0])].group].hosts) expected.push_back(c.hosts[h].name);
      CHECK(s.hosts == expected);
    } else if (s.kind == ProbeKind::Pair) {
      REQUIRE(s.groups.size() == 2);
      CHECK(spanned == std::set<std::string>(s.groups.begin(), s.groups.end()));
      CHECK(s.hosts.size() == 8);
      paired.insert(s.groups.begin(), s.groups.end());
    } else if (s.kind == ProbeKind::Rails) {
      CHECK(s.hosts == V{"dgx001", "dgx005", "dgx009", "dgx013"});
      CHECK(spanned.size() == c.groups.size());  // one host of each group
    } else {
      CHECK(s.hosts.size() == 16);
      CHECK(s.hostlist == "dgx[001-016]");
    }
  }
  CHECK(alone.size() == c.groups.size());
  CHECK(paired == alone);  // every group is in a pair
}

TEST_CASE("plan_probe: --nodes restricts the groups, a one-host group is its node's own test, an odd group pairs with the first") {
  const ProbePlan p = plan_probe(four_sus(), probe_request("dgx[001-005,009-010]"));
  // su1: 4 hosts, su2: dgx005 alone, su3: 2, su4: none (not mentioned).
  CHECK(names_of(p) == V{"01-group-su1", "02-group-su2", "03-group-su3", "04-pair-su1-su2", "05-pair-su1-su3",
                         "06-rails", "07-all"});
  CHECK(p.placements[1].hosts == V{"dgx005"});
  CHECK(p.placements[4].hostlist == "dgx[001-004,009-010]");
  CHECK(p.placements[5].hosts == V{"dgx001", "dgx005", "dgx009"});
  CHECK(p.placements[6].hostlist == "dgx[001-005,009-010]");
  CHECK(p.script.find("# 02-group-su2: leaf group su2 alone (1 host: NVLink and NCCL within the node)\n") !=
        std::string::npos);
  CHECK(p.notes.empty());
}

TEST_CASE("plan_probe: a placement that repeats an earlier one, or has one host, is left out and said") {
  // Two groups: their pair is the whole list.
  ProbePlan p = plan_probe(four_sus(), probe_request("dgx[001-008]"));
  CHECK(names_of(p) == V{"01-group-su1", "02-group-su2", "03-pair-su1-su2", "04-rails"});
  CHECK(p.notes == V{"no all step: its hosts are an earlier step's"});
  CHECK(p.script.find("# Note: no all step: its hosts are an earlier step's\n") != std::string::npos);
  // One group: no pair, the rails step would have one host, the whole list is the group.
  p = plan_probe(four_sus(), probe_request("dgx[001-003]"));
  CHECK(names_of(p) == V{"01-group-su1"});
  CHECK(p.notes == V{"no rails step: it would have 1 host", "no all step: its hosts are an earlier step's"});
  // One host: its single-node test only.
  p = plan_probe(four_sus(), probe_request("dgx007"));
  CHECK(names_of(p) == V{"01-group-su2"});
}

TEST_CASE("plan_probe: the sbatch script, its steps and their quoting") {
  ProbeRequest r = probe_request("dgx[001-008]");
  r.out_dir = "/shared/it's here/";
  r.partition = "gpu";
  r.account = "ops";
  r.fabric_files = {"/fabrics/a b.topo"};
  r.name_map = "/fabrics/map";
  const ProbePlan p = plan_probe(four_sus(), r);
  const std::string& s = p.script;
  CHECK(p.out_dir == "/shared/it's here");
  CHECK(s.rfind("#!/bin/sh\n# slurmtopo ", 0) == 0);
  for (const std::string line : {"#SBATCH --job-name=slurmtopo-probe\n", "#SBATCH --nodelist=dgx[001-008]\n",
                                 "#SBATCH --nodes=8\n", "#SBATCH --ntasks-per-node=8\n", "#SBATCH --gpus-per-node=8\n",
                                 "#SBATCH --exclusive\n", "#SBATCH --partition=gpu\n", "#SBATCH --account=ops\n",
                                 "#SBATCH --time=01:00:00\n", "#SBATCH --output=slurmtopo-probe-%j.log\n",
                                 "mkdir -p '/shared/it'\\''s here'\n"}) {
    CAPTURE(line);
    CHECK(s.find(line) != std::string::npos);
  }
  // Every #SBATCH line comes before the first command, or sbatch ignores it.
  CHECK(s.rfind("#SBATCH") < s.find("\nmkdir"));
  CHECK(s.find("\nsrun --nodes=4 --ntasks=32 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix -w 'dgx[001-004]' "
               "'--output=/shared/it'\\''s here/01-group-su1.out' env NCCL_DEBUG=INFO "
               "NCCL_DEBUG_SUBSYS=INIT,ENV,NET,GRAPH all_reduce_perf -b 16M -e 8G -f 2 -g 1 || true\n") !=
        std::string::npos);
  CHECK(s.find("\nsrun --nodes=2 --ntasks=16 --ntasks-per-node=8 --gpus-per-node=8 --mpi=pmix -w 'dgx[001,005]' ") !=
        std::string::npos);
  // One step a placement, in order, none stopping the rest.
  size_t at = 0;
  for (const auto& pl : p.placements) {
    const size_t step = s.find("/" + pl.name + ".out' ", at);
    REQUIRE(step != std::string::npos);
    CHECK(s.find(" || true\n", step) < s.find("\nsrun ", step));
    at = step;
  }
  // It ends by saying what to run next, quoted so that it can be pasted.
  const std::string report = "slurmtopo report --fabric '/fabrics/a b.topo' --node-name-map /fabrics/map --measured '/shared/it'\\''s here' -o "
                             "'/shared/it'\\''s here/report.html'";
  CHECK(s.find("#   " + report + "\n") != std::string::npos);
  CHECK(s.ends_with("printf '%s\\n' " + shell_quote("slurmtopo probe: done, each step's output is in /shared/it's here; next:") +
                    " " + shell_quote("  " + report) + " " +
                    shell_quote("  (with --profile NAME or --nodes-dir DIR: the hardware each run is predicted on)") + "\n"));
  // Same input, same bytes.
  CHECK(plan_probe(four_sus(), r).script == s);
}

TEST_CASE("plan_probe: container options, no GPU, another MPI, another all_reduce_perf") {
  ProbeRequest r = probe_request("dgx[001-002]");
  r.container_image = "nvcr.io#nvidia/pytorch:24.05-py3";
  ProbePlan p = plan_probe(four_sus(), r);
  CHECK(p.script.find(" -w 'dgx[001-002]' '--container-image=nvcr.io#nvidia/pytorch:24.05-py3' "
                      "--output=/shared/probe/01-group-su1.out env NCCL_DEBUG=INFO ") != std::string::npos);
  // A command prefix, split into words, with NCCL's variables set inside the container.
  r.container_image.clear();
  r.container_exec = "apptainer exec --nv /images/nccl tests.sif";
  p = plan_probe(four_sus(), r);
  CHECK(p.script.find("--output=/shared/probe/01-group-su1.out apptainer exec --nv /images/nccl tests.sif env "
                      "NCCL_DEBUG=INFO ") != std::string::npos);
  r.container_image = "x.sqsh";
  CHECK_THROWS_WITH_AS(plan_probe(four_sus(), r), doctest::Contains("not both"), InputError);
  // No GPU: one task per node, nothing asked of the GPU scheduler; --mpi as given.
  r = probe_request("dgx[001-002]");
  r.gpus_per_node = 0;
  r.mpi = "none";
  r.all_reduce_perf = "/opt/nccl-tests/build/all_reduce_perf";
  p = plan_probe(four_sus(), r);
  CHECK(p.script.find("gpus-per-node") == std::string::npos);
  CHECK(p.script.find("#SBATCH --ntasks-per-node=1\n") != std::string::npos);
  CHECK(p.script.find("\nsrun --nodes=2 --ntasks=2 --ntasks-per-node=1 --mpi=none -w 'dgx[001-002]' ") !=
        std::string::npos);
  CHECK(p.script.find(" /opt/nccl-tests/build/all_reduce_perf -b 16M ") != std::string::npos);
  r.mpi.clear();
  CHECK(plan_probe(four_sus(), r).script.find("--mpi") == std::string::npos);
}

TEST_CASE("plan_probe: bad requests name the option") {
  ProbeRequest r = probe_request("");
  CHECK_THROWS_WITH_AS(plan_probe(four_sus(), r), doctest::Contains("--nodes: expected a hostlist"), InputError);
  r.nodes = "dgx[001-";
  CHECK_THROWS_WITH_AS(plan_probe(four_sus(), r), doctest::Contains("is not a hostlist"), InputError);
  r.nodes = "dgx[001-002],dgz016";
  CHECK_THROWS_WITH_AS(plan_probe(four_sus(), r),
                       doctest::Contains("--nodes: expected hosts of the fabric; `dgz016` is not in it (did you mean dgx016?)"),
                       InputError);
  r.nodes = "dgx001";
  r.out_dir.clear();
  CHECK_THROWS_WITH_AS(plan_probe(four_sus(), r), doctest::Contains("--output"), InputError);
  r = probe_request("dgx001");
  r.gpus_per_node = -1;
  CHECK_THROWS_WITH_AS(plan_probe(four_sus(), r), doctest::Contains("--gpus-per-node"), InputError);
}

TEST_CASE("the probe script, run by /bin/sh with a stand-in srun: every step runs and writes its output") {
  char tmpl[] = "/tmp/slurmtopo-probe-XXXXXX";
  const std::filesystem::path dir = mkdtemp(tmpl);
  std::filesystem::create_directories(dir / "bin");
  // A stand-in for srun (none here): records its -w list in the step's --output file, then
  // fails for one step, which must not stop the others.
  std::ofstream(dir / "bin" / "srun") << "#!/bin/sh\nfor a; do case $a in --output=*) out=${a#--output=};; esac; done\n"
                                         "w=; prev=; for a; do [ \"$prev\" = -w ] && w=$a; prev=$a; done\n"
                                         "echo \"hosts $w\" > \"$out\"\n"
                                         "case $out in *-rails.out) exit 1;; esac\n";
  std::filesystem::permissions(dir / "bin" / "srun", std::filesystem::perms::owner_all);
  ProbeRequest r = probe_request("dgx[001-016]");
  r.out_dir = (dir / "out dir").string();
  const ProbePlan p = plan_probe(four_sus(), r);
  write_probe_script(p);
  CHECK(read_file(p.script_path) == p.script);
  CHECK(probe_written_text(p).find("slurmtopo probe: wrote " + p.script_path + ": 9 all_reduce_perf steps on 16 hosts\n") == 0);
  const std::string cmd = "cd " + shell_quote(dir.string()) + " && PATH=" + shell_quote((dir / "bin").string()) +
                          ":/usr/bin:/bin /bin/sh " + shell_quote(p.script_path) + " > " + shell_quote((dir / "log").string());
  REQUIRE(std::system(cmd.c_str()) == 0);
  for (const auto& s : p.placements) {
    CAPTURE(s.name);
    REQUIRE(std::filesystem::exists(s.output));
    CHECK(read_file(s.output) == "hosts " + s.hostlist + "\n");
  }
  CHECK(read_file((dir / "log").string()).find("slurmtopo probe: done") == 0);
  std::filesystem::remove_all(dir);
}
