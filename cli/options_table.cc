#include "cli/options_table.h"

#include <sstream>

#include "cli/command_tree.h"

namespace slurmtopo::cli {

namespace {

// A table cell: one line, no column break.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string names(const CLI::Option* o) {
  if (o->get_positional()) return o->get_name(true);
  std::string out;
  for (const auto& s : o->get_snames()) out += (out.empty() ? "-" : ", -") + s;
  for (const auto& l : o->get_lnames()) out += (out.empty() ? "--" : ", --") + l;
  return out;
}

std::string default_of(const CLI::Option* o) {
  if (o->get_required()) return "required";
  if (o->get_items_expected_max() == 0) return "off";
  return o->get_default_str().empty() ? "" : "`" + cell(o->get_default_str()) + "`";
}

void rows(CLI::App& app, std::ostringstream& s) {
  const std::string command = "slurmtopo" + (command_path(&app).empty() ? "" : " " + command_path(&app));
  for (const CLI::Option* o : app.get_options()) {
    if (o == app.get_help_ptr() || o == app.get_help_all_ptr()) continue;
    s << "| `" << command << "` | `" << names(o) << "` | " << cell(o->get_description()) << " | " << default_of(o)
      << " |\n";
  }
  for (CLI::App* sub : visible_subcommands(app)) rows(*sub, s);
}

}  // namespace

std::string options_markdown(CLI::App& app) {
  std::ostringstream s;
  s << "# slurmtopo's options\n\n"
       "Every option of every command, generated from the parser by `slurmtopo help options --markdown`\n"
       "(do not edit: `tests/cli/options_table_test.cc` fails when this file is stale). An option's\n"
       "meaning is its help up to the first `: `; what follows is the command's detail. One name means\n"
       "one thing in every command. Exit codes: [exit-codes.md](exit-codes.md).\n\n"
       "| command | option | meaning | default |\n"
       "|---|---|---|---|\n";
  rows(app, s);
  return s.str();
}

}  // namespace slurmtopo::cli
