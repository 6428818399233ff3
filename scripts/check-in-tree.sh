#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Check quic-cc as an ns-3 contrib module: copy it into contrib/quic-cc of an ns-3 source tree,
# configure and build that tree with ns-3's warning flags as errors (NS3_WARNINGS_AS_ERRORS=ON),
# then run every quic-cc TestSuite and the examples of test/examples-to-run.py through ns-3's own
# test.py. It ends with one line: the ns-3 version built, the build time and the suite results.
#
#   scripts/check-in-tree.sh [NS3_SOURCE]      (or: make check-in-tree NS3_SOURCE=...)
#
# NS3_SOURCE (argument or environment) is any ns-3 source, 3.37 to 3.48:
#   (empty) or "debian"   the ns-3.37 source package of Debian bookworm (apt-get source ns3);
#   an archive            ns-3.NN.tar.xz / .tar.bz2 / .tar.gz as nsnam publishes it (one top folder);
#   a directory           an ns-3 source tree (yours): copied, never modified.
# The tree is unpacked or copied into the cache once per source; later runs rebuild only what
# changed in quic-cc.
#
# Environment:
#   QUICCC_CACHE  where ns-3 sources and builds live, outside the repository
#                 (default: $HOME/.cache/quic-cc). Kept between runs.
#   JOBS          parallel build jobs (default: number of cores).
#
# Needs root or sudo the first time for Debian's source: it installs dpkg-dev/rsync and the other
# build tools if missing and, when apt has no deb-src entry, adds one mirroring the configured
# Debian archive. Any failure stops the script with a message saying which step failed.

set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${QUICCC_CACHE:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/quic-cc}"
JOBS="${JOBS:-$(nproc)}"
NS3_SOURCE="${1:-${NS3_SOURCE:-debian}}"
DEBIAN_NS3_VERSION=3.37
# The ns-3 modules quic-cc needs, plus csma: with --enable-tests, ns-3.37 builds src/test whose
# TCP system suites need it.
NS3_MODULES="quic-cc;core;network;internet;applications;point-to-point;point-to-point-layout;mobility;traffic-control;flow-monitor;stats;csma"
# What `./ns3 configure --enable-examples --enable-tests --enable-modules=...
# --filter-module-examples-and-tests=quic-cc` passes to CMake (default build profile), given to
# CMake directly: ./ns3 also sets CLICOLOR=1, which adds -fdiagnostics-color=always to every
# compile command, so a later CMake re-run without it (as `cmake --build` does when quic-cc's
# CMake files or globs change) would rebuild all of ns-3. Only quic-cc's own examples and tests
# are built: the rest of the tree is a dependency here.
NS3_CMAKE_ARGS=(-DCMAKE_BUILD_TYPE=default -DNS3_ASSERT=ON -DNS3_LOG=ON -DNS3_WARNINGS_AS_ERRORS=ON
                -DNS3_NATIVE_OPTIMIZATIONS=OFF -DNS3_EXAMPLES=ON -DNS3_TESTS=ON
                "-DNS3_ENABLED_MODULES=${NS3_MODULES}" -DNS3_FILTER_MODULE_EXAMPLES_AND_TESTS=quic-cc)
unset CLICOLOR
DEB_SRC_FILE=/etc/apt/sources.list.d/quic-cc-deb-src.sources

STEP="start"
T0=$(date +%s)
# shellcheck source=ns3-source.sh
. "$REPO/scripts/ns3-source.sh"
fail() { echo "check-in-tree: FAILED: $*" >&2; exit 1; }
trap 'rc=$?; [ $rc -eq 0 ] || echo "check-in-tree: FAILED in step \"$STEP\" (exit $rc)" >&2' EXIT
step() { STEP="$1"; echo; echo "=== check-in-tree: $1 ($(( $(date +%s) - T0 )) s elapsed)"; }
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

# ---------------------------------------------------------------------------------------------
step "host packages"
need=""
for p in dpkg-dev rsync python3 cmake g++ make libboost-dev nlohmann-json3-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need="$need $p"
done
if [ -n "$need" ]; then
  echo "installing:$need"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need
fi

# ---------------------------------------------------------------------------------------------
step "ns-3 source ($NS3_SOURCE)"
mkdir -p "$CACHE/src"
exec 9>"$CACHE/lock"
flock -n 9 || { echo "waiting for another check-in-tree run (lock $CACHE/lock)"; flock 9; }

if [ "$NS3_SOURCE" = debian ]; then
NS3_DIR=""
find_tree() { NS3_DIR="$(ls -d "$CACHE"/src/ns3-"${DEBIAN_NS3_VERSION}"*/ns-"${DEBIAN_NS3_VERSION}" 2>/dev/null | head -n 1 || true)"; }
find_tree
if [ -z "$NS3_DIR" ] || [ ! -x "$NS3_DIR/ns3" ]; then
  if ! apt-cache showsrc ns3 2>/dev/null | grep -q "^Version: ${DEBIAN_NS3_VERSION}"; then
    # No deb-src entry yet: mirror every Debian "deb" entry of the main archive as "deb-src".
    echo "adding deb-src entries in $DEB_SRC_FILE"
    python3 - "$DEB_SRC_FILE" <<'PY' | $SUDO tee "$DEB_SRC_FILE" >/dev/null
import glob, re, sys
out = []
# deb822 files
for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
    if path == sys.argv[1]:
        continue
    for stanza in re.split(r"\n\s*\n", open(path).read()):
        fields = {}
        for line in stanza.splitlines():
            m = re.match(r"^([A-Za-z-]+):\s*(.*)$", line)
            if m:
                fields[m.group(1)] = m.group(2).strip()
        if "deb" not in fields.get("Types", "").split():
            continue
        if not re.search(r"/debian/?$", fields.get("URIs", "")):
            continue  # debian-security, third-party repositories
        lines = ["Types: deb-src"] + [f"{k}: {v}" for k, v in fields.items()
                                      if k in ("URIs", "Suites", "Components", "Signed-By")]
        out.append("\n".join(lines))
# one-line format
for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
    try:
        text = open(path).read()
    except OSError:
        continue
    for line in text.splitlines():
        m = re.match(r"^\s*deb\s+(\[[^]]*\]\s+)?(\S+/debian/?)\s+(\S+)\s+(.+)$", line)
        if m:
            out.append("Types: deb-src\nURIs: %s\nSuites: %s\nComponents: %s"
                       % (m.group(2), m.group(3), m.group(4).split("#")[0].strip()))
if not out:
    sys.exit("no Debian 'deb' entry found in /etc/apt/sources.list*; add a deb-src line for "
             "bookworm by hand")
print("# Added by quic-cc scripts/check-in-tree.sh: source packages (apt-get source ns3).")
print("\n\n".join(out))
PY
    $SUDO apt-get update -qq
  fi
  apt-cache showsrc ns3 2>/dev/null | grep -q "^Version: ${DEBIAN_NS3_VERSION}" \
    || fail "apt has no ns3 ${DEBIAN_NS3_VERSION} source package (need Debian bookworm deb-src)"
  (cd "$CACHE/src" && apt-get source -q ns3)
  find_tree
  [ -n "$NS3_DIR" ] && [ -x "$NS3_DIR/ns3" ] \
    || fail "apt-get source ns3 did not unpack an ns-${DEBIAN_NS3_VERSION} tree under $CACHE/src"
fi
else
  ns3_source_tree "$NS3_SOURCE" "$CACHE/src" ""
fi
NS3_RELEASE="$(cat "$NS3_DIR/VERSION" 2>/dev/null || basename "$NS3_DIR")"
echo "ns-3 tree: $NS3_DIR (version ${NS3_RELEASE})"
case "$NS3_DIR" in "$REPO"/*) fail "cache $CACHE is inside the repository";; esac

# ccache (ns-3 uses it when installed) keyed on paths relative to the tree.
export CCACHE_BASEDIR="$NS3_DIR"

# ---------------------------------------------------------------------------------------------
step "copy quic-cc into contrib/quic-cc"
# By content (--checksum), without keeping modification times: a file whose content is unchanged
# is left alone (its object stays current), a changed one is written now, so the build sees it as
# newer than any object the cached tree holds, even when the source's own time is older (another
# checkout built that object).
rsync -rlp --checksum --delete \
  --exclude='/.git/' --exclude='/build*/' --exclude='/results/' --exclude='__pycache__/' \
  --exclude='*.pyc' "$REPO/" "$NS3_DIR/contrib/quic-cc/"

# ---------------------------------------------------------------------------------------------
step "configure"
cd "$NS3_DIR"
stamp="$NS3_DIR/.quic-cc-configure-args"
want="${NS3_CMAKE_ARGS[*]}"
if [ ! -f cmake-cache/CMakeCache.txt ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  rm -f "$stamp"
  generator=()
  if [ ! -f cmake-cache/CMakeCache.txt ]; then
    if command -v ninja >/dev/null; then generator=(-G Ninja); else generator=(-G "Unix Makefiles"); fi
  fi
  cmake -S . -B cmake-cache "${generator[@]}" "${NS3_CMAKE_ARGS[@]}"
  echo "$want" >"$stamp"
else
  echo "already configured with: $want (CMake re-runs by itself if quic-cc's CMake files changed)"
fi

# ---------------------------------------------------------------------------------------------
step "build (-j ${JOBS})"
tb=$(date +%s)
# Not `./ns3 build -j N`: ns-3.37's ns3 script caps jobs at (cores - 1), one job on 2 cores.
cmake --build cmake-cache -j "$JOBS"
build_s=$(( $(date +%s) - tb ))
echo "build took ${build_s} s"
ls build/lib/libns3-quic-cc*.so* >/dev/null 2>&1 || ls build/lib/libns*quic-cc*.so >/dev/null 2>&1 \
  || fail "no libquic-cc in $NS3_DIR/build/lib"

# ---------------------------------------------------------------------------------------------
# test.py prints "[k/n] PASS: <kind> <name>", coloured on a terminal.
passed() { sed -e 's/\x1b\[[0-9;]*m//g' -e 's/^\[[0-9]*\/[0-9]*\] //' "$1" | grep -qxF "PASS: $2"; }
# Suites and examples come from the copy just built, not from the work tree (which may have
# moved on since the copy).
MODULE="$NS3_DIR/contrib/quic-cc"
# Every TestSuite("name", ...) constructor call in test/*.cc, as CMakeLists.txt finds them.
suites="$(sed -n 's/.*TestSuite("\([^"]*\)".*/\1/p' "$MODULE"/test/*.cc | tr '\n' ' ')"
[ -n "$suites" ] || fail "no TestSuite(\"name\", ...) in contrib/quic-cc/test/*.cc"
results=""
for suite in $suites; do
  step "test.py -s $suite"
  out="$(mktemp)"
  ./test.py --no-build --fullness=EXTENSIVE -s "$suite" 2>&1 | tee "$out" || fail "test.py -s $suite exited non-zero"
  passed "$out" "TestSuite $suite" || fail "test.py did not report 'PASS: TestSuite $suite'"
  results="$results $suite=PASS"
  rm -f "$out"
done

step "test.py examples (contrib/quic-cc/test/examples-to-run.py)"
examples="$(python3 -c 'import runpy,sys; print("\n".join(e[0] for e in runpy.run_path(sys.argv[1])["cpp_examples"]))' \
            "$MODULE/test/examples-to-run.py")"
[ -n "$examples" ] || fail "test/examples-to-run.py lists no C++ example"
out="$(mktemp)"
./test.py --no-build --constrain=example 2>&1 | tee "$out" || fail "test.py --constrain=example exited non-zero"
while IFS= read -r ex; do
  passed "$out" "Example contrib/quic-cc/examples/$ex" \
    || fail "test.py did not report 'PASS: Example contrib/quic-cc/examples/$ex'"
  nexamples=$((${nexamples:-0} + 1))
done <<<"$examples"
rm -f "$out"

STEP="done"
echo
total=$(( $(date +%s) - T0 ))
# user and system CPU time of every command run (times, not in a subshell: its children)
times >"$CACHE/.times" && cpu="$(tail -n 1 "$CACHE/.times")"
echo "check-in-tree: OK: ns-3 ${NS3_RELEASE} in-tree (source: $NS3_SOURCE), total ${total} s, build ${build_s} s (-j ${JOBS}; CPU user/sys of the whole check ${cpu}), test.py:${results} examples=${nexamples}/${nexamples} PASS"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) ok ns-3=${NS3_RELEASE} total=${total}s build=${build_s}s jobs=${JOBS}" >>"$CACHE/check-in-tree-times.log"
