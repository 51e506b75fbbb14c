#!/usr/bin/env bash
# The .deb as an admin gets it: cpack builds it, lintian finds nothing but the documented
# overrides, `apt-get install ./slurmtopo_*.deb` installs it with the Depends dpkg-shlibdeps
# computed, `slurmtopo --version`, `man slurmtopo-emit` and `man slurmtopo-emit-topology` (with
# EXIT STATUS and EXAMPLES), bash and zsh completion work from the installed files, and
# `apt-get purge` leaves none of them behind. Then the same .deb in a fresh Debian root (what a
# new machine has: mmdebstrap's apt variant with man-db and the .deb's Depends, cached in
# /var/cache/slurmtopo/chroots), where `dpkg -i` and `man slurmtopo-emit-topology` must work.
#
#   bash tests/integration/deb_package_test.sh /path/to/build/slurmtopo
#
# Exit 0 all passed, 1 a failure, 77 skipped (not root, a tool missing, or slurmtopo already
# installed on this machine — the test never removes a package it did not install).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/build/slurmtopo}
build=$(cd "$(dirname "$SLURMTOPO")" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

skip() { echo "SKIP: $*"; exit 77; }
(( EUID == 0 )) || skip "needs root (apt-get install)"
for tool in cpack dpkg-shlibdeps lintian man apt-get help2man; do
  command -v "$tool" >/dev/null || skip "$tool not installed"
done
[[ -f $build/CPackConfig.cmake ]] || { echo "FAIL: $build/CPackConfig.cmake missing (configure with cmake)"; exit 1; }
if dpkg-query -W -f='${Status}' slurmtopo 2>/dev/null | grep -q 'ok installed'; then
  skip "slurmtopo is already installed here; not touching it"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/deb_package_test.XXXXXX")
installed=0
cleanup() {
  (( installed )) && DEBIAN_FRONTEND=noninteractive apt-get purge -y slurmtopo >/dev/null 2>&1
  [[ -n ${KEEP_WORK:-} ]] || rm -rf "$WORK"
}
trap cleanup EXIT
passed=0 failed=0
pass() { echo "PASS: $1${2:+ ($2)}"; passed=$(( passed + 1 )); }
fail() { echo "FAIL: $1: $2"; failed=$(( failed + 1 )); }
t_start=$(date +%s%N)
version=$(sed -n 's/^project(slurmtopo VERSION \([0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")

name="cpack builds slurmtopo_${version}_*.deb"
t0=$(date +%s%N)
if ! (cd "$WORK" && cpack --config "$build/CPackConfig.cmake" -B "$WORK/pkg" >"$WORK/cpack.log" 2>&1); then
  fail "$name" "$(tail -n 5 "$WORK/cpack.log" | tr '\n' ' ')"
  echo "$passed passed, $failed failed"; exit 1
fi
deb=$(ls "$WORK"/pkg/slurmtopo_"${version}"_*.deb 2>/dev/null | head -n 1)
if [[ -z $deb ]]; then fail "$name" "no .deb in $WORK/pkg: $(ls "$WORK/pkg")"; exit 1; fi
pass "$name" "$(basename "$deb"), $(( $(stat -c %s "$deb") / 1024 )) KiB, $(( ($(date +%s%N) - t0) / 1000000 )) ms"

name="Depends computed by dpkg-shlibdeps: the libraries the binary links"
depends=$(dpkg-deb -f "$deb" Depends)
missing=""
for lib in libc6 libstdc++6 libibnetdisc5 libhwloc15 libyaml-cpp0.7; do
  [[ $depends == *"$lib"* ]] || missing+=" $lib"
done
if [[ -n $missing ]]; then fail "$name" "lacks$missing: $depends"; else pass "$name" "$depends"; fi

name="lintian: no error or warning"
lintian --fail-on none --suppress-tags-from-file /dev/null "$deb" >"$WORK/lintian.out" 2>&1
if grep -E '^[EW]: ' "$WORK/lintian.out" >"$WORK/lintian.bad"; then
  fail "$name" "$(head -n 8 "$WORK/lintian.bad" | tr '\n' ' ')"
else pass "$name" "$(grep -c '^[IN]: ' "$WORK/lintian.out") info/notes, $(grep -c '^O: ' "$WORK/lintian.out") overridden"; fi

name="apt-get install ./$(basename "$deb")"
cp "$deb" "$WORK/"
if (cd "$WORK" && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "./$(basename "$deb")" \
      >"$WORK/install.log" 2>&1 </dev/null); then
  installed=1
  pass "$name"
else
  fail "$name" "$(tail -n 5 "$WORK/install.log" | tr '\n' ' ')"
  echo "$passed passed, $failed failed"; exit 1
fi
dpkg -L slurmtopo >"$WORK/files"

name="/usr/bin/slurmtopo --version"
v=$(/usr/bin/slurmtopo --version 2>&1)
if [[ $v == "slurmtopo $version" ]]; then pass "$name" "$v"; else fail "$name" "said '$v'"; fi

name="man slurmtopo-emit (and a page per command)"
page=$(man -w slurmtopo-emit 2>&1)
pages=$(grep -c '/usr/share/man/man1/slurmtopo.*\.1\.gz$' "$WORK/files")
if [[ $page != /usr/share/man/man1/slurmtopo-emit.1.gz ]]; then fail "$name" "man -w: $page"
elif ! MANPAGER=cat MANWIDTH=100 man slurmtopo-emit 2>/dev/null | grep -q 'topology'; then fail "$name" "page lacks its commands"
elif ! man -w slurmtopo-apply >/dev/null 2>&1; then fail "$name" "no slurmtopo-apply page"
else pass "$name" "$pages pages"; fi

name="man slurmtopo-emit-topology: EXIT STATUS and EXAMPLES"
page=$(man -w slurmtopo-emit-topology 2>&1)
out=$(MANPAGER=cat MANWIDTH=100 man slurmtopo-emit-topology 2>&1)
if [[ $page != /usr/share/man/man1/slurmtopo-emit-topology.1.gz ]]; then fail "$name" "man -w: $page"
elif [[ $out != *$'\nEXIT STATUS\n'* || $out != *$'\nEXAMPLES\n'* ]]; then fail "$name" "$(head -c 400 <<<"$out" | tr '\n' ' ')"
elif ! MANPAGER=cat MANWIDTH=100 man slurmtopo-report 2>/dev/null | sed -n '/^EXIT STATUS/,/^EXAMPLES/p' | grep -q WARN; then
  fail "$name" "slurmtopo-report's EXIT STATUS lacks WARN"
else pass "$name"; fi

name="bash completion from the installed file"
comp=/usr/share/bash-completion/completions/slurmtopo
out=$(bash -c "source $comp && complete -p slurmtopo && COMP_WORDS=(slurmtopo ap); COMP_CWORD=1; _slurmtopo; echo \"\${COMPREPLY[*]}\"" 2>&1)
if [[ $out == *"-F _slurmtopo slurmtopo"* && $out == *$'\n'apply ]]; then pass "$name"; else fail "$name" "$out"; fi

name="zsh completion: /usr/share/zsh/vendor-completions/_slurmtopo, parsed and used by zsh"
zcomp=/usr/share/zsh/vendor-completions/_slurmtopo
if [[ ! -f $zcomp ]]; then fail "$name" "not installed"
elif [[ $(head -n 1 "$zcomp") != "#compdef slurmtopo" ]]; then fail "$name" "first line: $(head -n 1 "$zcomp")"
elif ! command -v zsh >/dev/null; then
  if [[ ${SLURMTOPO_NO_SKIPS:-} == 1 ]]; then fail "$name" "zsh not installed (.ci/run installs it)"
  else echo "NOTE: zsh not installed; $zcomp not run"; fi
else
  out=$(zsh -f -c "compadd() { print -r -- \"\$*\"; }; source $zcomp 2>/dev/null; words=(slurmtopo ap); CURRENT=2; _slurmtopo" 2>&1)
  if zsh -n "$zcomp" && [[ $out == *"-- "*apply* ]]; then pass "$name"; else fail "$name" "$out"; fi
fi

name="the example systemd units pass systemd-analyze verify (with the installed man page)"
if command -v systemd-analyze >/dev/null; then
  mkdir -p "$WORK/units"
  cp /usr/share/doc/slurmtopo/examples/systemd/slurmtopo-apply.* "$WORK/units/"
  out=$(timeout 60 systemd-analyze verify "$WORK/units/slurmtopo-apply.service" "$WORK/units/slurmtopo-apply.timer" 2>&1)
  if [[ -z $out ]]; then pass "$name"; else fail "$name" "$(head -n 3 <<<"$out" | tr '\n' ' ')"; fi
else
  echo "NOTE: systemd-analyze not installed; units not verified"
fi

name="apt-get purge leaves nothing behind"
if ! DEBIAN_FRONTEND=noninteractive apt-get purge -y slurmtopo >"$WORK/purge.log" 2>&1; then
  fail "$name" "$(tail -n 3 "$WORK/purge.log" | tr '\n' ' ')"
else
  installed=0
  left=""
  while IFS= read -r f; do
    # Directories other packages share (/usr, /usr/share/man/man1) stay; ours must go.
    if [[ -f $f || -L $f ]]; then left+=" $f"; fi
    if [[ -d $f && $f == */slurmtopo* ]]; then left+=" $f/"; fi
  done <"$WORK/files"
  if dpkg-query -W -f='${Status}' slurmtopo 2>/dev/null | grep -q installed; then left+=" (dpkg still lists it)"; fi
  if [[ -n $left ]]; then fail "$name" "left:$left"; else pass "$name" "$(wc -l <"$WORK/files") paths checked"; fi
fi

name="a fresh Debian root: dpkg -i the .deb, then man slurmtopo-emit-topology and slurmtopo --version"
fresh_root() { # prints the unpacked root's tar (built once under a lock, keyed by its packages)
  local suite=$1 packages=$2 cache=${SLURMTOPO_ROOT_CACHE:-/var/cache/slurmtopo/chroots} key base
  key=$(printf '%s\n' "$suite" "$packages" "deb-test recipe 1" | sha256sum | cut -c1-12)
  base=$cache/$suite-deb-$key
  mkdir -p "$cache" || return 1
  (
    flock -w 1800 9 || exit 1
    [[ -s $base.tar ]] && exit 0
    mmdebstrap --variant=apt --format=tar --quiet --include="$packages" "$suite" "$base.tar.part" \
      >"$base.build.log" 2>&1 || { tail -n 5 "$base.build.log" >&2; rm -f "$base.tar.part"; exit 1; }
    mv "$base.tar.part" "$base.tar"
  ) 9>"$base.lock" || return 1
  echo "$base.tar"
}
if ! command -v mmdebstrap >/dev/null || ! command -v chroot >/dev/null; then
  if [[ ${SLURMTOPO_NO_SKIPS:-} == 1 ]]; then fail "$name" "mmdebstrap not installed (.ci/run installs it)"
  else echo "NOTE: mmdebstrap not installed; no fresh root"; fi
else
  # The Depends as package names (the first of alternatives, no versions), and man-db.
  packages=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/ //g' | grep . | sort -u | paste -sd, -)
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  if ! tar=$(fresh_root "$suite" "man-db,$packages" 2>"$WORK/root.err"); then
    fail "$name" "mmdebstrap $suite: $(tr '\n' ' ' <"$WORK/root.err")"
  else
    root=$WORK/root
    mkdir -p "$root" && tar -C "$root" -xf "$tar" && cp "$deb" "$root/tmp/slurmtopo.deb"
    if ! chroot "$root" dpkg -i /tmp/slurmtopo.deb >"$WORK/root-dpkg.log" 2>&1; then
      fail "$name" "dpkg -i: $(tail -n 3 "$WORK/root-dpkg.log" | tr '\n' ' ')"
    else
      out=$(chroot "$root" env LC_ALL=C MANPAGER=cat MANWIDTH=100 man slurmtopo-emit-topology 2>&1)
      v=$(chroot "$root" slurmtopo --version 2>&1)
      if [[ $out != *$'\nEXIT STATUS\n'* || $out != *$'\nEXAMPLES\n'* ]]; then fail "$name" "$(head -c 400 <<<"$out" | tr '\n' ' ')"
      elif [[ $v != "slurmtopo $version" ]]; then fail "$name" "slurmtopo --version said '$v'"
      else pass "$name" "$suite root, $(wc -l <<<"$out") lines of man page"; fi
    fi
    rm -rf "$root"
  fi
fi

echo "$passed passed, $failed failed ($(( ($(date +%s%N) - t_start) / 1000000 )) ms)"
(( failed == 0 ))
