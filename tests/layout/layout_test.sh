#!/usr/bin/env bash
# The layout, enforced: every folder includes and calls only the folders CMakeLists.txt lets it
# use (SLURMTOPO_LAYERS, written to layers.txt at configure time), cli/ includes only their
# public headers (FOLDER/NAME.h), and every folder has one. First a fixture tree with a
# backward include and a backward call proves the check can fail.
#
#   layout_test.sh SOURCE_DIR LAYERS_TXT ARCHIVE...
set -uo pipefail
src=$1 layers=$2
shift 2
archives=("$@")

declare -A uses        # folder -> direct uses
declare -a folders
while IFS= read -r line; do
  [[ -n $line ]] || continue
  f=${line%%:*}
  folders+=("$f")
  uses[$f]=${line#*:}
done <"$layers"

# allowed[F]: F's uses, transitively.
declare -A allowed
closure() {
  local f=$1 out="" todo=(${uses[$1]}) seen=" " u
  while ((${#todo[@]})); do
    u=${todo[0]}
    todo=("${todo[@]:1}")
    [[ $seen == *" $u "* ]] && continue
    seen+="$u "
    out+="$u "
    todo+=(${uses[$u]})
  done
  echo "$out"
}
for f in "${folders[@]}"; do allowed[$f]=$(closure "$f"); done

public_header() { echo "$1/${1##*/}.h"; }

# check_includes ROOT: prints one line per include against the layout; status 1 if any.
check_includes() {
  local root=$1 bad=0 f file dir hit
  for f in "${folders[@]}" cli; do
    for file in "$root/$f"/*.h "$root/$f"/*.cc; do
      [[ -f $file ]] || continue
      while IFS=: read -r n hit; do
        local inc=${hit#*\"}
        inc=${inc%\"*}
        dir=${inc%/*}
        [[ $dir == "$f" ]] && continue
        if [[ $f == cli ]]; then
          if [[ " ${folders[*]} " == *" $dir "* && $inc == "$(public_header "$dir")" ]]; then continue; fi
          echo "${file#"$root"/}:$n: includes $inc: cli/ includes only the folders' public headers"
          bad=1
          continue
        fi
        if [[ " ${allowed[$f]} " != *" $dir "* ]]; then
          echo "${file#"$root"/}:$n: includes $inc: $f/ may use only: ${allowed[$f]:-nothing}"
          bad=1
        fi
      done < <(grep -n '^#include "[a-z_/]*\.h"' "$file")
    done
  done
  for f in "${folders[@]}"; do
    if [[ ! -f $root/$(public_header "$f") ]]; then
      echo "$f/ has no public header $(public_header "$f")"
      bad=1
    fi
  done
  return $bad
}

folder_of_archive() { # libslurmtopo_whatif.a -> simulate/whatif
  local name=${1##*/libslurmtopo_} f
  name=${name%.a}
  for f in "${folders[@]}"; do [[ ${f##*/} == "$name" ]] && { echo "$f"; return; }; done
}

# check_symbols ARCHIVE...: an archive that needs a symbol defined only in a folder it may not use.
check_symbols() {
  local bad=0 a f sym owner
  declare -A defined_in
  for a in "$@"; do
    f=$(folder_of_archive "$a")
    while read -r sym; do defined_in[$sym]=$f; done < <(nm --defined-only -g "$a" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[TDBR]$/ {print $3}')
  done
  for a in "$@"; do
    f=$(folder_of_archive "$a")
    while read -r sym; do
      owner=${defined_in[$sym]:-}
      [[ -z $owner || $owner == "$f" ]] && continue
      if [[ " ${allowed[$f]} " != *" $owner "* ]]; then
        echo "$f/ calls $(c++filt "$sym") from $owner/, which it may not use"
        bad=1
      fi
    done < <(nm --undefined-only -g "$a" 2>/dev/null | awk 'NF == 2 && $1 == "U" {print $2}' | sort -u)
  done
  return $bad
}

fail=0
# Controls: a fixture where base/ includes graph/ and cli/ includes a private header.
fixture=$(mktemp -d)
trap 'rm -rf "$fixture"' EXIT
for f in "${folders[@]}" cli; do mkdir -p "$fixture/$f"; touch "$fixture/$(public_header "$f")"; done
rm -f "$fixture/cli/cli.h"
echo '#include "graph/cluster.h"' >"$fixture/base/files.cc"
echo '#include "emit/topology_plan.h"' >"$fixture/cli/emit_command.cc"
control=$(check_includes "$fixture")
if [[ $control != *"base/files.cc:1: includes graph/cluster.h"* || $control != *"cli/emit_command.cc:1: includes emit/topology_plan.h"* ]]; then
  echo "FAIL: the include check did not catch the fixture's backward includes:"
  echo "$control"
  fail=1
fi
# A backward call: an object of base/ that needs a symbol graph/ defines.
if command -v c++ >/dev/null; then
  printf 'int graph_only_symbol() { return 1; }\n' >"$fixture/g.cc"
  printf 'int graph_only_symbol();\nint base_user() { return graph_only_symbol(); }\n' >"$fixture/b.cc"
  c++ -c "$fixture/g.cc" -o "$fixture/g.o" && c++ -c "$fixture/b.cc" -o "$fixture/b.o" &&
    ar rcs "$fixture/libslurmtopo_graph.a" "$fixture/g.o" && ar rcs "$fixture/libslurmtopo_base.a" "$fixture/b.o"
  control=$(check_symbols "$fixture/libslurmtopo_base.a" "$fixture/libslurmtopo_graph.a")
  if [[ $control != *"base/ calls graph_only_symbol() from graph/"* ]]; then
    echo "FAIL: the symbol check did not catch the fixture's backward call: $control"
    fail=1
  fi
fi

if ! check_includes "$src"; then fail=1; fi
if ! check_symbols "${archives[@]}"; then fail=1; fi
if ((fail)); then exit 1; fi
echo "layout: ${#folders[@]} folders and cli/ include and call only what they may use"
