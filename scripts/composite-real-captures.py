#!/usr/bin/env python3
"""make real-composite CAPTURES=DIR: the mirror-flip detector on real screens with a sprite laid over them.

For every .mov/.mp4/.m4v/.mkv/.webm in DIR and each sprite asset (make-sample-media --sprite-assets),
the ffmpeg CLI resamples the first 6 s of the capture to 60 fps and lays the sprite over it at 12 %
of the frame's width, walking right at 0.3 % of the width per frame from a tenth of the way in, and
mirrored in frames 90-91 and 180-185: two flips, 33 and 100 ms, at 1.5 and 3.0 s. From about 4.2 s
the sprite reaches the right edge and walks out of the frame. Each composite is analysed
in auto mode and in template mode (the sprite's @1x asset). A flip is found when a reported one
starts within a frame of the truth and lasts as long to within a frame; every other flip or turn
reported is false. Prints one line per run and a summary; exits 1 when any flip or turn is false.
The captures are not part of the repository: point CAPTURES at any folder of real recordings."""
import json, os, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
bins = subprocess.check_output(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, text=True).strip()
tool = os.environ.get("ANALYZE_RECORDING") or os.path.join(bins, "analyze-recording")
folder = sys.argv[1] if len(sys.argv) > 1 else ""
if not os.path.isdir(folder):
    sys.exit("usage: composite-real-captures.py DIR (make real-composite CAPTURES=DIR)")
files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.lower().endswith((".mov", ".mp4", ".m4v", ".mkv", ".webm")))
FLIPS = [(90, 2), (180, 6)]
PERIOD = 1 / 60
work = tempfile.mkdtemp(prefix="composite-")
subprocess.check_call([os.path.join(bins, "make-sample-media"), "--sprite-assets", work], stdout=subprocess.DEVNULL)
kinds = sorted(f[:-4] for f in os.listdir(work) if f.endswith(".png"))
totals = {"auto": [0, 0, 0, 0, 0], "template": [0, 0, 0, 0, 0]}  # truth, found, false flips, false turns, refused
for path in files:
    w, h = map(int, subprocess.check_output(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries",
                                             "stream=width,height", "-of", "csv=p=0", path], text=True).strip().split(",")[:2])
    for kind in kinds:
        asset = os.path.join(work, kind + ".png")
        width, x0, step, y = max(24, int(w * 0.12)), int(w * 0.1), w * 0.003, int(h * 0.45)
        mirrored = "+".join(f"between(t,{(s - 0.3) / 60:.5f},{(s + n - 0.7) / 60:.5f})" for s, n in FLIPS)
        walk = f"x='{x0}+{step:.3f}*t*60':y={y}"
        graph = (f"[0:v]fps=60,scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p[bg];[1:v]scale={width}:-1,split[a][b];[b]hflip[m];"
                 f"[bg][a]overlay={walk}:enable='not({mirrored})'[v1];[v1][m]overlay={walk}:enable='{mirrored}'[v]")
        out = os.path.join(work, f"{kind}-{os.path.basename(path)}.mov")
        subprocess.check_call(["ffmpeg", "-v", "error", "-y", "-i", path, "-loop", "1", "-framerate", "60", "-i", asset,
                               "-filter_complex", graph, "-map", "[v]", "-t", "6", "-c:v", "libx264", "-crf", "23", out])
        for mode, extra in (("auto", []), ("template", ["--template", asset])):
            r = subprocess.run([tool, "orientation", out, "--json", "-"] + extra, capture_output=True, text=True)
            t = totals[mode]
            t[0] += len(FLIPS)
            if r.returncode == 65:
                t[4] += 1
                print(f"{os.path.basename(path)} {kind} {mode}: refused: {r.stderr.strip()[:100]}")
                continue
            if r.returncode not in (0, 1):
                print(f"{os.path.basename(path)} {kind} {mode}: exit {r.returncode}: {r.stderr.strip()[:100]}")
                t[2] += 1
                continue
            d = json.loads(r.stdout)
            reported = [(f["start_s"], f["duration_ms"] / 1000) for f in d["flips"]]
            found = sum(1 for s, n in FLIPS if any(abs(rs - s * PERIOD) <= PERIOD + 1e-6 and abs(rd - n * PERIOD) <= PERIOD + 1e-6
                                                  for rs, rd in reported))
            t[1] += found
            t[2] += len(reported) - found
            t[3] += len(d["turns"])
            print(f"{os.path.basename(path)} {kind} {mode}: found {found} of {len(FLIPS)}, reported "
                  f"{[(round(s, 3), round(n * 1000, 1)) for s, n in reported]}, turns {[x['at_s'] for x in d['turns']]}, "
                  f"unknown stretches {len(d['unknown'])}")
for mode, (truth, found, false_flips, false_turns, refused) in totals.items():
    print(f"{mode}: flips {truth}, found {found} ({100 * found / max(truth, 1):.1f} %), false flips {false_flips},"
          f" false turns {false_turns}, refused {refused}")
sys.exit(1 if any(t[2] or t[3] for t in totals.values()) else 0)
