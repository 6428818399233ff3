#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# ctest "install-consumer": install quic-cc from a build directory into a fresh prefix, then
# build and run my-simulation.cc (a user's own program on the installed module only) against
# that prefix, twice:
# with the 6-line CMake project of this directory (find_package(quic-cc), the one README.md
# shows) and with pkg-config (quic-cc.pc). Neither binary needs LD_LIBRARY_PATH: CMake links
# with a build-tree rpath, the installed quic-cc.pc carries -Wl,-rpath.
#
#   run-consumer-test.sh <quic-cc build dir> <this directory> <work dir> [cmake]
set -eu
build="$1"
src="$2"
work="$3"
cmake="${4:-cmake}"

rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"

echo "== cmake --install $build --prefix $prefix"
"$cmake" --install "$build" --prefix "$prefix"
test -f "$prefix/include/ns3/quic-cc-helper.h" || { echo "FAIL: headers not in include/ns3"; exit 1; }
test -f "$prefix/include/ns3/quic-cc-module.h" || { echo "FAIL: no quic-cc-module.h"; exit 1; }
config="$(find "$prefix" -name quic-cc-config.cmake)"
pc="$(find "$prefix" -name quic-cc.pc)"
lib="$(find "$prefix" -name 'libns3-quic-cc.so*' | head -n 1)"
test -n "$config" || { echo "FAIL: no quic-cc-config.cmake installed"; exit 1; }
test -n "$pc" || { echo "FAIL: no quic-cc.pc installed"; exit 1; }
test -n "$lib" || { echo "FAIL: no libns3-quic-cc.so installed"; exit 1; }

# The user's project: the CMakeLists.txt and my-simulation.cc of this directory.
mkdir -p "$work/src"
cp "$src/CMakeLists.txt" "$src/my-simulation.cc" "$work/src/"
unset LD_LIBRARY_PATH
bytes=300000
check_run() {
  out="$("$@" --maxBytes=$bytes --cwndFile="$work/cwnd")"
  echo "$out" | tail -n 1
  echo "$out" | grep -qx "Total Bytes Received: $bytes" || { echo "FAIL: $1: not every byte arrived"; exit 1; }
  head -n 1 "$work/cwnd" | grep -q "^0	0	13500$" || { echo "FAIL: $1: cwnd file lacks the initial window"; exit 1; }
}

echo "== find_package(quic-cc): configure, build and run my-simulation"
"$cmake" -S "$work/src" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
"$cmake" --build "$work/build" -j 2
check_run "$work/build/my-simulation"

echo "== pkg-config quic-cc: build and run my-simulation"
# ns-3's own .pc files (Requires of quic-cc.pc) beside its CMake package, <libdir>/pkgconfig: a
# self-built ns-3 in a prefix is not on pkg-config's default path.
ns3_pc="$(sed -n 's/^ns3_DIR:PATH=//p' "$build/CMakeCache.txt")/../../pkgconfig"
PKG_CONFIG_PATH="$(dirname "$pc"):$ns3_pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
pkg-config --exists --print-errors quic-cc
echo "cflags: $(pkg-config --cflags quic-cc)"
echo "libs:   $(pkg-config --libs quic-cc)"
# No stray token (Debian's ns-3 .pc files carry "-I/usr;", which quic-cc.pc must not pass on).
case "$(pkg-config --cflags --libs quic-cc)" in
  *\;* | *";"*) echo "install-consumer: quic-cc.pc passes on a stray ';' flag" >&2; exit 1 ;;
esac
# ns-3's own .pc files carry no rpath: a program linked against a self-built ns-3 in a prefix
# names its libdir itself (harmless for Debian's system libdir).
# shellcheck disable=SC2046 # word splitting of pkg-config output is intended
${CXX:-c++} -std=c++"$(pkg-config --variable=cxx_standard quic-cc)" -O1 "$work/src/my-simulation.cc" -o "$work/my-simulation-pc" \
  $(pkg-config --cflags --libs quic-cc) -Wl,-rpath,"$(pkg-config --variable=libdir ns3-core)"
check_run "$work/my-simulation-pc"

echo "install-consumer: OK"
