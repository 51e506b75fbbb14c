// `slurmtopo collect --nodes HOSTLIST --out DIR [--dry-run]`: prints or runs the srun step
// that collect_plan builds, then says which nodes did not deliver an export.
#include "cli/collect_command.h"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/commands.h"
#include "discover/discover.h"
#include "slurm/slurm.h"

extern char** environ;

namespace slurmtopo::cli {
namespace {

// srun without a shell: the argv is exactly what --dry-run printed.
int run(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  const int err = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (err != 0) throw InputError("srun", 0, std::string("cannot start srun: ") + std::strerror(err) +
                                                  " (is this a Slurm submit host? try --dry-run)");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

void add_collect_command(CLI::App& app) {
  struct Options {
    CollectRequest request;
    bool dry_run = false;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand("collect", "Export every node's hwloc XML into one directory with one srun step");
  cmd->add_option("--nodes", o->request.nodes, "hostlist of the nodes, e.g. gpu[001-128]")->required();
  cmd->add_option("--out", o->request.out_dir, "directory on a shared filesystem for <node>.xml")->required();
  cmd->add_option("-p,--partition", o->request.partition, "partition for the step");
  cmd->add_option("-A,--account", o->request.account, "account for the step");
  cmd->add_option("-t,--time", o->request.time_limit, "time limit for the step")->capture_default_str();
  cmd->add_option("--srun-arg", o->request.extra_srun_args, "extra srun argument, e.g. --srun-arg=--gres=gpu:8 (repeatable)");
  cmd->add_flag("--dry-run", o->dry_run, "print the srun command and an equivalent sbatch script; run nothing");
  cmd->callback([o] {
    const CollectPlan plan = plan_collect(o->request);
    if (o->dry_run) {
      std::cout << "# srun command:\n" << plan.srun_command << "\n\n# or as a batch job (sbatch):\n"
                << plan.sbatch_script;
      return;
    }
    std::error_code ec;
    std::filesystem::create_directories(plan.out_dir, ec);
    if (ec) throw InputError(plan.out_dir, 0, "cannot create the output directory: " + ec.message());
    const int code = run(plan.srun_argv);
    std::vector<std::string> missing;
    for (size_t i = 0; i < plan.hosts.size(); ++i)
      if (!std::filesystem::exists(plan.expected_files[i])) missing.push_back(plan.hosts[i]);
    std::cout << plan.hosts.size() - missing.size() << " of " << plan.hosts.size() << " exports in " << plan.out_dir
              << "\n";
    if (!missing.empty()) {
      std::cerr << "slurmtopo: no export from " << missing.size() << " node(s): " << compress_hostlist(missing)
                << (code ? " (srun exited " + std::to_string(code) + ")" : "") << "\n";
      throw Exit{1};
    }
    if (code != 0) throw Exit{code};
  });
}

}  // namespace slurmtopo::cli
