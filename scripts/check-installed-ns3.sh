#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Check quic-cc standalone against an ns-3 that `./ns3 install` put in a prefix, the route of
# users who build ns-3 themselves: build ns-3 from a source archive or tree (without quic-cc),
# install it into a prefix, then configure quic-cc against that prefix (CMAKE_PREFIX_PATH) and
# run its whole ctest suite there, the installed-consumer test included. Ends with one line:
# the ns-3 version, the build times and the ctest result.
#
#   scripts/check-installed-ns3.sh NS3_SOURCE    (or: make check-installed-ns3 NS3_SOURCE=...)
#
# NS3_SOURCE: an ns-3 source archive (ns-3.NN.tar.xz, one top folder) or source tree, >= 3.37.
# Environment: QUICCC_CACHE (default $HOME/.cache/quic-cc: ns-3 tree, its build and prefix, and
# quic-cc's build directory, kept between runs), JOBS (default: number of cores), NGTCP2_ARCHIVE
# (the ngtcp2 release archive for the ngtcp2 transport, as for `make test`).

set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${QUICCC_CACHE:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/quic-cc}"
JOBS="${JOBS:-$(nproc)}"
NS3_SOURCE="${1:-${NS3_SOURCE:-}}"
# The modules quic-cc links, and their dependencies.
NS3_MODULES="core;network;internet;applications;point-to-point;point-to-point-layout;mobility;traffic-control;flow-monitor;stats"
unset CLICOLOR

STEP="start"
T0=$(date +%s)
fail() { echo "check-installed-ns3: FAILED: $*" >&2; exit 1; }
trap 'rc=$?; [ $rc -eq 0 ] || echo "check-installed-ns3: FAILED in step \"$STEP\" (exit $rc)" >&2' EXIT
step() { STEP="$1"; echo; echo "=== check-installed-ns3: $1 ($(( $(date +%s) - T0 )) s elapsed)"; }
# shellcheck source=ns3-source.sh
. "$REPO/scripts/ns3-source.sh"

[ -n "$NS3_SOURCE" ] || fail "usage: $0 NS3_SOURCE (an ns-3 source archive or tree)"

step "ns-3 source ($NS3_SOURCE)"
mkdir -p "$CACHE/src"
exec 9>"$CACHE/lock-installed"
flock -n 9 || { echo "waiting for another check-installed-ns3 run (lock $CACHE/lock-installed)"; flock 9; }
ns3_source_tree "$NS3_SOURCE" "$CACHE/src" install-
name="$NS3_NAME"
[ ! -e "$NS3_DIR/contrib/quic-cc" ] || fail "$NS3_DIR/contrib/quic-cc exists: the installed route needs an ns-3 without quic-cc"
NS3_RELEASE="$(cat "$NS3_DIR/VERSION" 2>/dev/null || echo "$name")"
PREFIX="$CACHE/prefix-$name"
echo "ns-3 ${NS3_RELEASE}: tree $NS3_DIR, prefix $PREFIX"

step "ns-3 configure, build and install (./ns3 configure --prefix; ./ns3 build; ./ns3 install)"
cd "$NS3_DIR"
export CCACHE_BASEDIR="$NS3_DIR"
tb=$(date +%s)
# What `./ns3 configure --prefix=P --enable-modules=...` passes to CMake, given to it directly
# (see check-in-tree.sh: ./ns3 also sets CLICOLOR, which a later plain CMake run would undo).
cmake -S . -B cmake-cache -G Ninja -DCMAKE_BUILD_TYPE=default -DNS3_ASSERT=ON -DNS3_LOG=ON \
  -DNS3_WARNINGS_AS_ERRORS=ON -DNS3_NATIVE_OPTIMIZATIONS=OFF -DNS3_EXAMPLES=OFF -DNS3_TESTS=OFF \
  "-DNS3_ENABLED_MODULES=${NS3_MODULES}" "-DCMAKE_INSTALL_PREFIX=$PREFIX" >/dev/null
cmake --build cmake-cache -j "$JOBS"
rm -rf "$PREFIX"
cmake --install cmake-cache >/dev/null
ns3_build_s=$(( $(date +%s) - tb ))
[ -f "$(find "$PREFIX" -name ns3Config.cmake | head -n 1)" ] || fail "no ns3Config.cmake under $PREFIX"
echo "ns-3 built and installed in ${ns3_build_s} s"

step "quic-cc against $PREFIX (cmake -DCMAKE_PREFIX_PATH=$PREFIX)"
BUILD="$CACHE/build-quic-cc-$name"
tq=$(date +%s)
cmake -S "$REPO" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_PREFIX_PATH=$PREFIX" \
  ${NGTCP2_ARCHIVE:+"-DNGTCP2_ARCHIVE=$NGTCP2_ARCHIVE"} \
  $(command -v ccache >/dev/null && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache) | tee "$BUILD.configure.log"
grep -q "quic-cc: ns-3 ${NS3_RELEASE} " "$BUILD.configure.log" \
  || fail "quic-cc did not configure against ns-3 ${NS3_RELEASE} (see $BUILD.configure.log)"
CCACHE_BASEDIR="$REPO" cmake --build "$BUILD" -j "$JOBS"
quic_build_s=$(( $(date +%s) - tq ))

step "ctest"
out="$(mktemp)"
(cd "$BUILD" && ctest --output-on-failure -j "$JOBS") 2>&1 | tee "$out"
summary="$(grep -E '^[0-9]+% tests passed' "$out" || true)"
grep -qE '^100% tests passed' "$out" || fail "ctest: ${summary:-no summary}"
rm -f "$out"

STEP="done"
total=$(( $(date +%s) - T0 ))
echo
# user and system CPU time of every command run (times, not in a subshell: its children)
times >"$CACHE/.times" && cpu="$(tail -n 1 "$CACHE/.times")"
echo "check-installed-ns3: OK: ns-3 ${NS3_RELEASE} installed in a prefix, total ${total} s (CPU user/sys ${cpu}; ns-3 build + install ${ns3_build_s} s, quic-cc build ${quic_build_s} s), ctest: ${summary}"
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) ok installed ns-3=${NS3_RELEASE} total=${total}s ns3=${ns3_build_s}s quic-cc=${quic_build_s}s jobs=${JOBS}" >>"$CACHE/check-in-tree-times.log"
