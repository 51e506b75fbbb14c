// Some libraries crash on damaged input instead of returning an error (libhwloc on a
// corrupted XML export: lstopo crashes on the same file), and explain a refusal only on stderr.
// One bad file from one node must not take down a run over the whole cluster, so such a parse
// runs in a child process, whose stderr is kept for the error message.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

namespace slurmtopo {

struct ChildOutcome {
  std::optional<int> signal;  // the signal that killed the child (SIGSEGV, SIGABRT, ...)
  int exit_code = 0;          // what `attempt` returned, when it returned
  std::string stderr_text;    // what the attempt wrote to stderr (the library's own reason)
  std::string output;         // what the attempt handed back (run_in_workers only)
};

// Runs `attempt` in a forked child and waits for it. An exception escaping `attempt` is exit
// code 1. The child writes nothing to the caller's stdout or files: it ends with _exit,
// skipping atexit handlers and stdio buffers, and leaves no core file.
// Forks: call it only while the calling thread is the process's only one (a child of a
// multi-threaded process can deadlock on a lock another thread held at the fork).
ChildOutcome run_in_child(const std::function<int()>& attempt);

// The same for `count` attempts, without a fork each: at most `parallel` long-lived children,
// each taking the next attempt not yet taken until none is left. `attempt(i, output)` runs in
// a child; what it puts in `output` reaches the parent. `take(i, outcome)` runs in the parent
// as each attempt ends, in the order they end (index by `i` for a deterministic result). An
// attempt that kills its child ends with that signal and the stderr it wrote; a new child
// takes over the attempts left, so one crash costs one attempt, not the rest of a slice.
// Forks (also when restarting a child): call it only while the calling thread is the
// process's only one. An exception from `take` ends the children (SIGKILL) and propagates.
void run_in_workers(size_t count, const std::function<int(size_t, std::string&)>& attempt,
                    const std::function<void(size_t, ChildOutcome)>& take, unsigned parallel);

}  // namespace slurmtopo
