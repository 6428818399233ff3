# quic-cc: every install and build step lives here.
#   make demo   install missing Debian packages, build, run the death-spiral comparison + plots
#   make test   install, build, run every test (ns-3 TestSuites and GoogleTest) through ctest
#   make doc    the manual (doc/*.rst) as HTML with Sphinx (doc/conf.py; a warning is an error)
#   make doxygen  the API reference of model/, helper/ and ngtcp2/model (doc/Doxyfile; a warning
#               is an error), build/doc/doxygen/html/index.html
#   make check-in-tree [NS3_SOURCE=<ns-3 archive or tree>]   build quic-cc as contrib/quic-cc of
#               an ns-3 source (default: Debian's ns-3.37 source package), run its suites and
#               examples with that ns-3's test.py (cache: $QUICCC_CACHE)
#   make check-installed-ns3 NS3_SOURCE=<archive or tree>   build and `./ns3 install` that ns-3 into
#               a prefix, build quic-cc standalone against it, run every ctest test there
#   make check-ns3-versions   every supported mode: standalone 3.37 (make test), in-tree 3.37,
#               3.44, 3.48, standalone against an installed 3.48 (archives: NS3_ARCHIVE_DIR)
#   make bench  build and run the benchmarks (bench/), write bench/RESULTS.md (not tests)
#   make golden  compare the full death-spiral and hystart-lab results with test/golden
#   make bench-scale  1,000 / 2,000 / 4,000 / 10,000 dumbbell connections, quic-cc vs ns-3 TCP
#               (long: tens of CPU minutes), written to bench/RESULTS-scale.md
#   make test-sanitize  every test built with -fsanitize=address,undefined (GCC) in
#               $(SANITIZE_BUILD), run with leak detection on; any report fails
#   make fuzz   build the libFuzzer targets (clang, $(FUZZ_BUILD)) and run each for
#               FUZZ_SECONDS from the seeds in test/fuzz/corpus (new inputs: $(FUZZ_BUILD)/corpus)
#   make test-fuzz  the same targets for a fixed number of executions each (ctest, CI)
#   make format-check  every C++ file formatted as ns-3's .clang-format says (CI); make format fixes

BUILD      ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS       ?= $(shell nproc)
RESULTS    ?= results
DEMO_RUNS  ?= 100
BENCH_REPS ?= 7
# The interpreter that has the plots' dependencies: Debian's python3 with python3-matplotlib
# (a python3 earlier on PATH, e.g. a virtualenv or conda, usually lacks matplotlib; an environment
# variable PYTHON does not override it, `make demo PYTHON=...` does).
PYTHON     := /usr/bin/python3
SANITIZE_BUILD ?= build-sanitize
FUZZ_BUILD     ?= build-fuzz
FUZZ_SECONDS   ?= 60
FUZZ_TARGETS   := frames socket-recv connection-recv loss-detection
# The ngtcp2 release archive the ngtcp2 transport is built from when pkg-config finds no system
# libngtcp2 >= 1.0 (cmake/quic-cc-ngtcp2.cmake). The default is the workplace's copy, passed only
# where it exists; without it CMake downloads the pinned release (URL + SHA-256), and where that
# fails too the part is off and the end of `make test` says how to turn it on. An archive given on
# the command line must exist.
NGTCP2_ARCHIVE ?= $(CURDIR)/../shared/deps/ngtcp2-1.24.0.tar.xz
CMAKE_NGTCP2   = -DNGTCP2_ARCHIVE=$(if $(filter file,$(origin NGTCP2_ARCHIVE)),$(wildcard $(abspath $(NGTCP2_ARCHIVE))),$(abspath $(NGTCP2_ARCHIVE)))
# More ngtcp2 builds beside the default one, for the studies and campaigns across releases
# (cmake/quic-cc-ngtcp2.cmake): each entry a release archive, or an archive followed by +<change>
# (a change of ours applied to that release at build time: cmake/quic-cc-ngtcp2-patch.cmake).
# The defaults, 1.25.0 and the default archive with the CUBIC increment change, are passed only
# where their archive exists; entries given on the command line must exist.
NGTCP2_RELEASE_ARCHIVE ?= $(CURDIR)/../shared/deps/ngtcp2-1.25.0.tar.xz
NGTCP2_VARIANTS ?= $(NGTCP2_RELEASE_ARCHIVE) $(NGTCP2_ARCHIVE)+cubic-bytes-delivered
variant_archive = $(firstword $(subst +, ,$(1)))
variant_change  = $(word 2,$(subst +, ,$(1)))
variant_entry   = $(abspath $(call variant_archive,$(1)))$(if $(call variant_change,$(1)),+$(call variant_change,$(1)))
empty :=
space := $(empty) $(empty)
CMAKE_NGTCP2_VARIANTS = -DNGTCP2_VARIANTS="$(subst $(space),;,$(strip $(foreach v,$(NGTCP2_VARIANTS),\
  $(if $(or $(filter-out file,$(origin NGTCP2_VARIANTS)),$(wildcard $(call variant_archive,$(v)))),$(call variant_entry,$(v))))))"

# Debian bookworm packages the build, tests, demo and plots need. ns3 provides the helper
# binaries that Debian's ns-3 CMake package config checks for; SLURM, munge and GNU parallel are
# the campaign backends (scripts/quic-cc-campaign) its tests run.
DEB_PACKAGES = cmake g++ make pkg-config libns3-dev ns3 libgsl-dev googletest libgtest-dev \
               libgmock-dev nlohmann-json3-dev libboost-dev libbenchmark-dev python3 \
               python3-matplotlib python3-sphinx ccache valgrind slurmctld slurmd slurm-client munge parallel \
               clang libclang-rt-14-dev clang-format
# quic-cc-campaign's Wilson intervals (statsmodels) and quantiles (numpy).
DEB_PACKAGES += python3-numpy python3-statsmodels
# The qlog schema check (scripts/quic_cc_qlog_check.py) in make test.
DEB_PACKAGES += python3-jsonschema
# The docs-build test looks at every page of the manual in headless Chromium; make doxygen and
# the doxygen test build the API reference.
DEB_PACKAGES += chromium doxygen

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps configure build test demo doc doxygen clean check-in-tree check-installed-ns3 check-ns3-versions bench bench-scale golden test-sanitize \
        fuzz-build fuzz test-fuzz format format-check

all: build

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# ccache (when installed) keeps object files across build directories and clones: the base
# directory makes its keys independent of where the tree lives.
CCACHE := $(shell command -v ccache 2>/dev/null)
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_NGTCP2) $(CMAKE_NGTCP2_VARIANTS) $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The block of optional parts that are off (and the command that turns each on) is printed
# after the tests whatever their result.
test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS); rc=$$?; \
	  cat quic-cc-optional-parts.txt 2>/dev/null; exit $$rc

# The full golden comparison (death spiral 100 runs x 5 configurations, hystart lab 0 % loss);
# `make test` runs the reduced variants. See scripts/golden_compare.py.
golden: build
	cd $(BUILD) && ctest -C golden --output-on-failure -R '^golden-.*-full$$'

# The batch prints README's death-spiral table: the three model rows, and the three rows of the
# real ngtcp2 library where the ngtcp2 transport is built (the optional-parts block says how to
# turn it on where it is not); then the first RngRun that traps the 2020 logic is re-run with
# qlog for the three model configurations and plotted (Debian's python3 has matplotlib).
demo: build
	mkdir -p $(RESULTS)
	@if grep -q "ngtcp2 transport: off" $(BUILD)/quic-cc-optional-parts.txt; then \
	  transport=quic-cc; cat $(BUILD)/quic-cc-optional-parts.txt; \
	  echo "demo: the model rows only (README's ngtcp2 rows need the ngtcp2 transport)"; \
	else transport=all; fi; \
	echo "$(BUILD)/examples/quic-cc-death-spiral --runs=$(DEMO_RUNS) --transport=$$transport --csv=$(RESULTS)/death-spiral.csv"; \
	$(BUILD)/examples/quic-cc-death-spiral --runs=$(DEMO_RUNS) --transport=$$transport --csv=$(RESULTS)/death-spiral.csv
	@run=$$(awk -F, '$$1 == "cubic-LastSent" && $$3 == 0 { print $$2; exit }' $(RESULTS)/death-spiral.csv); \
	run=$${run:-1}; rm -rf $(RESULTS)/qlog; \
	echo "qlog of RngRun $$run (cubic-LastSent, cubic-LastActivity, reno) -> $(RESULTS)/qlog"; \
	$(BUILD)/examples/quic-cc-death-spiral --runs=1 --firstRun=$$run --qlog=$(RESULTS)/qlog --quiet > /dev/null && \
	$(PYTHON) scripts/plot-death-spiral.py --qlog $(RESULTS)/qlog --run $$run \
	  --csv $(RESULTS)/death-spiral.csv --out $(RESULTS)

# The manual as HTML, as ns-3's module doc trees build theirs (doc/conf.py); -W: a warning
# is an error (the docs-build test of `make test` builds it the same way).
doc: deps
	$(PYTHON) -m sphinx -W --keep-going -b html -d $(BUILD)/doc/doctrees doc $(BUILD)/doc/html
	@echo "doc: $(BUILD)/doc/html/quic-cc.html"

# The API reference (doc/Doxyfile: every header of model/, helper/ and ngtcp2/model, grouped by
# layer; every warning is an error, as in the doxygen test of `make test`).
doxygen: deps
	rm -rf $(BUILD)/doc/doxygen && mkdir -p $(BUILD)/doc/doxygen
	QUICCC_DOXYGEN_OUT=$(abspath $(BUILD))/doc/doxygen doxygen doc/Doxyfile
	@echo "doxygen: $(BUILD)/doc/doxygen/html/index.html"

# bench/ is also a directory: the target must stay .PHONY.
bench: configure
	cmake --build $(BUILD) -j $(JOBS) --target transfer-bench controller-bench quic-cc-death-spiral
	bench/run-bench.sh $(BUILD) $(BENCH_REPS)

bench-scale: configure
	cmake --build $(BUILD) -j $(JOBS) --target transfer-bench
	$(BUILD)/bench/transfer-bench --parts=conns --connCounts=1000,2000,4000,10000 --scaleReps=1 \
	  --markdown=bench/RESULTS-scale.md > /dev/null

# Sanitizer reports abort the test (halt_on_error); LeakSanitizer runs at every exit.
SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1 \
                 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
test-sanitize: deps
	cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUICCC_SANITIZE=ON \
	  -DQUICCC_BUILD_BENCH=OFF $(CMAKE_NGTCP2) $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && $(SANITIZER_ENV) ctest --output-on-failure -j $(JOBS) $(SANITIZE_CTEST_ARGS)

fuzz-build: deps
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DQUICCC_FUZZ=ON \
	  -DCMAKE_CXX_COMPILER=clang++ $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))
	cmake --build $(FUZZ_BUILD) -j $(JOBS)

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t; \
	  echo "fuzz-$$t: $(FUZZ_SECONDS) s"; \
	  $(FUZZ_BUILD)/test/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_BUILD)/fuzz-$$t- $(FUZZ_BUILD)/corpus/$$t test/fuzz/corpus/$$t || exit 1; \
	done

test-fuzz: fuzz-build
	cd $(FUZZ_BUILD) && ctest --output-on-failure

# Release archives of ns-3 that Debian bookworm lacks (ns-3.44.tar.xz, ns-3.48.tar.xz); CI's copy
# sits beside the repository. Any other ns-3: make check-in-tree NS3_SOURCE=/path/to/ns-3.xx.
NS3_ARCHIVE_DIR ?= ../shared/deps
NS3_SOURCE      ?= debian
NS3_NEWEST      ?= $(NS3_ARCHIVE_DIR)/ns-3.48.tar.xz
check-in-tree:
	JOBS=$(JOBS) scripts/check-in-tree.sh "$(NS3_SOURCE)"

check-installed-ns3:
	JOBS=$(JOBS) NGTCP2_ARCHIVE=$(abspath $(NGTCP2_ARCHIVE)) scripts/check-installed-ns3.sh "$(NS3_SOURCE)"

# Each mode's closing line goes to $(BUILD)/ns3-versions.txt (the README's table is made from it).
check-ns3-versions: test
	@rm -f $(BUILD)/ns3-versions.txt
	@echo "standalone: ns-3 $$(sed -n 's/^QUICCC_NS3_VERSION:INTERNAL=//p' $(BUILD)/CMakeCache.txt) ($$(sed -n 's/^ns3_DIR:PATH=//p' $(BUILD)/CMakeCache.txt)): make test passed" | tee -a $(BUILD)/ns3-versions.txt
	JOBS=$(JOBS) scripts/check-in-tree.sh debian 2>&1 | tee $(BUILD)/ns3-3.37-in-tree.log | tail -n 1 | tee -a $(BUILD)/ns3-versions.txt
	JOBS=$(JOBS) scripts/check-in-tree.sh $(NS3_ARCHIVE_DIR)/ns-3.44.tar.xz 2>&1 | tee $(BUILD)/ns3-3.44-in-tree.log | tail -n 1 | tee -a $(BUILD)/ns3-versions.txt
	JOBS=$(JOBS) scripts/check-in-tree.sh $(NS3_NEWEST) 2>&1 | tee $(BUILD)/ns3-3.48-in-tree.log | tail -n 1 | tee -a $(BUILD)/ns3-versions.txt
	JOBS=$(JOBS) NGTCP2_ARCHIVE=$(abspath $(NGTCP2_ARCHIVE)) scripts/check-installed-ns3.sh $(NS3_NEWEST) 2>&1 | tee $(BUILD)/ns3-3.48-installed.log | tail -n 1 | tee -a $(BUILD)/ns3-versions.txt
	@! grep -q FAILED $(BUILD)/ns3-versions.txt

# ns-3's own .clang-format (copied from the ns-3.37 source tree) over every tracked C++ file.
CXX_SOURCES = $(shell git ls-files '*.cc' '*.h')
format: deps
	clang-format -i $(CXX_SOURCES)
format-check: deps
	@clang-format --dry-run --Werror $(CXX_SOURCES) && echo "format-check: $(words $(CXX_SOURCES)) files formatted"


clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(FUZZ_BUILD)
