// `slurmtopo help CMD...`, `slurmtopo completion bash|zsh` and the "did you mean" line, all read
// from the parser's own tree of commands and options, so they cannot drift from it.
#include "cli/help_command.h"

#include <algorithm>
#include <iostream>
#include <memory>

#include "base/base.h"
#include "cli/command_tree.h"
#include "cli/completion.h"
#include "cli/exit_status.h"
#include "cli/option_values.h"
#include "cli/options_table.h"

namespace slurmtopo::cli {

namespace {

std::vector<std::string> option_names(CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* o : app.get_options()) {
    for (const auto& l : o->get_lnames()) out.push_back("--" + l);
    for (const auto& s : o->get_snames()) out.push_back("-" + s);
  }
  return out;
}

// The command `words` names below `app`; InputError (with the nearest name) for a wrong one.
CLI::App* find_command(CLI::App& app, const std::vector<std::string>& words) {
  CLI::App* at = &app;
  for (const std::string& w : words) {
    CLI::App* next = nullptr;
    std::vector<std::string> names;
    for (CLI::App* sub : visible_subcommands(*at)) {
      names.push_back(sub->get_name());
      if (sub->get_name() == w) next = sub;
    }
    if (!next) {
      const std::string near = nearest_word(w, names);
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      throw InputError("help", 0,
                       "a command of `slurmtopo " + command_path(at) + (command_path(at).empty() ? "" : " ") + "...` (" +
                           (known.empty() ? "it has none" : known) + "), not '" + w + "'" +
                           (near.empty() ? "" : "; did you mean " + near + "?"));
    }
    at = next;
  }
  return at;
}

// Options renamed so that one name means one thing (issue 26): the old spelling is refused with
// the new one, in a command that has the new one. `--topology` stays where it is the file Slurm
// uses (place, report); whatif's edit is `--replace-topology`.
const std::vector<std::pair<std::string, std::string>> kRenamed = {
    {"--force", "--allow-missing"},
    {"--out", "--output"},
    {"--topology", "--replace-topology"},
};

// The option a mistyped `typed` was meant to be, among `candidates`. A single letter (-n) is
// near only the same letter in the other case (-N): any two letters are one edit apart.
std::string nearest_option(const std::string& typed, const std::vector<std::string>& candidates) {
  for (const auto& [old_name, new_name] : kRenamed)
    if (typed == old_name && std::find(candidates.begin(), candidates.end(), new_name) != candidates.end())
      return new_name;
  if (typed.size() == 2 && typed[0] == '-') {
    for (const auto& c : candidates)
      if (c.size() == 2 && c[0] == '-' && edit_distance(typed, c) == 0) return c;
    return "";
  }
  return nearest_word(typed, candidates);
}

}  // namespace

void add_help_commands(CLI::App& app) {
  auto words = std::make_shared<std::vector<std::string>>();
  CLI::App* help = app.add_subcommand("help", "Print the help of a command: slurmtopo help emit topology");
  help->add_option("command", *words, "the command, as typed after slurmtopo");
  help->callback([&app, help, words] {
    if (help->got_subcommand("options")) return;
    // What `slurmtopo WORDS... --help` prints (CLI11's formatter, the same usage line).
    CLI::App* target = find_command(app, *words);
    std::string name = app.get_name();
    for (const auto& w : *words) name += " " + w;
    std::cout << target->get_formatter()->make_help(target, name, CLI::AppFormatMode::Normal);
  });

  // Hidden: docs/options.md, every option of every command.
  auto markdown = std::make_shared<bool>(false);
  CLI::App* table = help->add_subcommand("options", "every option of every command as one table")->group("");
  table->add_flag("--markdown", *markdown, "as Markdown (the only form)")->required();
  table->callback([&app, markdown] { std::cout << options_markdown(app); });

  auto shell = std::make_shared<std::string>();
  CLI::App* completion = app.add_subcommand("completion", "Print the shell completion script (bash or zsh)");
  completion->add_option("shell", *shell, "the shell: bash or zsh")->required()->transform(one_of({"bash", "zsh"}, true));
  completion->footer(plain_exit_status() + "\n" +
                     examples_text({{"source <(slurmtopo completion bash)", "complete slurmtopo in this bash"},
                                    {"slurmtopo completion zsh > ~/.zfunc/_slurmtopo",
                                     "for zsh (with ~/.zfunc in $fpath, before compinit)"}}));
  completion->callback([&app, shell] { std::cout << (*shell == "zsh" ? zsh_completion(app) : bash_completion(app)); });
}

std::string did_you_mean(CLI::App& app) {
  CLI::App* deepest = &app;
  for (auto subs = deepest->get_subcommands(); !subs.empty(); subs = deepest->get_subcommands()) deepest = subs.front();
  for (const std::string& word : app.remaining(true)) {
    std::vector<std::string> candidates;
    std::string what = "command";
    std::string typed = word;
    if (word.starts_with("-")) {
      what = "option";
      typed = word.substr(0, word.find('='));
      for (CLI::App* a = deepest; a; a = a->get_parent())
        for (const auto& n : option_names(*a)) candidates.push_back(n);
    } else {
      for (CLI::App* sub : visible_subcommands(*deepest)) candidates.push_back(sub->get_name());
      if (candidates.empty()) continue;  // a stray value, not a command
    }
    const std::string near = what == "option" ? nearest_option(typed, candidates) : nearest_word(typed, candidates);
    const std::string where = command_path(deepest).empty() ? "" : " of `slurmtopo " + command_path(deepest) + "`";
    for (const auto& [old_name, new_name] : kRenamed)
      if (typed == old_name && near == new_name) return "option '" + old_name + "'" + where + " is now " + new_name;
    if (!near.empty()) return "unknown " + what + " '" + typed + "'" + where + "; did you mean " + near + "?";
    if (what == "command") {
      std::string known;
      for (const auto& n : candidates) known += (known.empty() ? "" : ", ") + n;
      return "unknown command '" + typed + "'" + where + "; the commands are " + known;
    }
    return "unknown option '" + typed + "'" + where + "; see slurmtopo help " + command_path(deepest);
  }
  return "";
}

}  // namespace slurmtopo::cli
