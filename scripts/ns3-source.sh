# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by check-in-tree.sh and check-installed-ns3.sh (which define fail()): an ns-3 source
# given as an archive or a directory, made into a tree of our own under the cache.
#
#   ns3_source_tree SOURCE PARENT PREFIX
#
# SOURCE: an ns-3 release archive (ns-3.NN.tar.xz/.bz2/.gz, one top folder) or an ns-3 source
# tree. An archive is unpacked once into PARENT/PREFIX<name> (ns-3.48.tar.xz -> <name> ns-3.48),
# again when its checksum differs from the one unpacked there; a tree is copied without its
# builds into PARENT/PREFIXtree-<hash of its path>, so the user's tree and its configuration stay
# as they are. Sets NS3_DIR and NS3_NAME.
ns3_source_tree() {
  local source="$1" parent="$2" prefix="$3" sum src
  if [ -f "$source" ]; then
    NS3_NAME="$(basename "$source")"; NS3_NAME="${NS3_NAME%.tar.*}"; NS3_NAME="${NS3_NAME%.tgz}"
    NS3_DIR="$parent/$prefix$NS3_NAME"
    sum="$(sha256sum "$source" | cut -d' ' -f1)"
    if [ ! -x "$NS3_DIR/ns3" ] || [ "$(cat "$NS3_DIR/.quic-cc-source-sha256" 2>/dev/null)" != "$sum" ]; then
      rm -rf "$NS3_DIR" "$NS3_DIR.part" && mkdir -p "$NS3_DIR.part"
      tar -xf "$source" -C "$NS3_DIR.part" --strip-components=1 || fail "could not unpack $source"
      [ -x "$NS3_DIR.part/ns3" ] || fail "$source is not an ns-3 source archive (no ns3 script in its top folder)"
      echo "$sum" >"$NS3_DIR.part/.quic-cc-source-sha256"
      mv "$NS3_DIR.part" "$NS3_DIR"
    fi
  elif [ -d "$source" ]; then
    [ -x "$source/ns3" ] || fail "$source is not an ns-3 source tree (no ns3 script)"
    src="$(cd "$source" && pwd)"
    NS3_NAME="tree-$(echo "$src" | md5sum | cut -c1-12)"
    NS3_DIR="$parent/$prefix$NS3_NAME"
    mkdir -p "$NS3_DIR"
    rsync -a --delete --exclude='/build/' --exclude='/cmake-cache/' --exclude='/contrib/quic-cc/' \
      --exclude='/.git/' --exclude='/.lock-*' "$src/" "$NS3_DIR/"
  else
    fail "NS3_SOURCE=$source: not an ns-3 archive or an ns-3 source tree"
  fi
}
