#include "discover/collect_run.h"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/exit_codes.h"
#include "base/input_error.h"
#include "base/text.h"
#include "slurm/hostlist.h"

extern char** environ;

namespace slurmtopo {

namespace {

int run(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  const int err = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (err != 0)
    throw InputError("srun", 0, std::string("cannot start srun: ") + std::strerror(err) +
                                    " (is this a Slurm submit host? try --dry-run)");
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

CollectOutcome run_collect(const CollectPlan& plan) {
  std::error_code ec;
  std::filesystem::create_directories(plan.out_dir, ec);
  if (ec) throw InputError(plan.out_dir, 0, "cannot create the output directory: " + ec.message());
  CollectOutcome out;
  out.srun_exit = run(plan.srun_argv);
  if (!plan.container_argv.empty()) out.container_exit = run(plan.container_argv);
  for (size_t i = 0; i < plan.hosts.size(); ++i)
    if (!std::filesystem::exists(plan.expected_files[i])) out.missing.push_back(plan.hosts[i]);
  out.delivered = plan.hosts.size() - out.missing.size();
  for (const auto& f : plan.fabric_files) out.fabric_reports += std::filesystem::exists(f);
  for (const auto& f : plan.probe_files) out.probes += std::filesystem::exists(f);
  for (const auto& f : plan.container_probe_files) out.container_probes += std::filesystem::exists(f);
  return out;
}

CollectReport collect_report(const CollectPlan& plan, const CollectOutcome& o) {
  CollectReport r;
  const std::string of = " of " + std::to_string(plan.hosts.size());
  r.out = std::to_string(o.delivered) + of + " exports in " + plan.out_dir + "\n";
  if (o.fabric_reports)
    r.out += std::to_string(o.fabric_reports) + of + " NVLink fabric reports (nvidia-smi) in " + plan.out_dir +
             ", for emit topology --nvlink-domains\n";
  r.out += std::to_string(o.probes) + of + " node probe records (<node>.probe)";
  if (!plan.container_probe_files.empty())
    r.out += ", " + std::to_string(o.container_probes) + of + " from inside the container (<node>.container.probe)";
  r.out += "; inspect and report --nodes-dir read them\n";
  if (!o.missing.empty())
    r.err = "slurmtopo: no export from " + counted(o.missing.size(), "node", "nodes") + ": " + compress_hostlist(o.missing) +
            (o.srun_exit ? " (srun exited " + std::to_string(o.srun_exit) + ")" : "") + "\n";
  else if (o.srun_exit)
    r.err = "slurmtopo: srun exited " + std::to_string(o.srun_exit) + " (every export arrived)\n";
  if (o.container_exit)
    r.err += "slurmtopo: the container step (--container-image) exited " + std::to_string(o.container_exit) + ": " +
             std::to_string(o.container_probes) + " of " + std::to_string(plan.hosts.size()) +
             " container probe records arrived\n";
  r.exit_code = !o.missing.empty() || o.srun_exit || o.container_exit ? exit_code::kAttention : exit_code::kOk;
  return r;
}

std::string collect_dry_run_text(const CollectPlan& plan) {
  std::string out = "# srun command:\n" + plan.srun_command + "\n";
  if (!plan.container_command.empty())
    out += "\n# then, the node probe inside the container (Pyxis):\n" + plan.container_command + "\n";
  return out + "\n# or as a batch job (sbatch):\n" + plan.sbatch_script;
}

}  // namespace slurmtopo
