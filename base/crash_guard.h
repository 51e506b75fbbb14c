// Some libraries crash on damaged input instead of returning an error (libhwloc on a
// corrupted XML export: lstopo crashes on the same file). One bad file from one node must not
// take down a run over the whole cluster, so such a parse is tried first in a child process.
#pragma once

#include <functional>
#include <optional>

namespace slurmtopo {

// Runs `attempt` in a forked child and waits for it. nullopt when the child returned (whatever
// `attempt` concluded, including by throwing: the caller repeats the work in-process and sees
// the error itself); otherwise the signal that killed the child (SIGSEGV, SIGABRT, ...).
// The child never writes anything: it ends with _exit, skipping atexit handlers and buffers.
std::optional<int> signal_killing(const std::function<void()>& attempt);

}  // namespace slurmtopo
