# The two commands that do all set-up on a fresh machine:
#   make run    install what is missing, build release, analyse the sample capture with its probe log
#   make test   install what is missing, run the whole test suite
SWIFT ?= swift
BIN := .build/release/analyze-recording

.PHONY: deps build run test clean readme samples bench fuzz asan goldens accuracy

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release

# The main job on SampleMedia: flip.mov is a reproduction capture, so it is expected to show the bug.
run: build
	$(BIN) SampleMedia/flip.mov --log SampleMedia/probe.txt --expect bug --evidence .build/evidence
	@echo "evidence: .build/evidence/index.html"

# The CLI tests run the release binaries (what users run, and 20x faster than debug on video);
# the unit tests run in the debug test bundle as usual.
test: deps
	$(SWIFT) build -c release
	ANALYZE_RECORDING_PRODUCTS="$$($(SWIFT) build -c release --show-bin-path)" $(SWIFT) test

clean:
	rm -rf .build

# Refresh the example outputs in README.md from real runs.
readme: build
	python3 scripts/update-readme.py

# Rewrite Tests/Fixtures/goldens/*.out from the current build: only for a deliberate change of output.
goldens: build
	UPDATE_GOLDENS=1 ANALYZE_RECORDING_PRODUCTS="$$($(SWIFT) build -c release --show-bin-path)" $(SWIFT) test --filter GoldenOutputTests
	git diff --stat Tests/Fixtures/goldens

# Regenerate SampleMedia/ (deterministic: same bytes with the same FFmpeg).
samples: deps
	$(SWIFT) build -c release --product make-sample-media
	.build/release/make-sample-media SampleMedia

# Speed and memory against FFmpeg itself on long native-resolution captures (see BENCHMARKS.md).
bench: build
	python3 scripts/bench.py

# The mirror-flip detector against ground truth on seeded random captures (see BENCHMARKS.md).
ACCURACY_COUNT ?= 200
ACCURACY_SEED ?= 1
accuracy: build
	$(SWIFT) build -c release --product make-sample-media
	ACCURACY_COUNT=$(ACCURACY_COUNT) ACCURACY_SEED=$(ACCURACY_SEED) python3 scripts/accuracy.py

# Hostile input: mutated captures and logs through every subcommand (seeded, time-bounded).
FUZZ_SECONDS ?= 600
FUZZ_SEED ?= 1
fuzz: build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED=$(FUZZ_SEED) python3 scripts/fuzz.py

# The test suite with AddressSanitizer, binaries included.
asan: deps
	$(SWIFT) build -c debug -Xswiftc -sanitize=address --build-path .build/asan
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt:print_suppressions=0 \
	ANALYZE_RECORDING_PRODUCTS="$$($(SWIFT) build -c debug -Xswiftc -sanitize=address --build-path .build/asan --show-bin-path)" \
		$(SWIFT) test -Xswiftc -sanitize=address --build-path .build/asan
