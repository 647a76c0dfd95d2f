#!/usr/bin/env python3
"""make bench: time analyze-recording against FFmpeg itself, per class of capture.

Generates (once) with the project's sample maker and the ffmpeg CLI, into bench-media/ (git-ignored),
one capture per class:
  snail-3x-busy    bench-h264-20s.mov  the snail at 3x (1206 x 2622, 60 fps) over rain, one flip
  hevc-bframes     bench-hevc-20s.mov  the same, HEVC with B-frames
  60s              bench-h264-60s.mov  the same, 60 s (memory must stay flat in length)
  ui-only          bench-ui-20s.mov    UI without a sprite at 3x: scrolling, paging, a push, a keyboard
  120hz            bench-h264-120hz.mov  the snail capture's frames retimed to 120 Hz (ffmpeg setts)
  template         bench-h264-20s.mov with --template SampleMedia/snail.png (a 1x template on a 3x capture)
Then runs, side by side and REPEAT times each (median reported): analyze (the full pipeline,
--evidence into a scratch folder), the same without --evidence (what a check that writes no
evidence pays), timestamps, `ffmpeg -threads 0 -i FILE -f null -` (the reference)
and `ffprobe -show_frames FILE` (the timestamp audit's reference), with peak resident memory
(wait4's ru_maxrss); then `batch` over the class captures with --jobs 1 and --jobs (cores), wall and
CPU time. Prints the per-class table with ratios to FFmpeg, writes bench-media/bench.json
and rewrites the results section of BENCHMARKS.md.
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


def run(argv, cpu=False):
    """Runs argv with stdout/stderr discarded; returns (seconds, peak RSS in MB, exit status), and
    with cpu=True also the CPU seconds of the process and its children."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    result = (elapsed, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status))
    if cpu:
        # wait4's usage of a child includes the grandchildren it waited for (batch's analyses).
        used = usage.ru_utime + usage.ru_stime
        return result + (used,)
    return result


def batch_scaling(files):
    """`batch` on the class captures with --jobs 1 and --jobs (cores): wall time, CPU time and the
    throughput ratio (issue 14: J jobs at least 0.9 x J times one job's throughput until the cores
    run out)."""
    cores = os.cpu_count() or 1
    rows = []
    for jobs in sorted({1, cores}):
        runs = [run([BIN, "batch", *files, "--jobs", str(jobs), "--json-lines", os.devnull], cpu=True) for _ in range(REPEAT)]
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[3] for r in runs)
        rows.append({"jobs": jobs, "captures": len(files), "median_s": round(wall, 3), "cpu_s": round(cpu, 3),
                     "cores_busy": round(cpu / wall, 2), "peak_rss_mb": round(max(r[1] for r in runs), 1)})
    return rows


def ensure_media():
    wanted = [("bench-h264-20s.mov", "20", "h264"), ("bench-hevc-20s.mov", "20", "hevc"), ("bench-h264-60s.mov", "60", "h264")]
    for name, seconds, codec in wanted:
        path = os.path.join(MEDIA, name)
        if not os.path.exists(path):
            print(f"generating {path} ...", flush=True)
            subprocess.run([MAKER, "--bench", MEDIA, seconds, codec], check=True)
    ui = os.path.join(MEDIA, "bench-ui-20s.mov")
    if not os.path.exists(ui):
        print(f"generating {ui} ...", flush=True)
        subprocess.run([MAKER, "--bench-ui", MEDIA, "20"], check=True)
    hz = os.path.join(MEDIA, "bench-h264-120hz.mov")
    if not os.path.exists(hz):
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", os.path.join(MEDIA, "bench-h264-20s.mov"), "-c", "copy",
                        "-bsf:v", "setts=ts=TS/2", "-video_track_timescale", "600", hz], check=True)
    template = "SampleMedia/snail.png"
    return [("snail-3x-busy", os.path.join(MEDIA, "bench-h264-20s.mov"), []),
            ("hevc-bframes", os.path.join(MEDIA, "bench-hevc-20s.mov"), []),
            ("60s", os.path.join(MEDIA, "bench-h264-60s.mov"), []),
            ("ui-only", ui, []),
            ("120hz", hz, []),
            ("template", os.path.join(MEDIA, "bench-h264-20s.mov"), ["--template", template])]


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
    classes = ensure_media()
    scratch = os.path.join(MEDIA, "evidence")
    results = {}
    for label, f, extra in classes:
        if not os.path.exists(f):
            continue
        commands = {
            "analyze": [BIN, "analyze", f, "--evidence", scratch] + extra,
            "analyze, no evidence": [BIN, "analyze", f] + extra,
            "timestamps": [BIN, "timestamps", f],
            "ffmpeg decode": ["ffmpeg", "-nostdin", "-v", "error", "-threads", "0", "-i", f, "-f", "null", "-"],
            "ffprobe -show_frames": ["ffprobe", "-v", "error", "-show_frames", f],
        }
        results[label] = {}
        for _ in range(REPEAT):
            for name, argv in commands.items():  # interleaved, so load drifts hit every command alike
                t, rss, code = run(argv)
                if name.startswith("analyze") and code not in (0, 1):
                    sys.exit(f"bench: analyze failed on {f} with status {code}")
                results[label].setdefault(name, []).append((t, rss))
    rows = []
    for f, per in results.items():
        ref = statistics.median(t for t, _ in per["ffmpeg decode"])
        probe = statistics.median(t for t, _ in per["ffprobe -show_frames"])
        for name, runs in per.items():
            med = statistics.median(t for t, _ in runs)
            rss = max(r for _, r in runs)
            rows.append({"class": f, "command": name, "median_s": round(med, 3),
                         "ratio_to_ffmpeg_decode": round(med / ref, 3), "ratio_to_ffprobe": round(med / probe, 3),
                         "peak_rss_mb": round(rss, 1), "runs": len(runs)})
    header = f"{'class':<22} {'command':<22} {'median s':>9} {'x ffmpeg':>9} {'x ffprobe':>10} {'peak MB':>8}"
    lines = [header, "-" * len(header)]
    for r in rows:
        lines.append(f"{r['class']:<22} {r['command']:<22} {r['median_s']:>9.3f} {r['ratio_to_ffmpeg_decode']:>9.3f} "
                     f"{r['ratio_to_ffprobe']:>10.3f} {r['peak_rss_mb']:>8.1f}")
    ratios = [r["ratio_to_ffmpeg_decode"] for r in rows if r["command"] == "analyze"]
    if ratios:
        lines.append("")
        lines.append(f"analyze / ffmpeg decode: median {statistics.median(ratios):.2f}x over {len(ratios)} classes, worst {max(ratios):.2f}x")
    plain = [r["ratio_to_ffmpeg_decode"] for r in rows if r["command"] == "analyze, no evidence"]
    if plain:
        lines.append(f"analyze without --evidence: median {statistics.median(plain):.2f}x, worst {max(plain):.2f}x")
    probe = [r["ratio_to_ffprobe"] for r in rows if r["command"] == "timestamps"]
    if probe:
        lines.append(f"timestamps / ffprobe -show_frames: median {statistics.median(probe):.3f}x (speed-up {1 / statistics.median(probe):.0f}x)")
    batch_files = sorted({f for _, f, extra in classes if os.path.exists(f) and not extra})
    batch = batch_scaling(batch_files)
    lines.append("")
    lines.append(f"batch over the {len(batch_files)} class captures (wall s, CPU s, cores kept busy):")
    for b in batch:
        speedup = batch[0]["median_s"] / b["median_s"]
        lines.append(f"  --jobs {b['jobs']}: {b['median_s']:.2f} s, CPU {b['cpu_s']:.2f} s, {b['cores_busy']:.2f} cores busy, "
                     f"throughput x{speedup:.2f} of one job")
    table = "\n".join(lines)
    print(table)
    info = {"machine": machine(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "repeat": REPEAT, "results": rows,
            "batch": batch}
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
