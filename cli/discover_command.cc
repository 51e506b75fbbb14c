// `slurmtopo discover fabric`: cli/discover_fabric_command.cc.
// `slurmtopo discover node`: one node's NodeInventory (live hwloc or an XML export) as JSON.
// `slurmtopo discover classes`: hosts from --nodes-dir / --node-class grouped into classes.
// Also registers `slurmtopo collect` (cli/collect_command.cc).
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/collect_command.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "discover/discover.h"
#include "report/report.h"
#include "slurm/slurm.h"

namespace slurmtopo::cli {
namespace {

void add_node(CLI::App& discover) {
  struct Options {
    std::string xml, hostname, output;
  };
  auto o = std::make_shared<Options>();
  CLI::App* cmd = discover.add_subcommand("node", "One node as JSON: this machine, or an hwloc XML export");
  cmd->add_option("--xml", o->xml, "hwloc XML export (`lstopo --of xml --whole-io`); default: this machine")
      ->check(CLI::ExistingFile);
  cmd->add_option("--hostname", o->hostname, "node name to record (default: the export's HostName, else the file name)");
  add_output_option(*cmd, o->output, "write the JSON here (atomically)");
  cmd->footer(plain_exit_status() + "\n" +
              examples_text({{"slurmtopo discover node -o $(hostname).json", "this machine, through hwloc"},
                             {"slurmtopo discover node --xml gpu001.xml", "an export `lstopo --of xml --whole-io` wrote"}}));
  cmd->callback([o] {
    NodeInventory node = o->xml.empty() ? discover_local_node() : load_node_xml(o->xml, o->hostname);
    if (!o->hostname.empty()) node.hostname = o->hostname;
    std::cerr << warning_lines(node.hostname, node.warnings);
    const std::string json = node_to_json(node);
    write_output(o->output, json);
  });
}

void add_classes(CLI::App& discover) {
  auto o = std::make_shared<NodeInputs>();
  CLI::App* cmd = discover.add_subcommand("classes", "Group hosts with the same hardware into node classes");
  cmd->footer(plain_exit_status() + "\n" +
              examples_text({{"slurmtopo discover classes --nodes-dir nodes/", "the node classes, and the hosts in each"}}));
  add_node_options(*cmd, *o);
  add_allow_missing_option(*cmd, o->sources.allow_missing, "a --nodes host without a file is a warning, not an error");
  cmd->callback([o] {
    const NodeSet set = load_node_set(o->sources, o->nodes);
    std::cerr << warning_lines("", set.warnings);
    std::cout << node_classes_text(set);
  });
}

}  // namespace

void add_discover_command(CLI::App& app) {
  CLI::App* discover = app.add_subcommand(
      "discover", "What is there: the fabric swept live, nodes through hwloc, node classes");
  discover->require_subcommand(1);
  add_discover_fabric_command(*discover);
  add_discover_counters_command(*discover);
  add_node(*discover);
  add_classes(*discover);
  add_collect_command(app);
}

}  // namespace slurmtopo::cli
