// The Slurm release a file or a prediction is for, as an admin names it ("YY.MM"), and every
// rule slurmtopo knows to differ between releases: what slurmd accepts in gres.conf Cores=
// and which node-selection behaviour slurmctld runs. One place, so that a release's quirks
// are found in one file (docs/placement.md and reference/slurm.md give the sources).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

struct SlurmRelease {
  int year = 22, month = 5;
  auto operator<=>(const SlurmRelease&) const = default;
};
// Throws InputError("--slurm-version", 0, ...) unless "YY.MM" (e.g. 22.05, 24.11, 25.11) and one
// of known_releases(): every command refuses a release it does not know with the same message.
SlurmRelease parse_slurm_release(std::string_view text);
// The "YY.MM" syntax alone (what an installed Slurm prints is checked against known_releases()
// by the caller, which knows where it came from).
SlurmRelease parse_release_number(std::string_view text);
std::string to_string(SlurmRelease v);

// The releases slurmtopo knows the rules of, oldest first: 22.05 to 26.05, every release SchedMD
// made in between (YY.02/.05/.11). A newer one may change what slurmctld refuses (it did in 25.11
// and 26.05), so it is refused rather than treated as the newest known.
const std::vector<SlurmRelease>& known_releases();
// Throws InputError("--slurm-version", 0, "Slurm 27.11 (<how>) is not a release slurmtopo knows:
// it knows 22.05, 23.02, ... 26.05 ...") unless `v` is known; `how` says where it came from.
void require_known(SlurmRelease v, const std::string& how);

// The release a command works for, resolved once per run and the same way by every command
// (slurm/installed_release.h target_release): --slurm-version, else the installed Slurm, else
// the default 22.05. `how` says which, for the header line of what the command writes.
struct TargetRelease {
  SlurmRelease release;
  std::string how = "the default, as no --slurm-version was given and no Slurm is installed here";
  bool defaulted = true;  // neither asked for nor found: the command says so on stderr
};
// "Slurm 24.11 (scontrol --version: slurm 24.11.5)": the one header line every command writes.
std::string release_line(const TargetRelease& t);
// --slurm-version TEXT as given (library callers and tests): parsed and checked as the CLI does.
TargetRelease requested_release(const std::string& text);

// How a version checks a GPU's Cores= (slurm.md), violations drain the node. Measured with
// Debian's packages: a GPU's own cores (ipa20's GPU 0: Cores=42-55 of socket 0-55) pass
// `slurmd -G` of 24.11.5 and 26.05.5, but slurmctld of those releases refuses the node at
// registration, so from 24.11 slurmtopo widens to whole sockets (and says so in a note);
// 22.05 (the host's slurmd and slurmctld) takes them as they are.
enum class CoreRule {
  AsIs,            // up to 24.05: any list within the node's cores
  WholeSockets,    // 24.11–25.05: each socket fully covered or not at all
  OneSocketOrAll,  // 25.11+: exactly one whole socket, or all cores
};
CoreRule core_rule(SlurmRelease v);
const char* describe(CoreRule rule);

// The topology forms slurmctld reads, and the release that added each (slurm.md):
enum class TopologyForm {
  TreeConf,           // topology.conf SwitchName= lines (topology/tree): every supported release
  BlockConf,          // topology.conf BlockName= lines (topology/block): 23.11
  BlockSizes,         // BlockSizes= (23.11 had BlockLevels=): 24.05
  Yaml,               // topology.yaml, several topologies, cluster_default: 25.05
  PartitionTopology,  // PartitionName=... Topology=NAME: 25.05, with topology.yaml
};
SlurmRelease introduced_in(TopologyForm form);
const char* describe(TopologyForm form);
// Throws InputError(where, 0, "<form> needs Slurm <release> or later (added in <release>); the
// files are for Slurm <have> (<how>)") when `have` cannot read `form`; `how` says where `have`
// came from ("--slurm-version 22.05", "scontrol --version: slurm 22.05.8").
void require_release(SlurmRelease have, TopologyForm form, const std::string& where, const std::string& how);
// Before 25.05 every block needs at least the base block size of nodes; 25.05 permits gaps.
bool blocks_may_have_gaps(SlurmRelease v);

// Node selection (select/cons_tres) as it differs between releases, each value named for the
// release that introduced its rule (docs/placement.md; tested against real slurmctld 22.05,
// 24.11 and 26.05): 22.05 up to 24.05.2; 24.05.3+ (switch CPU counts at the top-switch choice,
// the "closer leaf must fit" rule, parent switch counts shrink as their leaves are used);
// 25.11 (a topology.conf without switches is fatal); 26.05 (a one-node job takes the lightest
// free node, first in node order, whatever the topology).
enum class SlurmVersion { V22_05, V24_05, V25_11, V26_05 };
SlurmVersion selection_rules(SlurmRelease release);
SlurmVersion parse_slurm_version(const std::string& text);  // parse_slurm_release, then selection_rules
std::string to_string(SlurmVersion version);

}  // namespace slurmtopo
