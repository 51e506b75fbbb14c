// The srun step `slurmtopo collect` runs, and the task it runs on each node — executed here for
// real (without Slurm) so that what the nodes will write is known to load.
#include "discover/collect_plan.h"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/files.h"
#include "base/shell_quote.h"
#include "discover/collect_run.h"
#include "discover/node_probe.h"
#include "discover/node_probe_script.h"
#include "discover/node_set.h"
#include "discover/nvlink_domains.h"
#include "tests/discover/hwloc_test_support.h"
#include "tests/skip.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;
using V = std::vector<std::string>;

TEST_CASE("plan_collect: one srun step, one task per node, absolute output directory") {
  CollectRequest r;
  r.nodes = "gpu[003,001-002]";
  r.out_dir = "/shared/topo/";
  r.partition = "gpu";
  const CollectPlan p = plan_collect(r);
  CHECK(p.hosts == V{"gpu001", "gpu002", "gpu003"});
  CHECK(p.out_dir == "/shared/topo");
  CHECK(p.expected_files == V{"/shared/topo/gpu001.xml", "/shared/topo/gpu002.xml", "/shared/topo/gpu003.xml"});
  REQUIRE(p.srun_argv.size() > 8);
  CHECK(p.srun_argv[0] == "srun");
  CHECK(p.srun_argv[1] == "--job-name=slurmtopo-collect");
  CHECK(p.srun_argv[2] == "--nodelist=gpu[001-003]");
  CHECK(p.srun_argv[3] == "--nodes=3");
  CHECK(p.srun_argv[4] == "--ntasks=3");
  CHECK(p.srun_argv[5] == "--ntasks-per-node=1");
  CHECK(p.srun_argv[6] == "--partition=gpu");
  // The task: sh -c SCRIPT NAME OUTDIR PROBE CONTAINER_EXEC.
  const size_t n = p.srun_argv.size();
  CHECK(p.srun_argv[n - 7] == "/bin/sh");
  CHECK(p.srun_argv[n - 3] == "/shared/topo");
  CHECK(p.srun_argv[n - 2].rfind("# shellcheck", 0) == 0);  // the node probe
  CHECK(p.srun_argv[n - 1].empty());                         // no --container-exec
  CHECK(p.probe_files == V{"/shared/topo/gpu001.probe", "/shared/topo/gpu002.probe", "/shared/topo/gpu003.probe"});
  CHECK(p.container_probe_files.empty());
  const std::string& script = p.srun_argv[n - 5];
  CHECK(script.find("lstopo-no-graphics --of xml --whole-io --disallowed --force") != std::string::npos);
  CHECK(script.find("${SLURMD_NODENAME:-$(hostname -s)}") != std::string::npos);
  CHECK(script.find("mv -f") != std::string::npos);
  // Printed form is one shell line with the script single-quoted.
  CHECK(p.srun_command.rfind("srun --job-name=slurmtopo-collect '--nodelist=gpu[001-003]' --nodes=3 ", 0) == 0);
  CHECK(p.srun_command.find("/bin/sh -c 'set -e; n=\"${SLURMD_NODENAME") != std::string::npos);
  CHECK(p.srun_command.find("slurmtopo-collect /shared/topo") != std::string::npos);
}

TEST_CASE("plan_collect: the sbatch script") {
  CollectRequest r;
  r.nodes = "n[1-2]";
  r.out_dir = "/shared/it's here";
  r.account = "ops";
  r.extra_srun_args = {"--gres=gpu:4"};
  const CollectPlan p = plan_collect(r);
  const std::string& s = p.sbatch_script;
  CHECK(s.rfind("#!/bin/sh\n", 0) == 0);
  CHECK(s.find("#SBATCH --nodelist=n[1-2]\n") != std::string::npos);
  CHECK(s.find("#SBATCH --nodes=2\n") != std::string::npos);
  CHECK(s.find("#SBATCH --account=ops\n") != std::string::npos);
  CHECK(s.find("#SBATCH --time=00:10:00\n") != std::string::npos);
  CHECK(s.find("mkdir -p '/shared/it'\\''s here'\n") != std::string::npos);
  CHECK(s.find("\nsrun --ntasks-per-node=1 --gres=gpu:4 /bin/sh -c ") != std::string::npos);
  CHECK(s.find("slurmtopo discover classes --nodes-dir '/shared/it'\\''s here' --nodes 'n[1-2]'") !=
        std::string::npos);
}

TEST_CASE("plan_collect: bad requests") {
  CollectRequest r;
  r.out_dir = "/x";
  CHECK_THROWS_WITH_AS(plan_collect(r), doctest::Contains("--nodes"), InputError);
  r.nodes = "gpu[1-";
  CHECK_THROWS_WITH_AS(plan_collect(r), doctest::Contains("is not a hostlist"), InputError);
  r.nodes = "gpu1";
  r.out_dir = "";
  CHECK_THROWS_WITH_AS(plan_collect(r), doctest::Contains("--output"), InputError);
}

TEST_CASE("the collect task, run here as Slurm would run it on a node") {
  if (std::system("command -v lstopo-no-graphics >/dev/null 2>&1") != 0) {
    slurmtopo::testing::skip("lstopo-no-graphics is not installed (apt-get install hwloc)");
    return;
  }
  ScratchDir s;
  CollectRequest r;
  r.nodes = "testnode1";
  r.out_dir = s.dir.string();
  const CollectPlan p = plan_collect(r);
  // Everything after srun's own options: /bin/sh -c SCRIPT NAME DIR, with the variable srun sets.
  std::string cmd = "SLURMD_NODENAME=testnode1";
  for (size_t i = p.srun_argv.size() - 7; i < p.srun_argv.size(); ++i) cmd += " " + shell_quote(p.srun_argv[i]);
  REQUIRE(std::system(cmd.c_str()) == 0);
  REQUIRE(std::filesystem::exists(p.expected_files[0]));
  // No temp file left behind, and the result is what --nodes-dir reads.
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(s.dir)) files += e.is_regular_file();
  CHECK(files == 2);  // the export and the node probe's record
  REQUIRE(std::filesystem::exists(p.probe_files[0]));
  NodeSources src;
  src.nodes_dir = s.dir.string();
  src.expected_hosts = p.hosts;
  const NodeSet set = load_node_set(src);
  REQUIRE(set.nodes.size() == 1);
  CHECK(set.nodes[0].hostname == "testnode1");
  CHECK(set.nodes[0].cores_per_socket >= 1);
  // The probe's record came with it: this machine's, complete, named by Slurm's node name.
  REQUIRE(set.nodes[0].probe);
  CHECK(set.nodes[0].probe->complete);
  CHECK(set.nodes[0].probe->host == "testnode1");
  CHECK(set.nodes[0].probe->where == "host");
}

TEST_CASE("collect's task, run by /bin/sh: the hwloc export and, where nvidia-smi exists, the NVLink fabric report") {
  char tmpl[] = "/tmp/slurmtopo-collect-XXXXXX";
  const std::filesystem::path dir = mkdtemp(tmpl);
  std::filesystem::create_directories(dir / "bin");
  std::filesystem::create_directories(dir / "out");
  auto tool = [&](const std::string& name, const std::string& body) {
    std::ofstream(dir / "bin" / name) << "#!/bin/sh\n" << body;
    std::filesystem::permissions(dir / "bin" / name, std::filesystem::perms::owner_all);
  };
  // Stand-ins that write what the real tools write: lstopo the file named last, nvidia-smi
  // one CSV line per GPU.
  tool("lstopo-no-graphics", "for a; do last=\"$a\"; done; echo '<topology/>' > \"$last\"\n");
  tool("nvidia-smi", "echo '5e797fc6-0f46-421a-8724-0e102c0f723c, 32766'\necho '5e797fc6-0f46-421a-8724-0e102c0f723c, 32766'\n");
  CollectRequest r;
  r.nodes = "n7";
  r.out_dir = (dir / "out").string();
  const CollectPlan p = plan_collect(r);
  const size_t n = p.srun_argv.size();
  auto task = [&] {
    std::string cmd = "PATH=" + shell_quote((dir / "bin").string()) + ":/usr/bin:/bin SLURMD_NODENAME=n7";
    for (size_t i = n - 7; i < n; ++i) cmd += " " + shell_quote(p.srun_argv[i]);
    return std::system(cmd.c_str());
  };
  REQUIRE(task() == 0);
  CHECK(std::filesystem::exists(p.expected_files[0]));
  REQUIRE(p.fabric_files == std::vector<std::string>{r.out_dir + "/n7.fabric.csv"});
  const auto gpus = parse_nvidia_smi_fabric(read_file(p.fabric_files[0]), p.fabric_files[0]);
  CHECK(gpus.size() == 2);
  // A failing nvidia-smi leaves no report (and no temp file), and the export still counts.
  std::filesystem::remove(p.fabric_files[0]);
  tool("nvidia-smi", "echo 'Field \"fabric.clusterUuid\" is not a valid field to query.' >&2\nexit 2\n");
  CHECK(task() == 0);
  CHECK_FALSE(std::filesystem::exists(p.fabric_files[0]));
  size_t left = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir / "out")) left += e.path().string().find(".tmp.") != std::string::npos;
  CHECK(left == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("plan_collect: --container-image runs the node probe in a second step, inside the image (Pyxis)") {
  CollectRequest r;
  r.nodes = "gpu[001-002]";
  r.out_dir = "/shared/topo";
  r.extra_srun_args = {"--gres=gpu:8"};
  r.container_image = "nvcr.io#nvidia/pytorch:24.05-py3";
  const CollectPlan p = plan_collect(r);
  REQUIRE(p.container_argv.size() > 8);
  const size_t n = p.container_argv.size();
  CHECK(p.container_argv[0] == "srun");
  CHECK(p.container_argv[2] == "--nodelist=gpu[001-002]");
  // Each node's stdout is its record, written by srun outside the container (%N: the node).
  CHECK(std::find(p.container_argv.begin(), p.container_argv.end(),
                  "--container-image=nvcr.io#nvidia/pytorch:24.05-py3") != p.container_argv.end());
  CHECK(std::find(p.container_argv.begin(), p.container_argv.end(), "--output=/shared/topo/%N.container.probe") !=
        p.container_argv.end());
  CHECK(std::find(p.container_argv.begin(), p.container_argv.end(), "--gres=gpu:8") != p.container_argv.end());
  CHECK(p.container_argv[n - 5] == "/bin/sh");
  CHECK(p.container_argv[n - 3] == node_probe_script());
  CHECK(p.container_argv[n - 1] == "container");
  CHECK(p.container_probe_files ==
        V{"/shared/topo/gpu001.container.probe", "/shared/topo/gpu002.container.probe"});
  // The batch script has both steps; --dry-run prints both.
  CHECK(p.sbatch_script.find("\nsrun --ntasks-per-node=1 '--container-image=nvcr.io#nvidia/pytorch:24.05-py3' "
                             "--output=/shared/topo/%N.container.probe --gres=gpu:8 /bin/sh -c ") != std::string::npos);
  CHECK(collect_dry_run_text(p).find("# then, the node probe inside the container (Pyxis):\n" + p.container_command) !=
        std::string::npos);
  // One way into the container at a time.
  r.container_exec = "apptainer exec --nv train.sif";
  CHECK_THROWS_WITH_AS(plan_collect(r), doctest::Contains("not both"), InputError);
}

TEST_CASE("the node probe through srun --output: a failing nvidia-smi is recorded and the record still reads") {
  // What the container step's %N file receives: the probe run as that step runs it, stdout
  // and stderr to one file (srun's default), with an nvidia-smi that fails as on a node whose
  // driver is gone: its message stays in its section, its exit code is listed as missing.
  ScratchDir s;
  std::filesystem::create_directories(s.dir / "bin");
  std::ofstream(s.dir / "bin" / "nvidia-smi") << "#!/bin/sh\necho 'NVIDIA-SMI has failed' >&2\nexit 9\n";
  std::filesystem::permissions(s.dir / "bin" / "nvidia-smi", std::filesystem::perms::owner_all);
  const std::string out = (s.dir / "n1.container.probe").string();
  const std::string cmd = "PATH=" + shell_quote((s.dir / "bin").string()) + ":/usr/bin:/bin SLURMD_NODENAME=n1 /bin/sh -c " +
                          shell_quote(node_probe_script()) + " probe container >" + shell_quote(out) + " 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const NodeProbe p = parse_node_probe(read_file(out), out);
  CHECK(p.complete);
  CHECK(p.where == "container");
  CHECK(p.nvidia_smi.driver.empty());
  CHECK(read_file(out).find("[nvidia-smi]\nNVIDIA-SMI has failed\n[missing]") != std::string::npos);
  CHECK(std::find(p.missing.begin(), p.missing.end(), "nvidia-smi exit 9") != p.missing.end());
}
