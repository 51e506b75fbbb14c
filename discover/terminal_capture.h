// Fabric dumps saved from a terminal session rather than redirected to a file: script(1)'s
// "Script started on …" / "Script done on …" lines, the shell prompt with the command that
// printed the dump, a last prompt or `exit`, and the terminal's escape sequences in those lines.
// CRLF line ends need nothing here: every text reader takes them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace slurmtopo {

// The text with the session's own lines at its head and tail blanked (each becomes an empty
// line, so errors still name the file's line numbers); nullopt when there are none, so the
// common case copies nothing. `complete` is false for the first bytes of a file only: then the
// tail is not looked at, since its last line may be cut off.
//
// Recognised, and only before the first or after the last line of output:
//   Script started on …   /   Script done on …                         (util-linux script)
//   a prompt and a command running an InfiniBand diagnostic, e.g. `root@head:~# ibnetdiscover -p`,
//   `[admin@mgmt01 ~]$ sudo iblinkinfo`, `$ /usr/sbin/ibnetdiscover | tee fabric.txt`
//   a bare prompt, or one with `exit`/`logout`, and `exit`/`logout` alone
std::optional<std::string> strip_terminal_capture(std::string_view text, bool complete);

}  // namespace slurmtopo
