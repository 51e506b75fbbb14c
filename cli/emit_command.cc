// `slurmtopo emit topology` (and the `emit` group: gres and nodes are in emit_gres_command.cc).
// Options → emit_topology (emit/topology_emit.h) → report_emit_topology.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/exit_status.h"
#include "emit/emit.h"
#include "report/report.h"

namespace slurmtopo::cli {

namespace {

// The header says how to regenerate the file: the command as given, minus -o.
std::string command_line(const EmitTopologyRequest& r, const std::string& slurm_version) {
  std::string s = "slurmtopo emit topology";
  for (const auto& f : r.inputs.fabric_files) s += " --fabric " + f;
  if (!r.inputs.name_map.empty()) s += " --node-name-map " + r.inputs.name_map;
  if (!r.inputs.site_config.empty()) s += " --config " + r.inputs.site_config;
  if (!r.nodes.empty()) s += " --nodes '" + r.nodes + "'";
  if (!r.slurm_conf.empty()) s += " --slurm-conf " + r.slurm_conf;
  if (r.format != "conf") s += " --format " + r.format;
  if (r.plugin != "tree") s += " --plugin " + r.plugin;
  if (!slurm_version.empty()) s += " --slurm-version " + slurm_version;
  if (!r.nvlink_domains.empty()) s += " --nvlink-domains " + r.nvlink_domains;
  if (!r.block_sizes.empty()) s += " --block-sizes " + r.block_sizes;
  return s;
}

}  // namespace

void add_emit_command(CLI::App& app) {
  CLI::App* emit = app.add_subcommand("emit", "Write what Slurm reads, checked against Slurm's rules");
  emit->require_subcommand(1);
  add_emit_gres_commands(*emit);
  auto r = std::make_shared<EmitTopologyRequest>();
  auto slurm_version = std::make_shared<std::string>();
  CLI::App* topo = emit->add_subcommand("topology", "topology.conf (topology/tree or topology/block) or topology.yaml");
  topo->footer(exit_status_text("written (or printed); warnings on stderr",
                                "bad input, a file slurmctld would refuse, or nodes missing beyond the 5 % guard "
                                "(without --allow-missing): nothing written") +
               "\n" +
               examples_text({{"slurmtopo emit topology --fabric fabric.topo --slurm-conf /etc/slurm/slurm.conf "
                               "-o /etc/slurm/topology.conf",
                               "topology/tree for Slurm's nodes, checked as slurmctld reads it; the old file kept as .bak"},
                              {"slurmtopo emit topology --fabric fabric.topo --diff /etc/slurm/topology.conf",
                               "what would change against the file in service"},
                              {"slurmtopo emit topology --plugin block --nvlink-domains nodes/ -o topology.conf",
                               "topology/block from NVLink domains (collect's HOST.fabric.csv files)"}}));
  add_fabric_options(*topo, r->inputs, FabricOption::Optional,
                     "required unless --nvlink-domains gives the blocks");
  add_topology_form_options(*topo, {&r->format, &r->plugin, &r->nvlink_domains});
  add_slurm_version_option(*topo, *slurm_version, "the forms the file may use");
  auto* nodes = add_nodes_option(*topo, r->nodes, "restrict the file to these Slurm nodes");
  add_slurm_conf_option(*topo, r->slurm_conf, "restrict to its NodeName lines")->excludes(nodes);
  topo->add_option("--block-sizes", r->block_sizes,
                   "BlockSizes to write instead of the chosen ones (N,2N,4N...), checked as slurmctld reads them")
      ->type_name("LIST");
  topo->add_option("--diff", r->diff, "print what changes against this topology.conf")->check(CLI::ExistingFile);
  add_output_option(*topo, r->output, "write here (atomically, keeping .bak)");
  add_allow_missing_option(*topo, r->force,
                           "write even if more than 5 % of Slurm's nodes are under no switch, or the file drops more "
                           "than 5 % of the current file's nodes");
  topo->callback([r, slurm_version] {
    r->command = command_line(*r, *slurm_version);
    r->release = resolve_release(*slurm_version);
    const EmitTopologyResult result = emit_topology(*r);
    report_emit_topology(result, std::cout, std::cerr);
    if (result.exit_code()) throw Exit{result.exit_code()};
  });
}

}  // namespace slurmtopo::cli
