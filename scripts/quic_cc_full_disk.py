# SPDX-License-Identifier: GPL-2.0-only
"""A full disk for the tests of write failures, and the check of what a failed run leaves.

- run_on_small_tmpfs: the program runs with a tmpfs of a few hundred kB mounted in a private
  mount namespace (unshare: as root, or in an unprivileged user namespace), so a write fails with
  ENOSPC once it is full; the mount goes with the namespace. None where no tmpfs can be mounted.
- run_with_file_size_limit: the same failure without any privilege: RLIMIT_FSIZE, so a write past
  the limit fails with EFBIG (the programs ignore SIGXFSZ).
- whole_qlog: a qlog file is whole JSON-SEQ (RS ... LF records, the first and last parse);
- assert_fails_on_full_disk: the run fails with one line, leaves no temporary file, and the
  finished runs' qlog files are whole.
"""

import json
import os
import pathlib
import resource
import shutil
import subprocess

# Mounts the tmpfs, says so in the marker file, runs the program and copies what it left on the
# tmpfs out before the namespace (and the mount) goes; the program's exit status is the script's.
_SCRIPT = ('mount -t tmpfs -o size="$1" none "$2" 2>/dev/null || exit 97; : > "$3"; '
           'disk=$2; keep=$4; shift 4; "$@"; status=$?; cp -a "$disk/." "$keep/"; exit $status')


def run_on_small_tmpfs(argv, mountpoint, size, keep, cwd, timeout=600):
    """Run argv (cwd) with a tmpfs of \p size bytes at \p mountpoint; what the run left there is
    copied to \p keep (hidden files too). Returns the CompletedProcess, or None if no tmpfs can
    be mounted here (no unshare, no privilege for a mount namespace)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    mountpoint = pathlib.Path(mountpoint)
    keep = pathlib.Path(keep)
    marker = keep.with_name(keep.name + ".mounted")
    mountpoint.mkdir(parents=True, exist_ok=True)
    variants = [["--mount"]] if os.geteuid() == 0 else []
    variants.append(["--map-root-user", "--mount"])
    for flags in variants:
        shutil.rmtree(keep, ignore_errors=True)
        keep.mkdir(parents=True)
        marker.unlink(missing_ok=True)
        p = subprocess.run([unshare, *flags, "sh", "-c", _SCRIPT, "sh", str(size), str(mountpoint),
                            str(marker), str(keep), *map(str, argv)],
                           capture_output=True, text=True, timeout=timeout, cwd=cwd)
        if marker.exists():
            marker.unlink()
            return p
    return None


def run_with_file_size_limit(argv, limit, cwd, timeout=600):
    """Run argv (cwd) with a file size limit of \p limit bytes: a longer file's write fails."""
    def set_limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd, preexec_fn=set_limit)


def whole_qlog(path):
    """True if \p path is whole JSON-SEQ: starts with RS, ends with LF, first and last records
    parse as JSON and the first is a qlog header (the main schema's QlogFileSeq, or qlog 0.3)."""
    data = pathlib.Path(path).read_bytes()
    if not (data.startswith(b"\x1e") and data.endswith(b"\n")):
        return False
    records = data.split(b"\x1e")[1:]
    try:
        first = json.loads(records[0])
        json.loads(records[-1])
    except ValueError:
        return False
    return (first.get("serialization_format") == "application/qlog+json-seq"
            or first.get("qlog_format") == "JSON-SEQ")


def assert_fails_on_full_disk(test, argv, disk, size, line, finished):
    """Run argv (its outputs under \p disk, cwd its parent) on a tmpfs of \p size bytes at
    \p disk; the test is skipped where none can be mounted. Asserts exit status 1, nothing on
    stdout, stderr matching the regex \p line (one line), no temporary file (hidden or .part)
    left on the disk, and two whole qlog files in each of the \p finished run directories
    (relative to \p disk); every qlog file left must be whole. Returns (the run, the copy of
    what it left on the disk)."""
    keep = disk.with_name(disk.name + "-left")
    r = run_on_small_tmpfs(argv, disk, size, keep, cwd=disk.parent)
    if r is None:
        test.skipTest("cannot mount a tmpfs here (unshare --mount)")
    test.assertEqual((r.returncode, r.stdout), (1, ""), r.stderr)
    test.assertRegex(r.stderr, line)
    test.assertEqual(sorted(p.name for p in keep.rglob(".*")), [], "temporary files left")
    test.assertEqual(sorted(p.name for p in keep.rglob("*.part")), [], "temporary files left")
    for run in finished:
        test.assertEqual(len(list((keep / run).glob("*.sqlog"))), 2, run)
    for f in keep.rglob("*.sqlog"):
        test.assertTrue(whole_qlog(f), f)
    return r, keep
