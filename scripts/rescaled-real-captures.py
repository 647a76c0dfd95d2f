#!/usr/bin/env python3
"""make real-rescaled CAPTURES=DIR: auto mode on real screen recordings shown at other sizes.

A capture's pixel scale decides the working resolution (about 400 px wide) and so what the detector
sees of its glyphs and icons: the same screen recorded at 1x, 2x or 3x, or scaled by a sharing
service, must not show a flip at any of them. For every .mov/.mp4/.m4v/.mkv/.webm in DIR (none of
which may show a mirrored sprite), each width in WIDTHS (default 360 460 560 900 1300) below the
capture's own is made with ffmpeg (scale, libx264 crf 20, no audio, every frame kept at its own
time: without `-fps_mode passthrough` the mp4 muxer pads a WebM's 613 frames to 40,702 at its
nominal 1000 fps, a different capture) and read by `orientation` in
auto mode. Prints one line per capture and width (flips, turns, working scale, the first mirror
event's frame, seconds) and a summary; exits 1 when any flip or turn is reported. The captures are
not part of the repository: point CAPTURES at any folder of real recordings."""
import json, os, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tool = os.environ.get("ANALYZE_RECORDING") or os.path.join(
    subprocess.check_output(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, text=True).strip(), "analyze-recording")
widths = [int(w) for w in os.environ.get("WIDTHS", "360 460 560 900 1300").split()]
folder = sys.argv[1] if len(sys.argv) > 1 else ""
if not os.path.isdir(folder):
    sys.exit("usage: rescaled-real-captures.py DIR (make real-rescaled CAPTURES=DIR)")
files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.lower().endswith((".mov", ".mp4", ".m4v", ".mkv", ".webm")))


def width_of(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width", "-of", "csv=p=0", path],
                         capture_output=True, text=True).stdout.strip()
    return int(out) if out.isdigit() else 0


runs = reported = failed = 0
with tempfile.TemporaryDirectory() as scratch:
    for path in files:
        name = os.path.basename(path)
        own = width_of(path)
        for width in (w for w in widths if w < own):
            scaled = os.path.join(scratch, f"{os.path.splitext(name)[0]}_{width}.mp4")
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", path, "-map", "0:v:0", "-an", "-vf", f"scale={width}:-2",
                            "-fps_mode", "passthrough", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", scaled], check=True)
            start = time.monotonic()
            r = subprocess.run([tool, "orientation", scaled, "--json", "-"], capture_output=True, text=True)
            seconds = time.monotonic() - start
            os.remove(scaled)
            runs += 1
            try:
                doc = json.loads(r.stdout)
            except json.JSONDecodeError:
                failed += 1
                print(f"{name[:40]:40s} {width:5d} px  exit {r.returncode}: {r.stderr.strip()[:80]}")
                continue
            flips, turns, o = len(doc["flips"]), len(doc["turns"]), doc["orientation"]
            reported += flips + turns
            event = o["first_mirror_event_frame"]
            print(f"{name[:40]:40s} {width:5d} px  scale {o['working_scale']}  {flips} flips  {turns} turns  "
                  f"first event {'-' if event is None else '#' + str(event):>6s}  {seconds:6.1f} s", flush=True)

print(f"\n{runs} rescaled captures from {len(files)}: {reported} flips and turns reported (all false), {failed} not read")
sys.exit(1 if reported or failed else 0)
