// `--fabric FILE`: one flag for every saved form of a fabric, recognised by content.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "discover/fabric.h"

namespace slurmtopo {

// Which reader a file goes to. IbnetdiscoverText is the default output and -g, -s, -f, -m;
// IbnetdiscoverPorts is -p (docs/input-forms.md lists every form read and refused).
enum class FabricFormat { IbnetdiscoverText, IbndCache, Snapshot, Iblinkinfo, IbnetdiscoverPorts };

// Throws InputError naming the file when it is none of the known formats, or a form recognised
// but refused (a node list, --diff output, ...: the message names it and what to run instead).
// Text saved from a terminal session (script(1) lines, prompt, CRLF) is judged by its dump.
FabricFormat detect_fabric_format(const std::string& path);

// One of the text forms from its bytes (what load_fabric_file reads from a text file, and
// fuzz/discover/fabric_text_fuzzer feeds): a terminal session's own lines blanked, refused forms
// named, then the ibnetdiscover -p, iblinkinfo or ibnetdiscover reader. `file` names it in errors.
Fabric parse_fabric_text(std::string_view text, const std::string& file);

// A snapshot may hold several fabrics; the other formats hold one.
std::vector<Fabric> load_fabric_file(const std::string& path);

}  // namespace slurmtopo
