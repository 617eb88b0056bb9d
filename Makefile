# Quartet: the README's two commands are `make run` and `make test`.
# Each installs the Debian packages it needs when they are missing, then builds.

SWIFT ?= swift
APT_PACKAGES := libsqlite3-dev libssl-dev libcrypt-dev zlib1g-dev libvips42 pkg-config sqlite3
DATA_DIR ?= ./data
PORT ?= 8080
HOST ?= 127.0.0.1

.PHONY: deps build release run test bench clean fuzz crash test-tsan test-asan clients

# Installs the C libraries Quartet links against (system libsqlite3, OpenSSL, libcrypt, zlib) if missing, and
# libvips, which it loads on first use to resize images.
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

# The Swift runtime and Foundation are linked statically, as in the Dockerfile: one self-contained binary
# that starts with a smaller resident set (no dynamic Swift libraries to map and relocate).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product quartet

# A running server with the embedded SQLite default in ./data.
run: release
	./.build/release/quartet serve --host $(HOST) --port $(PORT) --data-dir $(DATA_DIR) --migrations-dir ./Migrations

# The whole test suite. The black-box tests start the built binary, so build it first.
test: deps
	$(SWIFT) build
	$(SWIFT) test
	python3 Tests/Crash/crash.py --cycles 3

# kill -9 durability (Tests/Crash/crash.py) against the debug binary; CYCLES restarts. See docs/reliability.md.
CYCLES ?= 50
crash: deps
	$(SWIFT) build
	python3 Tests/Crash/crash.py --cycles $(CYCLES)

# The tests under ThreadSanitizer and AddressSanitizer, each in its own scratch path. SANITIZER_TEST_ARGS
# narrows the run (default: every test but the black-box ConformanceTests, whose servers would run
# instrumented binaries for many minutes); set it empty to run everything.
SANITIZER_TEST_ARGS ?= --skip ConformanceTests
test-tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan $(SANITIZER_TEST_ARGS)

# LEAKS=1 adds LeakSanitizer's check at exit: it reports the fixtures XCTest keeps for the whole run (test
# cases and the storages and servers their teardown blocks hold), so it is off by default; memory errors
# always fail the run. See docs/reliability.md.
LEAKS ?= 0
test-asan: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=$(LEAKS) $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan $(SANITIZER_TEST_ARGS)

# libFuzzer harnesses (Fuzz/): FUZZ_SECONDS and FUZZ_RUNS bound each harness, FUZZERS picks some
# (default all). Built in .build-fuzz, apart from the ordinary build. See docs/reliability.md.
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZERS ?=
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) SWIFT=$(SWIFT) ./Fuzz/run.sh $(FUZZERS)

bench: deps
	./Benchmarks/run.sh

# The test suites of CouchDB-Python, aiocouch and pycouchdb against the debug binary (checklist CD-193).
# Not part of `make test`: it needs PyPI for the libraries and their sdists (kept in .build-clients/).
# CLIENT_SUITES picks some: couchdb-python, aiocouch, pycouchdb (default all). See docs/conformance/couch.md.
CLIENT_SUITES ?=
clients: deps
	@python3 -c 'import ensurepip, venv' 2>/dev/null || { \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3 python3-venv; }
	$(SWIFT) build
	python3 Tests/Clients/run.py $(foreach s,$(CLIENT_SUITES),--suite $(s))

clean:
	rm -rf .build
