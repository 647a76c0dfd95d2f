#!/usr/bin/env bash
# Installs what analyze-recording needs to build and test, only when it is missing:
# pkg-config and the FFmpeg development libraries (libavformat, libavcodec, libswscale, libavutil),
# plus the ffmpeg/ffprobe command-line tools, which the tests use as an oracle (never the tool itself).
set -euo pipefail

have_everything() {
    command -v pkg-config >/dev/null 2>&1 &&
    pkg-config --exists libavformat libavcodec libswscale libavutil &&
    command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1
}

# Tools some tests check the tool's outputs with (JUnit schema, man page, shell completions); the
# tests that need one are skipped without it, so a failure here never stops the build.
install_test_tools() {
    command -v xmllint >/dev/null 2>&1 && command -v groff >/dev/null 2>&1 && command -v zsh >/dev/null 2>&1 && command -v fish >/dev/null 2>&1 && return 0
    [ "$(uname -s)" = Linux ] && command -v apt-get >/dev/null 2>&1 || return 0
    local sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libxml2-utils groff-base zsh fish >/dev/null 2>&1 \
        || { $sudo apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libxml2-utils groff-base zsh fish >/dev/null 2>&1; } \
        || echo "install-deps: xmllint/groff/zsh/fish not installed; the tests that use them are skipped" >&2
}

# `make browser-accuracy` only: Xvfb and Chromium, to record the browser scene.
if [ "${1:-}" = "--browser" ]; then
    [ "$(uname -s)" = Linux ] && command -v apt-get >/dev/null 2>&1 || { echo "install-deps: install Xvfb and Chromium by hand" >&2; exit 69; }
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends xvfb chromium >/dev/null \
        || { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends xvfb chromium >/dev/null; }
    exit $?
fi

# `make desktop-captures` only: Xvfb, GTK 4's demo program and xdotool, to record the toolkit's demos.
if [ "${1:-}" = "--desktop" ]; then
    [ "$(uname -s)" = Linux ] && command -v apt-get >/dev/null 2>&1 || { echo "install-deps: install Xvfb, gtk4-demo and xdotool by hand" >&2; exit 69; }
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends xvfb gtk-4-examples xdotool >/dev/null \
        || { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends xvfb gtk-4-examples xdotool >/dev/null; }
    exit $?
fi

if have_everything; then
    install_test_tools
    exit 0
fi

case "$(uname -s)" in
Darwin)
    command -v brew >/dev/null 2>&1 || { echo "install-deps: Homebrew is required on macOS (https://brew.sh)" >&2; exit 69; }
    brew install pkg-config ffmpeg
    ;;
Linux)
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install-deps: no apt-get; install pkg-config and FFmpeg's development packages (libavformat, libavcodec, libswscale) by hand" >&2
        exit 69
    fi
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends \
        pkg-config libavformat-dev libavcodec-dev libswscale-dev libavutil-dev ffmpeg >/dev/null
    ;;
*)
    echo "install-deps: unsupported system $(uname -s)" >&2
    exit 69
    ;;
esac

have_everything || { echo "install-deps: FFmpeg libraries still not found by pkg-config" >&2; exit 69; }
install_test_tools
