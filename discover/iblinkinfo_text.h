// Reader for iblinkinfo's output (infiniband-diags 44), a fourth `--fabric` form: the default
// form (a "Switch: 0xGUID desc:" or "CA: desc:" header over one line per port) and the
// one-line-per-port form of -l/--line, with or without --switches-only / --cas-only.
//
// iblinkinfo says less than ibnetdiscover (docs/iblinkinfo.md): no vendor, device or system
// image GUIDs (so no director chassis), CAs known by their port GUID (the node GUID of a
// ConnectX port 1, not of ibsim's HCAs), node kinds in -l only by their shape, and in the
// default --switches-only form a CA only by its LID.
#pragma once

#include <string>
#include <string_view>

#include "discover/fabric.h"

namespace slurmtopo {

// Parses one output. `file` names it in errors (InputError with the line number).
Fabric parse_iblinkinfo_text(std::string_view text, const std::string& file);

// True when the text looks like iblinkinfo output (used to recognise --fabric files).
bool looks_like_iblinkinfo(std::string_view head);

}  // namespace slurmtopo
