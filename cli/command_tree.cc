#include "cli/command_tree.h"

namespace slurmtopo::cli {

std::vector<CLI::App*> visible_subcommands(CLI::App& app) {
  std::vector<CLI::App*> out;
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    if (!sub->get_name().empty() && !sub->get_group().empty()) out.push_back(sub);
  return out;
}

std::string command_path(const CLI::App* app) {
  std::string path;
  for (; app && app->get_parent(); app = app->get_parent()) path = app->get_name() + (path.empty() ? "" : " " + path);
  return path;
}

std::vector<CLI::App*> all_commands(CLI::App& app) {
  std::vector<CLI::App*> out{&app};
  for (CLI::App* sub : visible_subcommands(app))
    for (CLI::App* c : all_commands(*sub)) out.push_back(c);
  return out;
}

}  // namespace slurmtopo::cli
