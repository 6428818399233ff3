#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# ctest "install-consumer": install quic-cc from a build directory into a fresh prefix, then
# build and run the consumer project against that prefix twice: through find_package(quic-cc)
# (CMake package config) and through pkg-config (quic-cc.pc).
#
#   run-consumer-test.sh <quic-cc build dir> <consumer source dir> <work dir> [cmake]
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

echo "== find_package(quic-cc): configure, build and run the consumer"
"$cmake" -S "$src" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release
"$cmake" --build "$work/build" -j 2
"$work/build/quic-cc-consumer"

echo "== pkg-config quic-cc: build and run the consumer"
PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export PKG_CONFIG_PATH
pkg-config --exists --print-errors quic-cc
echo "cflags: $(pkg-config --cflags quic-cc)"
echo "libs:   $(pkg-config --libs quic-cc)"
libdir="$(pkg-config --variable=libdir quic-cc)"
# shellcheck disable=SC2046 # word splitting of pkg-config output is intended
${CXX:-c++} -std=c++17 -O1 "$src/main.cc" -o "$work/quic-cc-consumer-pc" \
  $(pkg-config --cflags --libs quic-cc) -Wl,-rpath,"$libdir"
"$work/quic-cc-consumer-pc"

echo "install-consumer: OK"
