#include "simulate/whatif/whatif_sbatch.h"

#include <filesystem>
#include <vector>

#include "base/input_error.h"
#include "base/shell_quote.h"
#include "base/version.h"

namespace slurmtopo {

namespace {

// For a double-quoted bash string: what bash would otherwise expand.
std::string double_quote_safe(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '$' || c == '`' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string absolute(const std::string& path) { return std::filesystem::absolute(path).lexically_normal().string(); }

// The run's own options again, paths made absolute, for the job array's command line.
std::string run_arguments(const WhatifArguments& o) {
  std::vector<std::string> a;
  for (const auto& f : o.inputs.fabric_files) a.insert(a.end(), {"--fabric", absolute(f)});
  if (!o.inputs.name_map.empty()) a.insert(a.end(), {"--node-name-map", absolute(o.inputs.name_map)});
  if (!o.inputs.site_config.empty()) a.insert(a.end(), {"--config", absolute(o.inputs.site_config)});
  for (const auto& f : o.inputs.counter_files) a.insert(a.end(), {"--counters", absolute(f)});
  const bool file = o.profile.find('/') != std::string::npos || o.profile.ends_with(".yaml") || o.profile.ends_with(".yml");
  a.insert(a.end(), {"--profile", file ? absolute(o.profile) : o.profile});
  auto opt = [&](const char* name, const std::string& v) {
    if (!v.empty()) a.insert(a.end(), {name, v});
  };
  opt("--nodes", o.nodes);
  if (!o.slurm_conf.empty()) opt("--slurm-conf", absolute(o.slurm_conf));
  opt("--weights", o.weights);
  opt("--busy", o.busy);
  opt("-N", o.sizes);
  a.insert(a.end(), {"--size", o.size, "--routing", o.routing, "--seed", std::to_string(o.seed), "--samples",
                     std::to_string(o.samples)});
  // As given; else each shard resolves the release as this run did (the cluster's own Slurm).
  if (o.release.how.rfind("--slurm-version ", 0) == 0) opt("--slurm-version", to_string(o.release.release));
  opt("--topology-param", o.topology_param);
  opt("--drain", o.drain);
  for (const auto& s : o.drain_switches) opt("--drain-switch", s);
  for (const auto& c : o.remove_cables) opt("--remove-cable", c);
  if (o.drain_errored) a.push_back("--drain-errored");  // each shard finds the same cables in the same counters
  if (o.add_spines) opt("--add-spines", std::to_string(o.add_spines));
  if (!o.topology.empty()) opt("--replace-topology", absolute(o.topology));
  if (!o.workload.empty())
    a.insert(a.end(), {"--workload", absolute(o.workload), "--cpus-per-node", std::to_string(o.cpus_per_node)});
  if (o.synthetic) opt("--synthetic", std::to_string(o.synthetic));
  a.insert(a.end(), {"--bf-max-job-test", std::to_string(o.max_job_test)});
  std::string out;
  for (const auto& s : a) out += " " + shell_quote(s);
  return out;
}

std::string script(const WhatifArguments& o, int shards, bool json, const std::string& exe) {
  const std::string n = std::to_string(shards);
  const std::string shard_cmd = shell_quote(exe) + " whatif" + run_arguments(o) + " --shard \"$SLURM_ARRAY_TASK_ID/" + n +
                                "\" -o \"$out-shard-$SLURM_ARRAY_TASK_ID.json\"";
  std::string files;
  for (int i = 0; i < shards; ++i) files += " \"$out-shard-" + std::to_string(i) + ".json\"";
  const std::string merge_cmd = shell_quote(exe) + " whatif merge" + files + (json ? " --json" : "") +
                                " -o \"$out." + (json ? "json" : "txt") + "\"";
  std::string s;
  s += "#!/bin/bash\n";
  s += "# slurmtopo " + slurmtopo_version() + " whatif in " + n + " shards through Slurm, then merged. Run it with bash (not sbatch):\n";
  s += "# it submits a job array of " + n + " tasks and a merge job that waits for them. The result is\n";
  s += "# $WHATIF_OUT." + std::string(json ? "json" : "txt") +
       " (default whatif." + (json ? "json" : "txt") + ") in the directory it is run from.\n";
  s += "set -euo pipefail\n";
  s += "export out=\"${WHATIF_OUT:-whatif}\"\n";
  s += "array=$(sbatch --parsable --job-name=whatif --array=0-" + std::to_string(shards - 1) +
       " --cpus-per-task=2 --output=\"$out-shard-%a.log\" \\\n";
  s += "  --wrap=\"" + double_quote_safe(shard_cmd) + "\")\n";
  s += "sbatch --parsable --job-name=whatif-merge --dependency=\"afterok:${array%%;*}\" --output=\"$out-merge.log\" \\\n";
  s += "  --wrap=\"" + double_quote_safe(merge_cmd) + "\"\n";
  return s;
}

}  // namespace

std::string whatif_sbatch_script(const WhatifArguments& args, int shards, bool json, const std::string& exe) {
  if (args.inputs.fabric_files.empty()) throw InputError("whatif", 0, "expected --fabric (the predicted busbw needs it)");
  if (args.profile.empty()) throw InputError("whatif", 0, "expected --profile (a shipped name or a YAML file)");
  if (!args.shard.empty()) throw InputError("--sbatch", 0, "expected either --sbatch N or --shard i/N, not both");
  return script(args, shards, json, exe);
}

}  // namespace slurmtopo
