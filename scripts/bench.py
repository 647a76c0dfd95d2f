#!/usr/bin/env python3
"""make bench: time analyze-recording against FFmpeg itself on long native-resolution captures.

Generates (once) with the project's sample maker, into bench-media/ (git-ignored):
  bench-h264-20s.mov, bench-hevc-20s.mov, bench-h264-60s.mov   (1206 x 2622, 60 fps)
Then runs, side by side and REPEAT times each (median reported):
  analyze-recording analyze FILE       the full pipeline
  analyze-recording timestamps FILE    the timestamp audit
  ffmpeg -threads 0 -i FILE -f null -  FFmpeg decoding alone (the reference)
  ffprobe -show_frames FILE            the reference for the timestamp audit
and records peak resident memory of each run (wait4's ru_maxrss). Prints a table, writes
bench-media/bench.json and rewrites the results section of BENCHMARKS.md.
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import time

REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))
MEDIA = "bench-media"
BIN = ".build/release/analyze-recording"
MAKER = ".build/release/make-sample-media"


def run(argv):
    """Runs argv with stdout/stderr discarded; returns (seconds, peak RSS in MB, exit status)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


def ensure_media():
    wanted = [("bench-h264-20s.mov", "20", "h264"), ("bench-hevc-20s.mov", "20", "hevc"), ("bench-h264-60s.mov", "60", "h264")]
    for name, seconds, codec in wanted:
        path = os.path.join(MEDIA, name)
        if not os.path.exists(path):
            print(f"generating {path} ...", flush=True)
            subprocess.run([MAKER, "--bench", MEDIA, seconds, codec], check=True)
    return [os.path.join(MEDIA, n) for n, _, _ in wanted if os.path.exists(os.path.join(MEDIA, n))]


def machine():
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ff = subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True).stdout.splitlines()[0]
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; {ff}"


def main():
    files = ensure_media()
    commands = {
        "analyze": lambda f: [BIN, "analyze", f],
        "timestamps": lambda f: [BIN, "timestamps", f],
        "ffmpeg decode": lambda f: ["ffmpeg", "-nostdin", "-v", "error", "-threads", "0", "-i", f, "-f", "null", "-"],
        "ffprobe -show_frames": lambda f: ["ffprobe", "-v", "error", "-show_frames", f],
    }
    results = {}
    for f in files:
        results[f] = {}
        for _ in range(REPEAT):
            for name, argv in commands.items():  # interleaved, so load drifts hit every command alike
                t, rss, code = run(argv(f))
                if name == "analyze" and code not in (0, 1):
                    sys.exit(f"bench: analyze failed on {f} with status {code}")
                results[f].setdefault(name, []).append((t, rss))
    rows = []
    for f, per in results.items():
        ref = statistics.median(t for t, _ in per["ffmpeg decode"])
        probe = statistics.median(t for t, _ in per["ffprobe -show_frames"])
        for name, runs in per.items():
            med = statistics.median(t for t, _ in runs)
            rss = max(r for _, r in runs)
            rows.append({"file": os.path.basename(f), "command": name, "median_s": round(med, 3),
                         "ratio_to_ffmpeg_decode": round(med / ref, 3), "ratio_to_ffprobe": round(med / probe, 3),
                         "peak_rss_mb": round(rss, 1), "runs": len(runs)})
    header = f"{'file':<22} {'command':<22} {'median s':>9} {'x ffmpeg':>9} {'x ffprobe':>10} {'peak MB':>8}"
    lines = [header, "-" * len(header)]
    for r in rows:
        lines.append(f"{r['file']:<22} {r['command']:<22} {r['median_s']:>9.3f} {r['ratio_to_ffmpeg_decode']:>9.3f} "
                     f"{r['ratio_to_ffprobe']:>10.3f} {r['peak_rss_mb']:>8.1f}")
    table = "\n".join(lines)
    print(table)
    info = {"machine": machine(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "repeat": REPEAT, "results": rows}
    with open(os.path.join(MEDIA, "bench.json"), "w") as out:
        json.dump(info, out, indent=2)
    marker = "<!-- bench results -->"
    doc = open("BENCHMARKS.md").read() if os.path.exists("BENCHMARKS.md") else marker + "\n" + marker + "\n"
    head, _, rest = doc.partition(marker)
    _, _, tail = rest.partition(marker)
    section = f"{marker}\nMachine: {info['machine']}  \nDate: {info['date']}, median of {REPEAT} runs each.\n\n```text\n{table}\n```\n{marker}"
    with open("BENCHMARKS.md", "w") as out:
        out.write(head + section + tail)


if __name__ == "__main__":
    main()
