# The two commands that do all set-up on a fresh machine:
#   make run    install what is missing, build release, analyse the sample capture
#   make test   install what is missing, run the whole test suite
SWIFT ?= swift
BIN := .build/release/analyze-recording
DEMO := .build/demo/clip.mov

.PHONY: deps build run test clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release

# Until SampleMedia holds the snail capture, analyse a variable-frame-rate clip made with the ffmpeg CLI.
$(DEMO):
	@mkdir -p $(dir $@)
	ffmpeg -hide_banner -loglevel error -nostdin -y -f lavfi -i "testsrc=size=390x844:rate=60" -t 3 \
		-vf "select='lt(n\,30)+gt(n\,150)'" -fps_mode passthrough -c:v libx264 -pix_fmt yuv420p \
		-video_track_timescale 600 $@

run: build $(DEMO)
	@if [ -f SampleMedia/flip.mov ]; then \
		$(BIN) SampleMedia/flip.mov; \
	else \
		$(BIN) timestamps $(DEMO); \
	fi

test: deps
	$(SWIFT) test

clean:
	rm -rf .build
