#include "discover/refused_forms.h"

#include "base/words.h"
#include "discover/ibnetdiscover_noise.h"

namespace slurmtopo {
namespace {

// "Ca\t : 0x… ports 1 devid …" (ibnetdiscover -l/-H/-S/-R) or "Switch\t: 0x… ports 41 …"
// (ibswitches, ibhosts, ibrouters): a kind, a colon, a GUID, "ports".
bool is_node_list_line(std::string_view line) {
  for (std::string_view kind : {"Ca", "Switch", "Router"}) {
    if (!line.starts_with(kind) || line.size() == kind.size() || !is_blank_or_cr(line[kind.size()])) continue;
    std::string_view rest = trim_blanks(line.substr(kind.size()));
    if (!rest.starts_with(':')) return false;
    rest = trim_blanks(rest.substr(1));
    return rest.starts_with("0x") && rest.find(" ports ") != std::string_view::npos;
  }
  return false;
}

// "< Switch\t41 …", "> [3]\t\"S-…\"": ibnetdiscover --diff marks each line with the cache it
// came from.
bool is_diff_line(std::string_view line) {
  if (!line.starts_with("< ") && !line.starts_with("> ")) return false;
  const std::string_view rest = trim_blanks(line.substr(2));
  for (std::string_view start : {"vendid=", "devid=", "sysimgguid=", "switchguid=", "caguid=", "rtguid=", "Switch",
                                 "Ca", "Rt", "[", "numports", "lid"})
    if (rest.starts_with(start)) return true;
  return false;
}

// "{ CA Ports:01 SystemGUID:… NodeGUID:… PortGUID:… VenID:… } { SW Ports:… } PHY=4x LOG=ACT SPD=…"
bool is_lst_line(std::string_view line) {
  return line.starts_with("{ ") && line.find("Ports:") != std::string_view::npos &&
         line.find("NodeGUID:") != std::string_view::npos;
}

}  // namespace

std::optional<RefusedForm> refused_fabric_form(std::string_view head) {
  int number = 0;
  bool decided = false;  // the first line of substance decides, but for --diff's marks
  for (size_t start = 0; start < head.size();) {
    const size_t nl = head.find('\n', start);
    const std::string_view line =
        trim_blanks(head.substr(start, nl == std::string_view::npos ? head.size() - start : nl - start));
    start = nl == std::string_view::npos ? head.size() : nl + 1;
    ++number;
    // Comments say nothing of the form (a dump's header, a topology.conf's): the first line of
    // substance does.
    if (line.empty() || line.starts_with('#') || is_ibnetdiscover_progress(line) ||
        is_ibnetdiscover_diagnostic(line))
      continue;
    // --diff prints the unchanged header of a node before its marked lines: look further.
    if (is_diff_line(line))
      return RefusedForm{number,
                         "this is ibnetdiscover --diff output (what changed between two sweeps), not a fabric; run "
                         "plain ibnetdiscover (or ibnetdiscover --load-cache FILE for a saved cache)"};
    if (decided) continue;
    decided = true;
    if (is_node_list_line(line))
      return RefusedForm{number,
                         "this is a node list (ibnetdiscover -l/-H/-S/-R, ibhosts or ibswitches): it names nodes but "
                         "no cables; run plain ibnetdiscover (or iblinkinfo) and give its output"};
    // Slurm's own topology.conf, or `sharp_cmd topology` (Azure's azslurm input): switches and
    // the nodes or port GUIDs under them, but no cable or port.
    if (line.starts_with("SwitchName=") || line.starts_with("BlockName="))
      return RefusedForm{number,
                         "this is a Slurm topology file (SwitchName=/BlockName= lines, as topology.conf or "
                         "`sharp_cmd topology` print them), not a fabric: give it to --topology (report, place) or "
                         "`whatif --replace-topology`, and the fabric as plain ibnetdiscover output"};
    if (is_lst_line(line))
      return RefusedForm{number,
                         "this is a .lst link list (OpenSM's subnet.lst or ibdiagnet's ibdiagnet2.lst), which "
                         "slurmtopo does not read; run plain ibnetdiscover and give its output"};
  }
  return std::nullopt;
}

}  // namespace slurmtopo
