// A terminal session's own lines are blanked at the head and tail of a saved dump, and nothing
// else is touched (discover/terminal_capture.h).
#include "discover/terminal_capture.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace slurmtopo;

namespace {
const std::string kDump = "#\n# Topology file: generated on Sat Dec  5 07:08:48 2026\n#\nvendid=0x0\n";

// The stripped text, or the input itself when nothing was stripped.
std::string stripped(const std::string& text, bool complete = true) {
  return strip_terminal_capture(text, complete).value_or(text);
}
}  // namespace

TEST_CASE("terminal capture: a plain dump is left alone, without a copy") {
  CHECK_FALSE(strip_terminal_capture(kDump, true));
  CHECK_FALSE(strip_terminal_capture("", true));
  CHECK_FALSE(strip_terminal_capture("#\r\n# Topology file\r\n", true));  // CRLF alone is the readers' job
}

TEST_CASE("terminal capture: script(1)'s header and footer, prompts and exit become blank lines") {
  const std::string text = "Script started on 2026-12-05 07:08:41+00:00 [TERM=\"xterm\"]\n"
                           "root@mgmt01:~# ibnetdiscover\n" +
                           kDump + "root@mgmt01:~# exit\nexit\n\nScript done on 2026-12-05 07:08:44+00:00\n";
  const std::string out = stripped(text);
  CHECK(out == "\n\n" + kDump + "\n\n\n\n");
  CHECK(std::count(out.begin(), out.end(), '\n') == std::count(text.begin(), text.end(), '\n'));
}

TEST_CASE("terminal capture: prompts of every shape, with sudo, a path or a pipe") {
  for (const char* prompt : {"[admin@mgmt01 ~]$ sudo ibnetdiscover -p", "$ /usr/sbin/ibnetdiscover | tee fabric.txt",
                             "# ibnetdiscover", "mgmt01% iblinkinfo --switches-only", "bash-5.1# time ibnetdiscover",
                             "[root@head ~]# cat /var/tmp/fabric.topo"}) {
    CAPTURE(prompt);
    CHECK(stripped(std::string(prompt) + "\n" + kDump) == "\n" + kDump);
  }
  // Not a prompt: a command that is not a fabric tool, a dump comment.
  CHECK_FALSE(strip_terminal_capture("root@mgmt01:~# ls\n" + kDump, true));
  CHECK_FALSE(strip_terminal_capture("# ibnetdiscover-like text\n" + kDump, true));
}

TEST_CASE("terminal capture: escape sequences in the prompt, and bracketed paste before the output") {
  const std::string text = "\x1b[?2004h\x1b]0;root@mgmt01: ~\a\x1b[01;32mroot@mgmt01\x1b[00m:~# ibnetdiscover\r\n"
                           "\x1b[?2004l\r#\r\n# Topology file\r\n";
  CHECK(stripped(text) == "\n#\r\n# Topology file\r\n");
}

TEST_CASE("terminal capture: only the head and the tail, a prompt-like line inside the dump stays") {
  const std::string inner = kDump + "root@mgmt01:~#\n" + kDump;
  CHECK_FALSE(strip_terminal_capture(inner, true));
  // The tail is left for the caller that has the whole file.
  CHECK(stripped("$ ibnetdiscover\n" + kDump + "root@mgmt01:~#", false) == "\n" + kDump + "root@mgmt01:~#");
  CHECK(stripped("$ ibnetdiscover\n" + kDump + "root@mgmt01:~#", true) == "\n" + kDump);
}
