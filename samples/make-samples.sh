#!/usr/bin/env bash
# Regenerates the bundled sample fabrics with slurmtopo's own generator, then breaks the
# SuperPOD sample the way real fabrics break, by editing the ibnetdiscover text (both ends of
# every cable, as a real sweep would print them). Deterministic: same slurmtopo, same bytes.
#
#   samples/make-samples.sh [path/to/slurmtopo]     (default: build/slurmtopo)
#
# Writes samples/superpod-4su.topo and samples/fattree-2level.topo. The hand-written samples
# (site.yaml, slurm.conf, slurm-nodes-extra.conf) describe these fabrics; see README.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
slurmtopo="${1:-$here/../build/slurmtopo}"
[[ -x $slurmtopo ]] || { echo "make-samples.sh: no slurmtopo at $slurmtopo (build first)" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# fabric_edit OP ... < in > out: one cable edited on both ends. A cable is named by one end,
# a switch (its name in the "MF0;<name>:<model>" description, or the whole description) and
# a port; the other end is found from that port's line.
#   remove  SWITCH PORT                 delete the cable (both port lines)
#   degrade SWITCH PORT FROM TO         e.g. 4xNDR 1xNDR: a link that trained narrow
#   swap    SWITCH1 PORT1 SWITCH2 PORT2 cross two switch-to-CA cables: the CA on PORT1 now
#                                       hangs off SWITCH2 PORT2 and the other way round
fabric_edit() {
  local op=$1 s1=$2 p1=$3 a3=${4:-} a4=${5:-} in
  in="$(mktemp -p "$tmp")"  # awk reads its input twice; each edit in the pipe has its own
  cat >"$in"
  awk -v op="$op" -v s1="$s1" -v p1="$p1" -v a3="$a3" -v a4="$a4" '
    function node_token(line) {  # "S-<guid>" of a Switch/Ca/Rt header, quotes kept
      return match(line, /"[SHR]-[0-9a-fA-F]+"/) ? substr(line, RSTART, RLENGTH) : ""
    }
    function port_of(line) {  # the leading [N] of a port line
      return match(line, /^\[[0-9]+\]/) ? substr(line, 2, RLENGTH - 2) + 0 : -1
    }
    function description(line) {
      return match(line, /# "[^"]*"/) ? substr(line, RSTART + 3, RLENGTH - 4) : ""
    }
    # The far end of a port line: its "X-guid" token and [port].
    function far(line) {
      if (!match(line, /"[SHR]-[0-9a-fA-F]+"\[[0-9]+\]/)) return ""
      return substr(line, RSTART, RLENGTH)
    }
    function far_token(f) { return substr(f, 1, index(f, "[") - 1) }
    function far_port(f) { return substr(f, index(f, "[") + 1, length(f) - index(f, "[") - 1) + 0 }
    function find(name, port,   t) {
      t = (name in token) ? token[name] : ""
      if (t == "" || !((t, port) in text)) { print "fabric_edit: no cable at " name " port " port > "/dev/stderr"; exit 2 }
      return t
    }
    # Switch port line: everything from the far end on is about the far end.
    function switch_far_part(line) { match(line, /"[SHR]-/); return substr(line, RSTART) }
    function switch_near_part(line) { match(line, /"[SHR]-/); return substr(line, 1, RSTART - 1) }
    # CA port line: [1](pg) <far token>[p]  # lid L lmc M "<far desc>" lid FL WxS
    # near = up to the far token, own = "# lid L lmc M ", tail = the far description on.
    function ca_split(line) {
      match(line, /"[SHR]-[0-9a-fA-F]+"\[[0-9]+\]/)
      ca_near = substr(line, 1, RSTART - 1)
      ca_far = substr(line, RSTART, RLENGTH)
      rest = substr(line, RSTART + RLENGTH)
      if (match(rest, /lmc [0-9]+ /)) { ca_own = substr(rest, 1, RSTART + RLENGTH - 1); ca_tail = substr(rest, RSTART + RLENGTH) }
      else { ca_own = rest; ca_tail = "" }
    }

    NR == FNR {
      if ($0 ~ /^(Switch|Ca|Rt)[ \t]/) {
        cur = node_token($0)
        if ($0 ~ /^Switch/) {
          d = description($0); token[d] = cur
          sub(/^MF0;/, "", d); sub(/:.*/, "", d); token[d] = cur
        }
        next
      }
      if ($0 ~ /^$/) { cur = ""; next }
      if (cur != "" && $0 ~ /^\[/) text[cur, port_of($0)] = $0
      next
    }

    FNR == 1 {  # between the passes: resolve both ends of the cables to edit
      t1 = find(s1, p1); f1 = far(text[t1, p1])
      r1 = far_token(f1); rp1 = far_port(f1)
      if (!((r1, rp1) in text)) { print "fabric_edit: far end of " s1 " port " p1 " has no line" > "/dev/stderr"; exit 2 }
      if (op == "swap") {
        t2 = find(a3, a4 + 0); p2 = a4 + 0; f2 = far(text[t2, p2])
        r2 = far_token(f2); rp2 = far_port(f2)
        if (r1 !~ /^"H-/ || r2 !~ /^"H-/) { print "fabric_edit: swap takes two switch-to-CA cables" > "/dev/stderr"; exit 2 }
        # The switches swap far ends; each CA gets the other switch end and its description.
        sw_new[t1, p1] = switch_near_part(text[t1, p1]) switch_far_part(text[t2, p2])
        sw_new[t2, p2] = switch_near_part(text[t2, p2]) switch_far_part(text[t1, p1])
        ca_split(text[r2, rp2]); far2 = ca_far; tail2 = ca_tail
        ca_split(text[r1, rp1]); ca_new[r1, rp1] = ca_near far2 ca_own tail2
        far1 = ca_far; tail1 = ca_tail
        ca_split(text[r2, rp2]); ca_new[r2, rp2] = ca_near far1 ca_own tail1
      } else if (op != "remove" && op != "degrade") {
        print "fabric_edit: unknown op " op > "/dev/stderr"; exit 2
      }
      cur = ""
    }

    {
      if ($0 ~ /^(Switch|Ca|Rt)[ \t]/) cur = node_token($0)
      else if ($0 ~ /^$/) cur = ""
      else if (cur != "" && $0 ~ /^\[/) {
        p = port_of($0)
        hit = (cur == t1 && p == p1) || (cur == r1 && p == rp1)
        if (op == "remove" && hit) next
        if (op == "degrade" && hit) {
          if (!sub(a3, a4)) { print "fabric_edit: no " a3 " on: " $0 > "/dev/stderr"; exit 2 }
        }
        if (op == "swap") {
          if ((cur, p) in sw_new) $0 = sw_new[cur, p]
          else if ((cur, p) in ca_new) $0 = ca_new[cur, p]
        }
      }
      print
    }
  ' "$in" "$in"
}

# --- superpod-4su.topo -------------------------------------------------------------------
# DGX SuperPOD style: 4 scalable units x 16 hosts x 8 compute rails, NDR, SHARP on every
# switch; each SU has one leaf per rail (su<s>-rail<r>), each rail plane one spine.
"$slurmtopo" generate railopt --scalable-units 4 --hosts-per-su 16 --rails 8 --sharp \
  -o "$tmp/superpod.clean"
# Faults, one of each kind a commissioning sweep finds:
#  1. crossed cables: dgx005 mlx5_3 (SU 1) and dgx021 mlx5_3 (SU 2) are on each other's
#     su<s>-rail3 port 5, so each host has one rail on another SU's leaf (miscabled rail);
#  2. a missing spine cable: su4-rail5's uplink on port 32 is gone (missing uplinks);
#  3. a degraded link: su2-rail6 port 24 to rail6-spine01 trained at 1x (degraded link);
#  4. an unnamed HCA: dgx040 mlx5_6 still has the ConnectX-7 factory node description, so
#     no host name can be read from it (unresolved HCA).
fabric_edit swap su1-rail3 5 su2-rail3 5 <"$tmp/superpod.clean" |
  fabric_edit remove su4-rail5 32 |
  fabric_edit degrade su2-rail6 24 4xNDR 1xNDR |
  sed 's/"dgx040 mlx5_6"/"MT4129 ConnectX7   Mellanox Technologies"/g' \
    >"$tmp/superpod.topo"
# Each edit must have landed (and only once): count what the faults leave behind.
expect() {  # expect WHAT COUNT ACTUAL
  [[ $3 == "$2" ]] || { echo "make-samples.sh: expected $2 $1, found $3" >&2; exit 1; }
}
expect "factory-named HCA lines" 2 "$(grep -c 'MT4129 ConnectX7' "$tmp/superpod.topo")"
expect "1x port lines" 2 "$(grep -c '1xNDR' "$tmp/superpod.topo")"
expect "lines" $(($(wc -l <"$tmp/superpod.clean") - 2)) "$(wc -l <"$tmp/superpod.topo")"
expect "changed lines" 8 "$(diff "$tmp/superpod.clean" "$tmp/superpod.topo" | grep -c '^>')"
# Say so in the file itself, after the writer's header comment.
{
  sed -n '1,3p' "$tmp/superpod.topo"
  cat <<'EOF'
# samples/make-samples.sh added these faults to the generated fabric (slurmtopo inspect
# reports each): crossed cables dgx005 mlx5_3 <-> dgx021 mlx5_3 on su1-rail3/su2-rail3
# port 5; su4-rail5 port 32 uplink missing; su2-rail6 port 24 uplink at 1xNDR; dgx040
# mlx5_6 with its factory node description.
#
EOF
  sed '1,3d' "$tmp/superpod.topo"
} >"$here/superpod-4su.topo"

# --- fattree-2level.topo -----------------------------------------------------------------
# A small HDR 2-level fat tree, 2:1 oversubscribed: radix 12 gives each leaf 8 host ports and
# 4 uplinks, one to each of 4 spines; 64 hosts fill 8 leaves.
"$slurmtopo" generate fattree --levels 2 --radix 12 --oversubscription 2 --hosts 64 \
  --speed HDR --host-prefix cn -o "$here/fattree-2level.topo"

echo "wrote $here/superpod-4su.topo and $here/fattree-2level.topo"
