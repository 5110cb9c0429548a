# Transect: two commands on a fresh Debian machine — `make demo` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
PACKAGES := time pkg-config libgdal-dev libproj-dev gdal-bin libpng-dev libcairo2-dev proj-data ferret-datasets fonts-dejavu-core
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
TRANSECT := .build/release/transect

.PHONY: all deps build test demo check format bench fuzz memcheck clean

all: build

# Installs the Debian packages that are missing, and only those.
deps:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build -c release --product transect

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

demo: build
	@./scripts/demo.sh $(TRANSECT)

# CI's checks beyond the tests: a release build with warnings as errors, the formatting lint,
# and the demo rendered twice with the bytes compared (scripts/check.sh).
check: deps
	@./scripts/check.sh

# Applies .swift-format to the tree (the toolchain's own formatter).
format:
	$(SWIFT) format format --in-place --recursive --parallel Sources Tests Fuzz Package.swift

bench: deps
	$(SWIFT) build -c release --product transect
	$(SWIFT) build -c release --product transect-bench
	.build/release/transect-bench

# libFuzzer harnesses for the file readers (Fuzz/<harness>.swift), built with swiftc's
# -sanitize=fuzzer,address into .build/fuzz/ and run one after another for SECONDS each; prints
# the executions per harness, keeps findings in .build/fuzz/crashes/<harness>/ and fails when
# there is one. Needs only the Swift toolchain (no GDAL or cairo). Details in scripts/fuzz.sh.
SECONDS := 60
fuzz:
	@./scripts/fuzz.sh $(SECONDS)

# Peak memory of a 2,000,000-row --pairs batch and of a 50 MB GPX, against 150 MB.
memcheck: build
	@./scripts/memory-check.sh $(TRANSECT)

clean:
	rm -rf .build
