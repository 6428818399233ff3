#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that the waf build files (wscript, examples/wscript) list exactly what CMake builds.

waf cannot run here, so the wscripts are executed against a stand-in for waf's build context
that records what create_ns3_module, create_ns3_module_test_library, the ns3header feature and
create_ns3_program receive. CMake writes what it builds into a JSON file (see
cmake/quic-cc-checks.cmake); the ctest "wscript-matches-cmake" runs

    check-wscript.py --cmake-lists <build>/quic-cc-file-lists.json

and exits 1, printing each difference, when they disagree.
"""

import argparse
import glob
import json
import os
import sys


class Env(dict):
    """waf's ConfigSet: item and attribute access, missing keys read as []."""

    def __getattr__(self, name):
        return self.get(name, [])

    def __setattr__(self, name, value):
        self[name] = value

    def __missing__(self, key):
        return []


class Record:
    def __init__(self, **kw):
        self.__dict__.update(kw)


class MockNode:
    """waf's Node for a directory: ant_glob and parent, as the wscripts use them. Matches are
    given as paths relative to the directory of the wscript being run (\p ctx.cwd), as the
    source lists hold them."""

    def __init__(self, directory, ctx):
        self.directory = directory
        self.ctx = ctx

    @property
    def parent(self):
        return MockNode(os.path.dirname(self.directory), self.ctx)

    def ant_glob(self, pattern):
        matches = glob.glob(os.path.join(self.directory, pattern))
        return sorted(os.path.relpath(m, self.ctx.cwd) for m in matches)


class MockBuild:
    """The parts of ns-3's waf build context that a module wscript uses."""

    def __init__(self, root, env):
        self.env = env
        self.root = root
        self.cwd = root
        self.modules = []
        self.test_libraries = []
        self.headers = []
        self.programs = []

    def _rel(self):
        return os.path.relpath(self.cwd, self.root)

    @property
    def path(self):
        return MockNode(self.cwd, self)

    def create_ns3_module(self, name, dependencies=()):
        rec = Record(name=name, dependencies=list(dependencies), source=[], where=self._rel())
        self.modules.append(rec)
        return rec

    def create_ns3_module_test_library(self, name):
        rec = Record(name=name, source=[], where=self._rel())
        self.test_libraries.append(rec)
        return rec

    def create_ns3_program(self, name, dependencies=()):
        rec = Record(name=name, dependencies=list(dependencies), source=[], where=self._rel())
        self.programs.append(rec)
        return rec

    def __call__(self, **kw):
        rec = Record(source=[], where=self._rel(), **kw)
        if "ns3header" in str(kw.get("features", "")):
            self.headers.append(rec)
        return rec

    def recurse(self, subdir):
        saved = self.cwd
        self.cwd = os.path.join(self.cwd, subdir)
        try:
            run_wscript(os.path.join(self.cwd, "wscript"), "build", self)
        finally:
            self.cwd = saved


class MockConfigure:
    def __init__(self, have_json):
        self.env = Env(MODULES_NOT_BUILT=[])
        self.have_json = have_json
        self.reported = []

    def check_nonfatal(self, **kw):
        return self.have_json

    def report_optional_feature(self, name, caption, enabled, reason):
        self.reported.append((name, bool(enabled)))


def run_wscript(path, function, ctx):
    namespace = {"__file__": path}
    with open(path) as f:
        code = compile(f.read(), path, "exec")
    exec(code, namespace)
    if function not in namespace:
        raise SystemExit(f"{path}: no {function}() function")
    namespace[function](ctx)


def as_list(value):
    if isinstance(value, str):
        return value.split()
    return list(value)


def compare(what, waf, cmake, errors):
    waf = [os.path.normpath(p) for p in waf]
    cmake = [os.path.normpath(p) for p in cmake]
    dups = sorted({p for p in waf if waf.count(p) > 1})
    if dups:
        errors.append(f"{what}: listed twice in the wscript: {', '.join(dups)}")
    missing = sorted(set(cmake) - set(waf))
    extra = sorted(set(waf) - set(cmake))
    if missing:
        errors.append(f"{what}: in CMake but not in the wscript: {', '.join(missing)}")
    if extra:
        errors.append(f"{what}: in the wscript but not in CMake: {', '.join(extra)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cmake-lists", required=True,
                        help="JSON file CMake writes (quic-cc-file-lists.json in the build dir)")
    parser.add_argument("--source-dir", default=os.path.join(os.path.dirname(__file__), ".."))
    args = parser.parse_args()
    root = os.path.abspath(args.source_dir)
    with open(args.cmake_lists) as f:
        cm = json.load(f)
    cmake_sources = cm["sources"]
    cmake_headers = cm["headers"]
    cmake_study = cm["study"]
    cmake_tests = [os.path.relpath(p, root) for p in cm["tests"]]
    cmake_examples = [os.path.relpath(p, root) for p in cm["examples"]]
    cmake_deps = cm["ns3_modules"]

    errors = []

    # configure(): enabled with nlohmann-json, left out (not a failure) without it.
    for have_json in (True, False):
        conf = MockConfigure(have_json)
        run_wscript(os.path.join(root, "wscript"), "configure", conf)
        not_built = "quic-cc" in conf.env["MODULES_NOT_BUILT"]
        if not_built == have_json:
            errors.append(f"configure(): nlohmann-json {'found' if have_json else 'missing'} "
                          f"but quic-cc {'not ' if not_built else ''}built")
        if not_built:
            bld = MockBuild(root, Env(MODULES_NOT_BUILT=["quic-cc"], ENABLE_EXAMPLES=True))
            run_wscript(os.path.join(root, "wscript"), "build", bld)
            if bld.modules or bld.programs:
                errors.append("build(): builds quic-cc although configure() left it out")

    bld = MockBuild(root, Env(MODULES_NOT_BUILT=[], ENABLE_EXAMPLES=True, ENABLE_TESTS=True))
    run_wscript(os.path.join(root, "wscript"), "build", bld)

    if [m.name for m in bld.modules] != ["quic-cc"]:
        errors.append(f"expected one create_ns3_module('quic-cc'), got {[m.name for m in bld.modules]}")
    if [t.name for t in bld.test_libraries] != ["quic-cc"]:
        errors.append("expected one create_ns3_module_test_library('quic-cc'), got "
                      f"{[t.name for t in bld.test_libraries]}")
    if [h.module for h in bld.headers if hasattr(h, "module")] != ["quic-cc"]:
        errors.append("expected one bld(features='ns3header') with module 'quic-cc'")

    compare("module sources", sum((as_list(m.source) for m in bld.modules), []), cmake_sources,
            errors)
    compare("headers", sum((as_list(h.source) for h in bld.headers), []), cmake_headers, errors)
    # The study sources (a static library in CMake) are compiled into the test library and
    # into every example.
    test_sources = sum((as_list(t.source) for t in bld.test_libraries), [])
    compare("test sources", [p for p in test_sources if not p.startswith("study/")], cmake_tests,
            errors)
    compare("study sources in the test library",
            [p for p in test_sources if p.startswith("study/")], cmake_study, errors)
    waf_examples = []
    for prog in bld.programs:
        own = []
        study = []
        for src in as_list(prog.source):
            path = os.path.normpath(os.path.join(prog.where, src))
            (study if path.startswith("study" + os.sep) else own).append(src)
        waf_examples += [os.path.join(prog.where, s) for s in own]
        compare(f"study sources of example {prog.name}",
                [os.path.normpath(os.path.join(prog.where, s)) for s in study], cmake_study, errors)
        if os.path.normpath(os.path.join(prog.where, "../study")) not in [
                os.path.normpath(os.path.join(prog.where, i)) for i in as_list(getattr(prog, "includes", []))]:
            errors.append(f"example {prog.name}: includes must name ../study")
        if not prog.dependencies or prog.dependencies[0] != "quic-cc":
            errors.append(f"example {prog.name}: dependencies must start with 'quic-cc'")
        for src in own:
            if os.path.splitext(os.path.basename(src))[0] != prog.name:
                errors.append(f"example {prog.name}: source {src} has another name (CMake names "
                              "each example after its file)")
    compare("examples", waf_examples, cmake_examples, errors)
    for m in bld.modules:
        compare("ns-3 module dependencies", m.dependencies, cmake_deps, errors)

    for rec in bld.modules + bld.test_libraries + bld.headers + bld.programs:
        for src in as_list(rec.source):
            if not os.path.exists(os.path.join(root, rec.where, src)):
                errors.append(f"wscript lists {src}, which does not exist")

    if errors:
        print("wscript and CMakeLists.txt disagree (update wscript / examples/wscript):")
        for e in errors:
            print("  - " + e)
        return 1
    print(f"wscript matches CMake: {len(cmake_sources)} sources, {len(cmake_headers)} headers, "
          f"{len(cmake_tests)} test sources, {len(cmake_examples)} examples, "
          f"{len(cmake_study)} study sources, "
          f"{len(cmake_deps)} ns-3 modules")
    return 0


if __name__ == "__main__":
    sys.exit(main())
