#!/usr/bin/env bash
# What an admin's target file looks like after the write went wrong: the disk filled up, the
# file system was read-only, the run was killed (SIGTERM, SIGKILL) while writing, or two runs
# wrote the same file at once. Always the old file or the whole new one, never a half one, and
# no temp file left behind.
#
#   bash tests/integration/write_faults_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (not root: the disk-full and read-only cases mount
# small tmpfs file systems).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
(( EUID == 0 )) || { echo "SKIP: needs root (mounts tmpfs)"; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/write_faults_test.XXXXXX")
mounts=()
cleanup() {
  local m
  for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
  [[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"
}
trap cleanup EXIT

passed=0 failed=0
pass() { echo "PASS: $1"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }

# Two fabrics with the same hosts whose topology.conf differ (one cable less), large enough
# that writing takes a while: the old and the new file of a re-cabling.
"$SLURMTOPO" generate fattree --levels 3 --radix 32 -o "$WORK/new.topo" || exit 1
"$SLURMTOPO" generate fattree --levels 3 --radix 32 --remove-cable leaf0001,spine001 -o "$WORK/old.topo" 2>/dev/null ||
  cp "$WORK/new.topo" "$WORK/old.topo"
"$SLURMTOPO" emit topology --fabric "$WORK/new.topo" -o "$WORK/new.conf" >/dev/null 2>&1 || exit 1
"$SLURMTOPO" emit topology --fabric "$WORK/old.topo" -o "$WORK/old.conf" >/dev/null 2>&1 || exit 1
cmp -s "$WORK/old.conf" "$WORK/new.conf" && { echo "FAIL: the two fabrics give the same topology.conf"; exit 1; }

# No file in DIR other than the listed ones (a temp file left behind is a failure).
only_files() {
  local dir=$1; shift
  local have want
  have=$(cd "$dir" && ls -A | sort | tr '\n' ' ')
  want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  [[ $have == "$want" ]] || { echo "    files in $dir: $have (expected $want)"; return 1; }
}

small_fs() { # DIR SIZE: a tmpfs of SIZE at DIR
  mkdir -p "$1" && mount -t tmpfs -o size="$2" tmpfs "$1" && mounts+=("$1")
}

# --- disk full -----------------------------------------------------------------------------
size=$(stat -c %s "$WORK/new.conf")
small_fs "$WORK/full" "$(( size / 2 + 8192 ))"
# The file in service is one leaf of the new one's: it fits, the new one does not.
grep -m1 'Nodes=' "$WORK/new.conf" > "$WORK/full/topology.conf"
before=$(sha256sum < "$WORK/full/topology.conf")
out=$("$SLURMTOPO" emit topology --fabric "$WORK/new.topo" -o "$WORK/full/topology.conf" 2>&1); code=$?
if (( code == 2 )) && [[ $out == *"$WORK/full/topology.conf"*"No space left on device"* ]] &&
   [[ $(sha256sum < "$WORK/full/topology.conf") == "$before" ]] && only_files "$WORK/full" topology.conf; then
  pass "disk full: exit 2 naming the file and ENOSPC, the old file intact, no temp file"
else
  fail "disk full" "exit $code, output: $(tail -c 300 <<< "$out")"
fi

# --- read-only file system -----------------------------------------------------------------
small_fs "$WORK/ro" 4m
cp "$WORK/old.conf" "$WORK/ro/topology.conf"
mount -o remount,ro "$WORK/ro"
out=$("$SLURMTOPO" emit topology --fabric "$WORK/new.topo" -o "$WORK/ro/topology.conf" 2>&1); code=$?
if (( code == 2 )) && [[ $out == *"$WORK/ro/topology.conf"*"Read-only file system"* ]] &&
   cmp -s "$WORK/ro/topology.conf" "$WORK/old.conf"; then
  pass "read-only target: exit 2 naming the file, the old file intact"
else
  fail "read-only target" "exit $code, output: $(tail -c 300 <<< "$out")"
fi

# --- killed while writing ------------------------------------------------------------------
# The kill lands at a different moment each round, from early in the parse to after the write.
mkdir -p "$WORK/kill"
elapsed_ms=$( { /usr/bin/time -f %e "$SLURMTOPO" emit topology --fabric "$WORK/new.topo" -o "$WORK/kill/probe.conf" >/dev/null; } 2>&1 | tail -1 )
rm -f "$WORK/kill/probe.conf" "$WORK/kill/probe.conf.bak"
run_ms=$(awk -v s="$elapsed_ms" 'BEGIN { printf "%d", s * 1000 + 1 }')
for signal in TERM KILL; do
  torn=0 rounds=12
  for (( i = 0; i < rounds; i++ )); do
    cp "$WORK/old.conf" "$WORK/kill/topology.conf"
    rm -f "$WORK/kill/topology.conf.bak"
    "$SLURMTOPO" emit topology --fabric "$WORK/new.topo" -o "$WORK/kill/topology.conf" >/dev/null 2>&1 &
    pid=$!
    sleep "$(awk -v ms="$run_ms" -v i="$i" -v n="$rounds" 'BEGIN { printf "%.3f", ms * (i + 0.5) / n / 1000 }')"
    kill -s "$signal" "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    if ! cmp -s "$WORK/kill/topology.conf" "$WORK/old.conf" && ! cmp -s "$WORK/kill/topology.conf" "$WORK/new.conf"; then
      torn=$(( torn + 1 ))
    fi
    # A kill between naming the finished temp file and the rename can leave it; the next write
    # removes it (and the target is whole either way).
    "$SLURMTOPO" emit topology --fabric "$WORK/new.topo" -o "$WORK/kill/topology.conf" >/dev/null 2>&1
    cmp -s "$WORK/kill/topology.conf" "$WORK/new.conf" || torn=$(( torn + 1 ))
    extra=$(cd "$WORK/kill" && ls -A | grep -v -x -e topology.conf -e topology.conf.bak)
    [[ -z $extra ]] || { torn=$(( torn + 1 )); echo "    left behind after the next write: $extra"; rm -f "$WORK/kill/"*.tmp.*; }
  done
  if (( torn == 0 )); then
    pass "SIG$signal at $rounds moments of a ${run_ms} ms run: always the old or the whole new file; the next write leaves no temp file"
  else
    fail "SIG$signal during emit" "$torn of $rounds rounds left a half file or a temp file"
  fi
done

# --- two runs racing on one target ---------------------------------------------------------
mkdir -p "$WORK/race"
bad=0
for (( i = 0; i < 8; i++ )); do
  "$SLURMTOPO" emit topology --fabric "$WORK/new.topo" -o "$WORK/race/topology.conf" --allow-missing >/dev/null 2>&1 &
  a=$!
  "$SLURMTOPO" emit topology --fabric "$WORK/old.topo" -o "$WORK/race/topology.conf" --allow-missing >/dev/null 2>&1 &
  b=$!
  wait "$a" "$b"
  cmp -s "$WORK/race/topology.conf" "$WORK/old.conf" || cmp -s "$WORK/race/topology.conf" "$WORK/new.conf" || bad=$(( bad + 1 ))
  only_files "$WORK/race" topology.conf topology.conf.bak >/dev/null 2>&1 || only_files "$WORK/race" topology.conf || bad=$(( bad + 1 ))
done
if (( bad == 0 )); then
  pass "two emits racing on one file, 8 times: one of the two whole files each time, no temp file"
else
  fail "racing emits" "$bad of 8 rounds left a mixed file or a temp file"
fi

echo "write_faults_test: $passed passed, $failed failed"
(( failed == 0 ))
