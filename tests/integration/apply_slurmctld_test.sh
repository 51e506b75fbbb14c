#!/usr/bin/env bash
# slurmtopo apply against a REAL slurmctld (22.05 on Debian 12), started by slurm_env.sh in a
# temp dir: a cable moved in the input → applied, slurmctld alive and `scontrol show topology`
# shows the move; the same input again → nothing done (no reconfigure); an input that would
# give an invalid file → refused before reconfigure, slurmctld untouched; two applies at once →
# one reconfigure; kill -9 in the middle of applies → the file is always the old or the new one,
# never half, and the next apply finishes the job. Then --what nodes,gres with two slurmd
# running: NodeName lines inline in slurm.conf → refused; moved to an included nodes.conf →
# the node file gets the hardware (NodeAddr/Port kept), gres.conf is written, slurmctld shows the
# new CPUs and GPUs and the slurmds re-register with them (IDLE, Gres=gpu:h100:8(S:0-1)),
# `slurmd -G` reads the GPUs; the same again → nothing; a node the node files lack → refused
# (a removal needs a restart).
#
#   bash tests/integration/apply_slurmctld_test.sh /path/to/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (no slurmctld, not root).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

skip() { echo "SKIP: $*"; exit 77; }
for tool in slurmctld slurmd scontrol sinfo munged mungekey jq; do
  command -v "$tool" >/dev/null || skip "$tool not installed"
done
(( EUID == 0 )) || skip "needs root (slurmctld runs with SlurmUser=root)"
[[ -x $SLURMTOPO ]] || { echo "FAIL: $SLURMTOPO is not an executable"; exit 1; }
SLURMTOPO=$(cd "$(dirname "$SLURMTOPO")" && pwd)/$(basename "$SLURMTOPO")

# shellcheck source-path=SCRIPTDIR
source "$here/slurm_env.sh"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/apply_slurmctld_test.XXXXXX")
chmod 755 "$WORK"
trap 'slurm_env_stop; [[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

passed=0 failed=0
pass() { echo "PASS: $1${2:+ ($2)}"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }
t_start=$(date +%s%N)

# Two leaves of four hosts; B is A with the cables of gpu004 and gpu005 swapped between leaves.
"$SLURMTOPO" generate fattree --levels 2 --radix 8 --hosts 8 -o "$WORK/a.topo" || { echo "FAIL: generate"; exit 1; }
sed 's/"gpu004 /"gpuTMP /g; s/"gpu005 /"gpu004 /g; s/"gpuTMP /"gpu005 /g' "$WORK/a.topo" >"$WORK/b.topo"
# Hosts none of which Slurm knows: the topology.conf would be empty, which slurmctld refuses.
"$SLURMTOPO" generate fattree --levels 2 --radix 8 --hosts 8 --host-prefix other -o "$WORK/bad.topo"

printf 'gpu[001-008]\n' >"$WORK/nodes"
printf 'SwitchName=s1 Nodes=gpu[001-008]\n' >"$WORK/topology.conf"
export SLURM_ENV_AUTH=munge
export SLURM_ENV_EXTRA_CONF="GresTypes=gpu"  # for --what gres,nodes (a GresTypes change needs a restart)
# The CPU layout of samples/nodes/dgx001.json: 22.05 refuses a CPU count change on a reconfigure
# ("Configured cpu count change ... require restart of the slurmctld daemon"), so --what nodes
# below changes RealMemory and Gres only, and a CPU change is refused.
export SLURM_ENV_NODE_ATTRS="CPUs=224 Sockets=2 CoresPerSocket=56 ThreadsPerCore=2"
slurm_env_start "$WORK/slurm" "$WORK/nodes" "$WORK/topology.conf" || { echo "FAIL: slurmctld did not start"; exit 1; }
conf=$SLURM_ENV_DIR/slurm.conf
topo=$SLURM_ENV_DIR/topology.conf
log=$(slurm_env_log)
reconfigures() { grep -c 'Processing Reconfiguration Request' "$log"; }
alive() { _slurm_env_alive "$SLURM_ENV_CTLD_PID" && timeout 5 scontrol ping | grep -q 'is UP'; }
leaf_of() { # NODE -> the switch `scontrol show topology` lists it under
  scontrol show topology "$1" 2>/dev/null | awk '/Nodes=/ { for (i = 1; i <= NF; i++) if ($i ~ /^SwitchName=/) print substr($i, 12) }' | head -n 1
}
apply() { "$SLURMTOPO" apply --slurm-conf "$conf" --verify-timeout 20 "$@"; }

# 1. the fabric's topology replaces the hand-written one
name="apply A: applied, reconfigured, slurmctld shows the leaves"
t0=$(date +%s%N)
out=$(apply --fabric "$WORK/a.topo" 2>&1); rc=$?
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
if (( rc != 0 )); then fail "$name" "exit $rc: $out"
elif ! alive; then fail "$name" "slurmctld not answering"
elif [[ $(leaf_of gpu004) != leaf001 || $(leaf_of gpu005) != leaf002 ]]; then
  fail "$name" "gpu004 under '$(leaf_of gpu004)', gpu005 under '$(leaf_of gpu005)': $(scontrol show topology | tr '\n' ' ')"
elif [[ ! -f $topo.bak ]] || ! grep -q 'SwitchName=s1' "$topo.bak"; then fail "$name" "previous file not kept as .bak"
else pass "$name" "${ms} ms"; fi
cp "$topo" "$WORK/expected-a"

# 2. the same input again: nothing to do, no reconfigure
name="apply A again: nothing to do, no reconfigure"
before=$(reconfigures)
out=$(apply --fabric "$WORK/a.topo" 2>&1); rc=$?
if (( rc != 0 )); then fail "$name" "exit $rc: $out"
elif [[ $out != *"nothing to do"* ]]; then fail "$name" "said: $out"
elif (( $(reconfigures) != before )); then fail "$name" "slurmctld was reconfigured"
else pass "$name"; fi

# 3. a cable moved
name="apply B (gpu004/gpu005 cables swapped): scontrol show topology shows the move"
out=$(apply --fabric "$WORK/b.topo" 2>&1); rc=$?
if (( rc != 0 )); then fail "$name" "exit $rc: $out"
elif ! alive; then fail "$name" "slurmctld not answering"
elif [[ $(leaf_of gpu004) != leaf002 || $(leaf_of gpu005) != leaf001 ]]; then
  fail "$name" "gpu004 under '$(leaf_of gpu004)', gpu005 under '$(leaf_of gpu005)'"
elif [[ $out != *gpu004* ]]; then fail "$name" "the diff does not name the moved node: $out"
else pass "$name" "$(grep -m1 gpu004 <<<"$out" | sed 's/^ *//')"; fi
cp "$topo" "$WORK/expected-b"

# 4. an input that would produce an invalid file
name="apply with hosts Slurm does not know: refused (exit 2), slurmctld untouched"
before=$(reconfigures)
cp "$topo" "$WORK/before-bad"
out=$(apply --fabric "$WORK/bad.topo" 2>&1); rc=$?
if (( rc != 2 )); then fail "$name" "exit $rc: $out"
elif ! cmp -s "$topo" "$WORK/before-bad"; then fail "$name" "topology.conf changed"
elif (( $(reconfigures) != before )); then fail "$name" "slurmctld was reconfigured"
elif ! alive; then fail "$name" "slurmctld not answering"
else pass "$name" "$(tail -n 1 <<<"$out")"; fi

# 5. --dry-run shows the change and does nothing
name="apply A --dry-run: shows the change, writes nothing"
out=$(apply --fabric "$WORK/a.topo" --dry-run 2>&1); rc=$?
if (( rc != 0 )) || ! cmp -s "$topo" "$WORK/expected-b" || [[ $out != *"dry run"* ]]; then fail "$name" "exit $rc: $out"
else pass "$name"; fi

# 6. two applies at once: the lock makes the second wait and find nothing to do
name="two applies at once: one reconfigure"
before=$(reconfigures)
apply --fabric "$WORK/a.topo" >"$WORK/p1" 2>&1 & p1=$!
apply --fabric "$WORK/a.topo" >"$WORK/p2" 2>&1 & p2=$!
wait $p1; rc1=$?; wait $p2; rc2=$?
if (( rc1 != 0 || rc2 != 0 )); then fail "$name" "exits $rc1 $rc2: $(cat "$WORK/p1" "$WORK/p2" | tr '\n' ' ')"
elif (( $(reconfigures) != before + 1 )); then fail "$name" "$(( $(reconfigures) - before )) reconfigures"
elif ! cat "$WORK/p1" "$WORK/p2" | grep -q "nothing to do"; then
  fail "$name" "neither found nothing to do; first: $(tr '\n' ' ' <"$WORK/p1"); second: $(tr '\n' ' ' <"$WORK/p2"); log: $(grep -i 'reconfig' "$log" | tail -n 4 | tr '\n' ' ')"
else pass "$name"; fi

# 7. kill -9 in the middle: the file is always A's or B's, whole
name="kill -9 during apply (10 times): topology.conf always whole (old or new)"
bad="" old=0 between=0
for i in 1 2 3 4 5 6 7 8 9 10; do
  if (( i % 2 )); then f=$WORK/b.topo; want=$WORK/expected-b; else f=$WORK/a.topo; want=$WORK/expected-a; fi
  # slurmtopo itself in the background (not the apply function: $! would be a subshell, and
  # the kill would leave slurmtopo running).
  "$SLURMTOPO" apply --slurm-conf "$conf" --verify-timeout 20 --fabric "$f" >/dev/null 2>&1 & pid=$!
  sleep "0.$(printf %02d $(( RANDOM % 25 )))"  # 0 to 240 ms; an apply takes ~100-300 ms
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  if ! cmp -s "$topo" "$WORK/expected-a" && ! cmp -s "$topo" "$WORK/expected-b"; then
    cp "$topo" "$WORK/bad-after-kill"; bad="after kill $i: $(diff "$WORK/expected-a" "$topo" | head -c 400 | tr "\n" " ")"; break
  fi
  cmp -s "$topo" "$want" || old=$(( old + 1 ))
  [[ -e $SLURM_ENV_DIR/.slurmtopo-apply.pending ]] && between=$(( between + 1 ))
done
if [[ -n $bad ]]; then fail "$name" "$bad"
else pass "$name" "$old killed before the rename, $between left .slurmtopo-apply.pending for the next apply"; fi
name="after the kills, an apply of B finishes: slurmctld alive and shows B"
out=$(apply --fabric "$WORK/b.topo" 2>&1); rc=$?
if (( rc != 0 )); then fail "$name" "exit $rc: $out"
elif ! alive || [[ $(leaf_of gpu004) != leaf002 ]]; then fail "$name" "slurmctld: $(scontrol show topology 2>&1 | tr '\n' ' ')"
elif [[ -e $SLURM_ENV_DIR/.slurmtopo-apply.pending ]]; then fail "$name" "the pending marker is left"
else pass "$name"; fi

# 8. the textfile and --json from a real apply
name="--json and --textfile from a real apply"
mkdir -p "$WORK/textfile"
out=$(apply --fabric "$WORK/b.topo" --json --textfile "$WORK/textfile" 2>&1); rc=$?
if (( rc != 0 )) || [[ $(jq -r .result <<<"$out") != unchanged ]]; then fail "$name" "exit $rc: $out"
elif ! grep -q '^slurmtopo_last_apply_result{result="unchanged"} 1$' "$WORK/textfile/slurmtopo.prom"; then
  fail "$name" "$(cat "$WORK/textfile/slurmtopo.prom")"
elif command -v promtool >/dev/null && ! promtool check metrics <"$WORK/textfile/slurmtopo.prom"; then
  fail "$name" "promtool check metrics"
else pass "$name"; fi

# 9. --what nodes with the NodeName lines inline in slurm.conf: refused, saying how to move them
dgx=$here/../../samples/nodes/dgx001.json
# Fake GPUs: gres.conf's File= under --dev-dir, symlinks to /dev/null (slurmd waits for a
# missing one, then dies).
mkdir -p "$WORK/dev"
for i in 0 1 2 3 4 5 6 7; do ln -sfn /dev/null "$WORK/dev/nvidia$i"; done
apply_nodes() { apply --fabric "$WORK/b.topo" --what nodes,gres --dev-dir "$WORK/dev" "$@"; }
name="apply --what nodes with NodeName lines inline in slurm.conf: refused (exit 2), nothing changed"
before=$(reconfigures)
cp "$conf" "$WORK/conf-before"
out=$(apply_nodes --node-class "gpu[001-008]=$dgx" 2>&1); rc=$?
if (( rc != 2 )) || [[ $out != *inline* || $out != *"Include "* ]]; then fail "$name" "exit $rc: $out"
elif ! cmp -s "$conf" "$WORK/conf-before" || [[ -e $SLURM_ENV_DIR/gres.conf ]]; then fail "$name" "a file changed"
elif (( $(reconfigures) != before )); then fail "$name" "slurmctld was reconfigured"
else pass "$name" "$(grep -o 'inline.*' <<<"$out" | head -c 120)"; fi

# The admin's move: NodeName lines into nodes.conf, `Include` where they were; two slurmds run.
nodes_conf=$SLURM_ENV_DIR/nodes.conf
grep '^NodeName=' "$conf" >"$nodes_conf"
awk -v inc="Include $nodes_conf" '/^NodeName=/ { if (!done) print inc; done = 1; next } { print }' "$WORK/conf-before" >"$conf"
scontrol reconfigure && sleep 1
alive && slurm_env_start_slurmd gpu001 gpu002 || { fail "nodes.conf included, slurmd on gpu001 gpu002" "$(tail -n 3 "$log")"; }
value_of() { scontrol show node "$1" --oneliner | grep -o " $2=[^ ]*" | cut -d= -f2-; } # NODE KEY

# 10. nodes and gres applied: slurmctld and the running slurmds take them
name="apply --what nodes,gres: node file and gres.conf written, slurmctld and slurmd show the GPUs"
cp "$nodes_conf" "$WORK/nodes-before"
ports_before=$(grep -o 'Port=[0-9]*' "$nodes_conf" | sort | tr '\n' ' ')
out=$(apply_nodes --node-class "gpu[001-008]=$dgx" 2>&1); rc=$?
registered() { # NODE: IDLE with the GPUs on their sockets, within 20 s
  local i
  for (( i = 0; i < 100; i++ )); do
    [[ $(value_of "$1" Gres) == 'gpu:h100:8(S:0-1)' && $(value_of "$1" State) == IDLE* ]] && return 0
    sleep 0.2
  done
  return 1
}
if (( rc != 0 )); then fail "$name" "exit $rc: $out"
elif ! alive; then fail "$name" "slurmctld not answering"
elif [[ $(value_of gpu005 CPUTot) != 224 || $(value_of gpu005 Gres) != gpu:h100:8 ]]; then
  fail "$name" "gpu005: CPUTot=$(value_of gpu005 CPUTot) Gres=$(value_of gpu005 Gres)"
elif [[ $(grep -o 'Port=[0-9]*' "$nodes_conf" | sort | tr '\n' ' ') != "$ports_before" ]] ||
     (( $(grep -c 'NodeHostname=localhost NodeAddr=127.0.0.1' "$nodes_conf") != 8 )); then
  fail "$name" "the node file lost NodeAddr/Port: $(grep '^NodeName' "$nodes_conf" | head -n 2)"
elif ! cmp -s "$nodes_conf.bak" "$WORK/nodes-before"; then fail "$name" "previous node file not kept as .bak"
elif [[ $out != *"- NodeName=gpu001 "* || $out != *"+ NodeName=gpu001 CPUs=224"*"Gres=gpu:h100:8"* ]]; then fail "$name" "the diff: $out"
else pass "$name" "$(grep -m1 '^NodeName=gpu001' "$nodes_conf" | cut -c1-110)"; fi

# The running slurmds read gres.conf again on the reconfigure and register with the GPUs.
name="after apply --what gres: slurmd -G reads 8 GPUs; the running slurmds register IDLE with Gres=gpu:h100:8(S:0-1)"
mkdir -p "$SLURM_ENV_DIR/spool/gpu001"
gout=$(slurmd -G -N gpu001 -f "$conf" 2>&1)
if (( $(grep -c 'Gres Name=gpu Type=h100' <<<"$gout") != 8 )) || grep -Eiq 'error|fatal' <<<"$gout"; then
  fail "$name" "slurmd -G: $(head -n 3 <<<"$gout")"
elif ! registered gpu001 || ! registered gpu002; then
  fail "$name" "gpu001 $(value_of gpu001 State) Gres=$(value_of gpu001 Gres); $(grep -h error "$SLURM_ENV_DIR"/slurmd.gpu001.log "$log" | tail -n 2)"
else pass "$name" "gpu001 $(value_of gpu001 State) Gres=$(value_of gpu001 Gres) CPUTot=$(value_of gpu001 CPUTot)"; fi

# 11. the same again: nothing to do
name="apply --what nodes,gres again: nothing to do, no reconfigure"
before=$(reconfigures)
out=$(apply_nodes --node-class "gpu[001-008]=$dgx" 2>&1); rc=$?
if (( rc != 0 )) || [[ $out != *"nothing to do"* ]]; then fail "$name" "exit $rc: $out"
elif (( $(reconfigures) != before )); then fail "$name" "slurmctld was reconfigured"
else pass "$name"; fi

# 11b. a CPU count change (threads off): refused before anything is written
name="apply --what nodes with another CPU count: refused (exit 2), slurmctld untouched"
jq '.threads_per_core = 1' "$dgx" >"$WORK/dgx-noht.json"
before=$(reconfigures)
cp "$nodes_conf" "$WORK/nodes-before"
out=$(apply_nodes --node-class "gpu[001-008]=$WORK/dgx-noht.json" 2>&1); rc=$?
if (( rc != 2 )) || [[ $out != *"CPU count of 8 nodes"* ]]; then fail "$name" "exit $rc: $out"
elif ! cmp -s "$nodes_conf" "$WORK/nodes-before"; then fail "$name" "the node file changed"
elif (( $(reconfigures) != before )) || ! alive; then fail "$name" "slurmctld reconfigured or not answering"
else pass "$name" "$(grep -o 'CPU count of.*-> 112' <<<"$out")"; fi

# 12. a node the node files lack: that would remove it, which needs a restart: refused
name="apply --what nodes without gpu008's description: refused (exit 2), nothing changed"
before=$(reconfigures)
cp "$nodes_conf" "$WORK/nodes-before"
out=$(apply_nodes --node-class "gpu[001-007]=$dgx" 2>&1); rc=$?
if (( rc != 2 )) || [[ $out != *"remove 1 node"*gpu008* || $out != *restart* ]]; then fail "$name" "exit $rc: $out"
elif ! cmp -s "$nodes_conf" "$WORK/nodes-before"; then fail "$name" "the node file changed"
elif (( $(reconfigures) != before )) || ! alive; then fail "$name" "slurmctld reconfigured or not answering"
else pass "$name" "$(tail -n 1 <<<"$out" | head -c 160)"; fi

# 13. slurmctld down (a cluster not started yet): --dry-run still shows the change and says
# which checks it skipped; without --dry-run apply refuses. Last: it stops the controller.
name="slurmctld stopped: --dry-run shows the change (exit 0), apply refuses (exit 2)"
kill "$SLURM_ENV_CTLD_PID" 2>/dev/null; wait "$SLURM_ENV_CTLD_PID" 2>/dev/null
cp "$topo" "$WORK/topo-before"
other=$WORK/b.topo  # the fabric whose topology differs from the one in place
cmp -s "$topo" "$WORK/expected-b" && other=$WORK/a.topo
dry=$(apply --fabric "$other" --dry-run 2>&1); drc=$?
real=$(apply --fabric "$other" 2>&1); rrc=$?
if (( drc != 0 )) || [[ $dry != *"skipped the checks against the running controller"* || $dry != *"dry run"* ]]; then
  fail "$name" "dry run exit $drc: $dry"
elif (( rrc != 2 )) || [[ $real != *"does not answer"* ]]; then fail "$name" "apply exit $rrc: $real"
elif ! cmp -s "$topo" "$WORK/topo-before"; then fail "$name" "topology.conf changed"
else pass "$name" "$(grep -c '^  ' <<<"$dry") lines of change shown"; fi

echo "$passed passed, $failed failed ($(( ($(date +%s%N) - t_start) / 1000000 )) ms)"
(( failed == 0 ))
