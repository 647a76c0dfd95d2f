#!/usr/bin/env python3
"""make real-check CAPTURES=DIR: the tool against FFmpeg on screen recordings nobody here made.

For every .mov/.mp4/.m4v/.mkv/.webm in DIR (none of which may show a mirrored sprite) checks what a
user would check by hand, with the ffmpeg CLI as the oracle:

- timestamps: the frame list of `timestamps` (packet path) and `timestamps --decode`, in output
  order, against `ffprobe -show_frames` (pts and key flags);
- cfr: the slot map of `cfr --fps 60` and `--fps 30` against `ffmpeg -vf fps=R` (each slot's
  frame md5 against the md5 of the source frame the tool names; the tool's own "same as ffmpeg"
  claim must hold exactly when nothing differs; where the frame size changes, only the slots
  before it are compared and the tool must not claim the grids match);
- frame: `frame --at` at 20, 50 and 85 % of the capture against the PNG of
  `ffmpeg -vf fps=60,select=eq(n,K)`, both read as 16-bit RGB (with `--timestamps ffmpeg` when the tool says its repaired grid differs);
- analyze (auto mode): flips and turns reported (every one is false here), and its wall time
  against `ffmpeg -threads 0 -i REC -f null -` (median of ROUNDS, default 3).

Prints one line per capture and a summary; exits 1 when any check fails. The captures are not part
of the repository: point CAPTURES at any folder of real recordings."""
import json, os, statistics, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tool = os.environ.get("ANALYZE_RECORDING") or os.path.join(
    subprocess.check_output(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, text=True).strip(), "analyze-recording")
rounds = int(os.environ.get("ROUNDS", "3"))
folder = sys.argv[1] if len(sys.argv) > 1 else ""
if not os.path.isdir(folder):
    sys.exit("usage: check-real-captures.py DIR (make real-check CAPTURES=DIR)")
files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.lower().endswith((".mov", ".mp4", ".m4v", ".mkv", ".webm")))


def run(args):
    return subprocess.run(args, capture_output=True)


def tool_json(args):
    r = subprocess.run([tool] + args + ["--json", "-"], capture_output=True, text=True)
    return json.loads(r.stdout)


def frame_md5s(path, vf):
    args = ["ffmpeg", "-v", "error", "-i", path, "-map", "0:v:0"] + (["-vf", vf] if vf else ["-fps_mode", "passthrough"])
    out = run(args + ["-f", "framemd5", "-"]).stdout.decode()
    return [line.split(",")[-1].strip() for line in out.splitlines() if line and not line.startswith("#")]


def check_timestamps(path):
    probe = json.loads(run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts,key_frame",
                            "-of", "json", path]).stdout)
    expected = [(f.get("pts"), f.get("key_frame") == 1) for f in probe.get("frames", [])]
    problems = []
    for extra in ([], ["--decode"]):
        frames = tool_json(["timestamps", path] + extra)["timestamps"]["frames"]
        if [(f["pts"], f["key"]) for f in frames] != expected:
            problems.append("timestamps" + (" --decode" if extra else "") + " differ from ffprobe")
    return problems


def check_cfr(path):
    """Problems, whether the tool says its 60 fps grid is ffmpeg's, and the first 60 fps slot past
    which ffmpeg's frames are not compared (a change of frame size: the ffmpeg CLI rebuilds its
    filters there and loses the frame before it, so the tool must not claim the grids match)."""
    source, problems, same60, limit60 = frame_md5s(path, None), [], True, None
    for fps in (60, 30):
        cfr = tool_json(["cfr", path, "--fps", str(fps)])["cfr"]
        theirs = frame_md5s(path, f"fps={fps}")
        slots = cfr["map"]
        changes = cfr.get("frame_size_changes") or []
        if changes:
            before = changes[0]["frame"] - 1
            limit = next((i for i, s in enumerate(slots) if s is not None and s >= before), len(slots))
            if cfr["same_slots_as_ffmpeg"]:
                problems.append(f"cfr {fps}: the frame size changes at #{changes[0]['frame']}, the tool says same=True")
            slots, theirs = slots[:limit], theirs[:limit]
            if fps == 60:
                limit60 = limit

        def differs(i):
            if i >= len(slots) or i >= len(theirs) or slots[i] is None or slots[i] >= len(source):
                return True
            return source[slots[i]] != theirs[i]

        differing = sum(1 for i in range(max(len(slots), len(theirs))) if differs(i))
        if changes:
            if differing:
                problems.append(f"cfr {fps}: {differing} slots before the size change differ from ffmpeg")
        elif (differing == 0) != cfr["same_slots_as_ffmpeg"]:
            problems.append(f"cfr {fps}: {differing} slots differ from ffmpeg, the tool says same={cfr['same_slots_as_ffmpeg']}")
        if fps == 60:
            same60 = cfr["same_slots_as_ffmpeg"] or bool(changes)
    return problems, same60, limit60


def check_frames(path, repaired_differs, limit=None):
    duration = float(json.loads(run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "json",
                                     path]).stdout)["format"]["duration"])
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        png = os.path.join(tmp, "frame.png")
        for share in (0.2, 0.5, 0.85):
            slot = int(duration * share * 60)
            if limit is not None and slot >= limit:
                continue
            extra = ["--timestamps", "ffmpeg"] if repaired_differs else []
            run([tool, "frame", path, "--at", f"{slot / 60 + 0.001:.4f}", "--output", png] + extra)
            # ffmpeg's own PNG of the slot (16 bits per channel from a source deeper than 8 bits, as
            # the tool's), both read at 16 bits so that neither is rounded.
            reference = os.path.join(tmp, "ffmpeg.png")
            run(["ffmpeg", "-v", "error", "-y", "-i", path, "-map", "0:v:0", "-vf", f"fps=60,select=eq(n\\,{slot})",
                 "-frames:v", "1", reference])
            mine, theirs = (run(["ffmpeg", "-v", "error", "-i", p, "-f", "rawvideo", "-pix_fmt", "rgb48be", "-"]).stdout
                            for p in (png, reference))
            if not mine or mine != theirs:
                problems.append(f"frame at slot {slot} differs from ffmpeg")
    return problems


def timed(argv):
    start = time.time()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.time() - start


failures, ratios, reported = 0, [], 0
for path in files:
    grid_problems, same60, limit60 = check_cfr(path)
    problems = check_timestamps(path) + grid_problems + check_frames(path, not same60, limit60)
    analysis = tool_json(["analyze", path])
    flips, turns = len(analysis.get("flips") or []), len(analysis.get("turns") or [])
    if flips or turns:
        problems.append(f"{flips} flips and {turns} turns reported (none is real)")
    reported += flips + turns
    tool_s, ffmpeg_s = [], []
    for _ in range(rounds):
        tool_s.append(timed([tool, "analyze", path]))
        ffmpeg_s.append(timed(["ffmpeg", "-v", "quiet", "-threads", "0", "-i", path, "-map", "0:v:0", "-f", "null", "-"]))
    ratio = statistics.median(tool_s) / statistics.median(ffmpeg_s)
    ratios.append(ratio)
    failures += bool(problems)
    status = "ok" if not problems else "; ".join(problems)
    print(f"{os.path.basename(path)[:52]:52s} analyze {statistics.median(tool_s):6.2f} s  ffmpeg {statistics.median(ffmpeg_s):6.2f} s"
          f"  x{ratio:.2f}  {status}", flush=True)
if ratios:
    print(f"\n{len(files)} captures: {failures} with a failed check, {reported} flips and turns reported; "
          f"analyze / ffmpeg decode: median x{statistics.median(ratios):.2f}, worst x{max(ratios):.2f}")
sys.exit(1 if failures else 0)
