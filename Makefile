# The two commands that do all set-up on a fresh machine:
#   make run    install what is missing, build release, analyse the sample capture
#   make test   install what is missing, run the whole test suite
SWIFT ?= swift
BIN := .build/release/analyze-recording

.PHONY: deps build run test clean readme samples

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release

run: build
	$(BIN) SampleMedia/flip.mov

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

# Regenerate SampleMedia/ (deterministic: same bytes with the same FFmpeg).
samples: deps
	$(SWIFT) build -c release --product make-sample-media
	.build/release/make-sample-media SampleMedia
