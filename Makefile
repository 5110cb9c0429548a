# Transect: two commands on a fresh Debian machine — `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
PACKAGES := time pkg-config libgdal-dev libproj-dev gdal-bin libpng-dev libcairo2-dev proj-data ferret-datasets fonts-dejavu-core
# What the tests read outputs back with, as users would: poppler (pdfinfo, pdffonts, pdftoppm),
# librsvg (rsvg-convert), matplotlib (the image-comparison oracle), Chromium (the HTML report) and
# sqlite3 (PRAGMA integrity_check on GeoPackages).
TEST_PACKAGES := poppler-utils librsvg2-bin python3-matplotlib chromium sqlite3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
TRANSECT := .build/release/transect
# The CPU release builds target: x86-64-v3 (AVX2, FMA, BMI1/2, MOVBE, F16C, LZCNT) when this
# x86_64 machine has the whole set, the x86-64 baseline otherwise; `TARGET_CPU=baseline make build`
# forces the baseline. Both give the same bytes: FMA contraction stays off (scripts/target-cpu.sh
# explains the flags), and `make check` compares the two on a machine that can run both.
TARGET_CPU ?= $(shell ./scripts/target-cpu.sh)
CPU_FLAGS := $(shell ./scripts/target-cpu.sh --flags $(TARGET_CPU))

.PHONY: all deps test-deps build test moto-venv demo check format bench fuzz memcheck clean slurm-check install

all: build

# Installs the Debian packages that are missing, and only those.
deps:
	@$(MAKE) --no-print-directory install-missing LIST="$(PACKAGES)"

# Tests whose tool cannot be had skip saying which, so a failed install does not stop the run.
test-deps:
	@$(MAKE) --no-print-directory install-missing LIST="$(TEST_PACKAGES)" \
	  || echo "(could not install some of: $(TEST_PACKAGES); the tests that need them will be skipped)"

.PHONY: install-missing
install-missing:
	@missing=""; for p in $(LIST); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi

# The launcher (transect), the measure library it loads for every other measure and a viewshed
# without an observers file (libTransectCLIMeasure.so: no Foundation, cairo or libpng), the compare library it loads for a
# compare of PNGs (libTransectCLICompare.so: libpng, no GDAL, cairo or Foundation) and the full
# command line it loads for everything else (libTransectCLI.so), side by side: one is no use
# without the others.
build: deps
	$(if $(CPU_FLAGS),,$(error TARGET_CPU is x86-64-v3 or baseline, not '$(TARGET_CPU)'))
	@echo "CPU target: $(TARGET_CPU)"
	$(SWIFT) build -c release --product transect $(CPU_FLAGS)
	$(SWIFT) build -c release --product TransectCLI $(CPU_FLAGS)
	$(SWIFT) build -c release --product TransectCLIMeasure $(CPU_FLAGS)
	$(SWIFT) build -c release --product TransectCLICompare $(CPU_FLAGS)

test: deps test-deps moto-venv
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The object-storage tests' local S3-compatible server (Python's moto[server]) in a virtual
# environment under .build; when it cannot be installed those tests say so and skip.
MOTO_VENV := .build/moto-venv
moto-venv:
	@[ -x $(MOTO_VENV)/bin/moto_server ] || { python3 -m venv $(MOTO_VENV) && $(MOTO_VENV)/bin/pip install -q 'moto[server]'; } \
	  || echo "(could not install moto[server]; the object-storage tests will be skipped)"

demo: build
	@./scripts/demo.sh $(TRANSECT)

# CI's checks beyond the tests: a release build with warnings as errors, the formatting lint,
# and the demo rendered twice with the bytes compared; on an x86-64-v3 machine also the demo and
# two batch runs from an x86-64-v3 build against the baseline's (scripts/check.sh).
check: deps
	@./scripts/check.sh

# The Slurm recipe on a single-node cluster on this machine (loopback only; needs root, not part
# of make test): 1,000,000 pairs as an array of 4 shards, merged, compared with one run.
slurm-check: build
	@./scripts/slurm-check.sh

# Applies .swift-format to the tree (the toolchain's own formatter).
format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Fuzz Package.swift

# Named cases, each against its peer in the same run; `make bench BENCH_ARGS=--json` also prints
# them as a JSON list. The Python peers of batch-1m and profile-1m need pyproj, pandas, scipy and
# GDAL's bindings, compare-1600x1000's peer is ImageMagick's compare: installed here when missing
# (the cases are skipped with a note if that fails).
BENCH_PEERS := python3-pyproj python3-pandas python3-scipy python3-gdal imagemagick
BENCH_ARGS ?=
bench: deps
	$(if $(CPU_FLAGS),,$(error TARGET_CPU is x86-64-v3 or baseline, not '$(TARGET_CPU)'))
	@echo "CPU target: $(TARGET_CPU)"
	@missing=""; for p in $(BENCH_PEERS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing the bench's Python peers:$$missing"; \
	  ( $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing ) \
	    || echo "(could not install them; batch-1m and compare-1600x1000 will say so)"; \
	fi
	$(SWIFT) build -c release --product transect $(CPU_FLAGS)
	$(SWIFT) build -c release --product TransectCLI $(CPU_FLAGS)
	$(SWIFT) build -c release --product TransectCLIMeasure $(CPU_FLAGS)
	$(SWIFT) build -c release --product TransectCLICompare $(CPU_FLAGS)
	$(SWIFT) build -c release --product transect-bench $(CPU_FLAGS)
	.build/release/transect-bench $(BENCH_ARGS)

# libFuzzer harnesses for the file readers (Fuzz/<harness>.swift), built with swiftc's
# -sanitize=fuzzer,address into .build/fuzz/ and run one after another for SECONDS each; prints
# the executions per harness, keeps findings in .build/fuzz/crashes/<harness>/ and fails when
# there is one. Needs only the Swift toolchain (no GDAL or cairo). Details in scripts/fuzz.sh.
SECONDS := 60
fuzz:
	@./scripts/fuzz.sh $(SECONDS)

# Peak memory of a 2,000,000-row --pairs batch, a 50 MB GPX, a 10,000-part merge and a
# 100,000-scene list, against 150 MB.
memcheck: build
	@./scripts/memory-check.sh $(TRANSECT)

# The launcher, its libraries, a man page and bash/zsh completions under PREFIX, staged under
# DESTDIR for packagers (scripts/install.sh).
PREFIX ?= /usr/local
DESTDIR ?=
install: build
	@./scripts/install.sh "$(DESTDIR)" "$(PREFIX)" $(dir $(TRANSECT))

clean:
	rm -rf .build
