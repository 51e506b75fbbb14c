#!/usr/bin/env bash
# The man pages scripts/man_pages.sh makes from --help (what the .deb installs): one per command,
# each with an EXIT STATUS section (0, 1, 2 and the command's own codes) and, for every command
# that does something, EXAMPLES; `man -l` renders them.
#
#   bash tests/integration/man_pages_test.sh /path/to/build/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (help2man or man missing).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/build/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

skip() { echo "SKIP: $*"; exit 77; }
for tool in help2man man gzip; do command -v "$tool" >/dev/null || skip "$tool not installed"; done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/man_pages_test.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
passed=0 failed=0
pass() { echo "PASS: $1${2:+ ($2)}"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }

name="man_pages.sh writes a page per command"
if ! bash "$repo/scripts/man_pages.sh" "$SLURMTOPO" "$WORK/man" >"$WORK/log" 2>&1; then
  fail "$name" "$(tail -n 3 "$WORK/log" | tr '\n' ' ')"
  echo "$passed passed, $failed failed"; exit 1
fi
pages=$(ls "$WORK/man"/*.1.gz | wc -l)
if (( pages >= 20 )) && [[ -f $WORK/man/slurmtopo-emit-topology.1.gz ]]; then pass "$name" "$pages pages"
else fail "$name" "$pages pages: $(ls "$WORK/man" | tr '\n' ' ')"; fi

name="every page has EXIT STATUS with 0, 1 and 2"
bad=""
for p in "$WORK"/man/*.1.gz; do
  text=$(zcat "$p")
  grep -q '^\.SH "EXIT STATUS"$' <<<"$text" || { bad+=" $(basename "$p")"; continue; }
  status=$(sed -n '/^\.SH "EXIT STATUS"/,/^\.SH/p' <<<"$text")
  for code in 0 1 2; do grep -qx "$code" <<<"$status" || bad+=" $(basename "$p"):$code"; done
done
if [[ -z $bad ]]; then pass "$name"; else fail "$name" "lacking:$bad"; fi

name="every command's page that does something has EXAMPLES"
bad=""
for p in "$WORK"/man/slurmtopo-*.1.gz; do
  case $(basename "$p" .1.gz) in slurmtopo-emit | slurmtopo-discover | slurmtopo-generate) continue ;; esac
  zcat "$p" | grep -q '^\.SH EXAMPLES$' || bad+=" $(basename "$p")"
done
if [[ -z $bad ]]; then pass "$name"; else fail "$name" "lacking:$bad"; fi

name="man -l slurmtopo-emit-topology: EXIT STATUS and EXAMPLES as a reader sees them"
out=$(MANPAGER=cat MANWIDTH=100 man -l "$WORK/man/slurmtopo-emit-topology.1.gz" 2>&1)
if [[ $out == *$'\nEXIT STATUS\n'* && $out == *$'\nEXAMPLES\n'* && $out == *"slurmtopo emit topology --fabric fabric.topo"* &&
      $out == *"internal error"* ]]; then
  pass "$name"
else fail "$name" "$(head -c 600 <<<"$out" | tr '\n' ' ')"; fi

name="man -l slurmtopo-report: each verdict its code"
out=$(MANPAGER=cat MANWIDTH=100 man -l "$WORK/man/slurmtopo-report.1.gz" 2>&1 | sed -n '/^EXIT STATUS/,/^EXAMPLES/p')
if grep -q 'WARN' <<<"$out" && grep -q 'FAIL' <<<"$out" && grep -Eq '^ +3 *$|^ +3 ' <<<"$out"; then pass "$name"
else fail "$name" "$(tr '\n' ' ' <<<"$out")"; fi

echo "$passed passed, $failed failed"
(( failed == 0 ))
