#!/usr/bin/env bash
# Renders an evidence folder's index.html headless with Chromium and writes a screenshot, to check
# that the page a CI job archives opens and shows the filmstrip of the spin.
#   scripts/render-evidence.sh EVIDENCE_DIR [SCREENSHOT.png]
# Needs Chromium (Debian: apt-get install chromium). Not part of `make test`: Chromium is large.
set -euo pipefail
dir="${1:?usage: render-evidence.sh EVIDENCE_DIR [SCREENSHOT.png]}"
out="${2:-$dir/screenshot.png}"
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
[ -n "$browser" ] || { echo "render-evidence: Chromium is not installed (apt-get install chromium)" >&2; exit 69; }
page="$(cd "$dir" && pwd)/index.html"
[ -f "$page" ] || { echo "render-evidence: $page does not exist" >&2; exit 66; }
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1500 \
    --screenshot="$(realpath -m "$out")" "file://$page" 2>/dev/null
echo "wrote $out"
