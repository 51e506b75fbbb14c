// Some libraries crash on damaged input instead of returning an error (libhwloc on a
// corrupted XML export: lstopo crashes on the same file), and explain a refusal only on stderr.
// One bad file from one node must not take down a run over the whole cluster, so such a parse
// is tried first in a child process, whose stderr is kept for the error message.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace slurmtopo {

struct ChildOutcome {
  std::optional<int> signal;  // the signal that killed the child (SIGSEGV, SIGABRT, ...)
  int exit_code = 0;          // what `attempt` returned, when it returned
  std::string stderr_text;    // what the child wrote to stderr (the library's own reason)
};

// Runs `attempt` in a forked child and waits for it. An exception escaping `attempt` is exit
// code 1. The child writes nothing to the caller's stdout or files: it ends with _exit,
// skipping atexit handlers and stdio buffers, and leaves no core file.
// Forks: call it only while the calling thread is the process's only one (a child of a
// multi-threaded process can deadlock on a lock another thread held at the fork).
ChildOutcome run_in_child(const std::function<int()>& attempt);

// The same for many attempts, at most `parallel` children at once; outcomes in order.
std::vector<ChildOutcome> run_in_children(const std::vector<std::function<int()>>& attempts, unsigned parallel);

}  // namespace slurmtopo
