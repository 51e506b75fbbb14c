// Reads slurm.conf the way Slurm's own config parser cuts it into lines (comments, `\`
// continuations, Include), but keeps only what slurmtopo needs: the NodeName lines.
#include "slurm/slurm_conf.h"

#include <glob.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <unordered_set>

#include "base/files.h"
#include "base/input_error.h"
#include "base/words.h"
#include "slurm/config_lines.h"
#include "slurm/hostlist.h"
#include "slurm/node_names.h"

namespace slurmtopo {
namespace {

namespace fs = std::filesystem;


std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool has_glob_chars(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

class Loader {
 public:
  SlurmConf conf;
  std::string defaults;  // NodeName=DEFAULT lines so far

  void load(const fs::path& path) {
    const std::string file = path.string();
    const std::string text = read_file(file);
    stack_.push_back(fs::weakly_canonical(path));
    for (const SlurmConfLine& line : read_slurm_conf_lines(text)) handle(file, line);
    stack_.pop_back();
  }

 private:
  void handle(const std::string& file, const SlurmConfLine& line) {
    const std::string_view text = trim(line.text);
    if (text.empty()) return;
    if (text.size() >= 7 && iequals(text.substr(0, 7), "include") &&
        (text.size() == 7 || is_space(text[7]))) {
      include(file, line.number, trim(text.substr(7)));
      return;
    }
    // Slurm's key=value pattern allows blanks around `=`.
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos) return;
    const std::string_view key = trim(text.substr(0, eq));
    if (iequals(key, "ClusterName")) {
      cluster_name(text.substr(eq + 1));
      return;
    }
    if (!iequals(key, "NodeName")) return;
    std::string_view rest = text.substr(eq + 1);
    while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
    node_line(file, line.number, text, rest);
  }

  // slurmctld lower-cases the name (it keys the accounting database); a comment was already
  // cut off by read_slurm_conf_lines, quotes are Slurm's own.
  void cluster_name(std::string_view value) {
    value = trim(value);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    std::string name(value);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    conf.cluster_name = std::move(name);
  }

  void node_line(const std::string& file, int number, std::string_view text,
                 std::string_view rest) {
    std::string_view value;
    if (!rest.empty() && rest[0] == '"') {
      const size_t close = rest.find('"', 1);
      if (close == std::string_view::npos)
        throw InputError(file, number, "expected a closing `\"` after `NodeName=\"`");
      value = rest.substr(1, close - 1);
    } else {
      size_t end = 0;
      while (end < rest.size() && !is_space(rest[end])) ++end;
      value = rest.substr(0, end);
    }
    // Slurm would read `NodeName= CPUs=4` as a node called "CPUs=4".
    if (value.empty() || value.find('=') != std::string_view::npos)
      throw InputError(file, number, "expected `NodeName=<hostlist>`");
    if (iequals(value, "DEFAULT")) {
      defaults += std::string(text) + "\n";
      return;
    }
    SlurmNodeLine node{file, number, {}, std::string(text), defaults};
    node.names = expand_hostlist_at(value, file, number, "expected `NodeName=<hostlist>`");
    for (const std::string& name : node.names)
      if (!valid_slurm_node_name(name))
        throw InputError(file, number,
                         "expected Slurm node names (letters, digits, '-', '_', '.'; at most 64 characters), "
                         "not `" + name + "`");
    conf.node_lines.push_back(std::move(node));
  }

  void include(const std::string& file, int number, std::string_view rest) {
    size_t end = 0;
    while (end < rest.size() && !is_space(rest[end])) ++end;
    const std::string target(rest.substr(0, end));
    if (target.empty()) throw InputError(file, number, "expected `Include <path>`");
    fs::path path(target);
    if (path.is_relative()) path = fs::path(file).parent_path() / path;
    path = path.lexically_normal();

    std::vector<fs::path> files;
    if (has_glob_chars(target)) {
      // A pattern that matches nothing includes nothing, like an empty nodes.d/.
      glob_t matches{};
      const int rc = glob(path.c_str(), 0, nullptr, &matches);
      for (size_t i = 0; rc == 0 && i < matches.gl_pathc; ++i) files.emplace_back(matches.gl_pathv[i]);
      globfree(&matches);
      if (rc != 0 && rc != GLOB_NOMATCH)
        throw InputError(file, number, "expected `Include " + target + "` to be readable");
    } else {
      files.push_back(path);
    }
    for (const fs::path& child : files) {
      std::error_code error;  // a name longer than PATH_MAX, a component that is a file, ...
      const fs::path canonical = fs::weakly_canonical(child, error);
      if (error)
        throw InputError(file, number, "expected `Include " + target + "` to name a readable file: " +
                                           child.string() + ": " + error.message());
      for (const fs::path& open : stack_) {
        if (open != canonical) continue;
        std::string chain;
        for (const fs::path& p : stack_) chain += p.string() + " -> ";
        throw InputError(file, number,
                         "expected an Include that does not lead back to itself: " + chain +
                             canonical.string());
      }
      std::ifstream probe(child);
      if (!probe)
        throw InputError(file, number, "expected `Include " + target + "` to name a readable file: " +
                                           child.string() + ": " + std::strerror(errno));
      load(child);
    }
  }

  std::vector<fs::path> stack_;  // files being read, outermost first
};

}  // namespace

std::vector<std::string> SlurmConf::nodes() const {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  for (const SlurmNodeLine& line : node_lines)
    for (const std::string& name : line.names)
      if (seen.insert(name).second) out.push_back(name);
  return out;
}

SlurmConf load_slurm_conf(const std::string& path) {
  Loader loader;
  loader.load(path);
  // Every use of a slurm.conf here is "the nodes Slurm knows": without any, an emit would
  // silently write a topology for nobody.
  if (loader.conf.node_lines.empty())
    throw InputError(path, 0, "no NodeName lines (Include followed): expected the nodes Slurm knows, "
                              "e.g. `NodeName=gpu[001-064] ...`");
  return std::move(loader.conf);
}

}  // namespace slurmtopo
