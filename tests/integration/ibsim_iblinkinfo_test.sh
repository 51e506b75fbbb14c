#!/usr/bin/env bash
# iblinkinfo as a --fabric, live: ibsim serves a generated rail-optimized fabric, OpenSM routes
# it, and iblinkinfo in its default, -l and --switches-only forms must give the topology.conf
# that ibnetdiscover of the same fabric gives.
#
#   bash tests/integration/ibsim_iblinkinfo_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (ibsim/OpenSM/infiniband-diags missing).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
# shellcheck source-path=SCRIPTDIR
source "$here/ibsim_env.sh"
why=$(ibsim_env_check) || skip "$why"
for tool in ibnetdiscover iblinkinfo; do command -v "$tool" >/dev/null || skip "$tool not installed"; done
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

WORK=$(mktemp -d "${TMPDIR:-/tmp}/ibsim_iblinkinfo_test.XXXXXX")
trap 'ibsim_env_stop; [[ -n ${KEEP_WORK:-} ]] && echo "kept $WORK" || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

passed=0 failed=0
pass() { echo "PASS: $1"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }
body() { grep -v '^#' "$1"; }

"$SLURMTOPO" generate railopt --scalable-units 2 --hosts-per-su 4 --rails 4 -k 16 --speed HDR --format ibsim \
  -o "$WORK/fabric.net" || { fail "generate" "exit $?"; exit 1; }
ibsim_env_start "$WORK/sim" "$WORK/fabric.net" minhop || { fail "ibsim + OpenSM" "no SUBNET UP"; exit 1; }
ibsim_env_run ibnetdiscover >"$WORK/fabric.ibnetdiscover" 2>/dev/null || fail "ibnetdiscover" "exit $?"
ibsim_env_run iblinkinfo >"$WORK/default.txt" 2>/dev/null || fail "iblinkinfo" "exit $?"
ibsim_env_run iblinkinfo -l >"$WORK/line.txt" 2>/dev/null || fail "iblinkinfo -l" "exit $?"
ibsim_env_run iblinkinfo --switches-only >"$WORK/switches.txt" 2>/dev/null || fail "iblinkinfo --switches-only" "exit $?"
ibsim_env_run iblinkinfo -l --switches-only >"$WORK/line-switches.txt" 2>/dev/null || fail "iblinkinfo -l --switches-only" "exit $?"
ibsim_env_stop

"$SLURMTOPO" emit topology --fabric "$WORK/fabric.ibnetdiscover" -o "$WORK/ibnetdiscover.conf" 2>/dev/null \
  || fail "emit from ibnetdiscover" "exit $?"
for form in default line switches line-switches; do
  if "$SLURMTOPO" emit topology --fabric "$WORK/$form.txt" -o "$WORK/$form.conf" >"$WORK/$form.out" 2>&1 &&
     diff <(body "$WORK/ibnetdiscover.conf") <(body "$WORK/$form.conf") >"$WORK/$form.diff"; then
    pass "iblinkinfo ($form form) gives ibnetdiscover's topology.conf"
  else
    fail "iblinkinfo ($form form)" "$(head -n 20 "$WORK/$form.out" "$WORK/$form.diff" 2>/dev/null)"
  fi
done

echo "$passed passed, $failed failed"
(( failed == 0 ))
