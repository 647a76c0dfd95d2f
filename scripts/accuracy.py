#!/usr/bin/env python3
"""make accuracy: the mirror-flip detector against ground truth on seeded random captures.

Generates ACCURACY_COUNT captures (default 200, seed ACCURACY_SEED=1) with make-sample-media
--accuracy, runs `analyze-recording orientation` on each in auto mode and in template mode (the
sprite's @1x asset, whatever its size and the capture's pixel scale), and prints flip recall and
precision per axis and overall, real turns found, and flips and turns reported on UI-only captures
(in auto mode, and in template mode with each sprite's template, which is not there). A flip is found when a reported flip starts within one refresh period of the
truth and lasts as long to within one period. Also: the share of frames whose facing is unknown,
and recall apart on the flips the encoding kept (each frame and the frame either side decoded nearer
the facing drawn than the other) and on those it blurred past halfway in one of them (FlipSurvival).
Writes .build/accuracy/results.json."""
import json, os, subprocess, sys, collections

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
bins = subprocess.check_output(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, text=True).strip()
# ANALYZE_RECORDING: another build of the tool to score on the same captures.
tool, maker = os.environ.get("ANALYZE_RECORDING", os.path.join(bins, "analyze-recording")), os.path.join(bins, "make-sample-media")
count = int(os.environ.get("ACCURACY_COUNT", "200"))
seed = os.environ.get("ACCURACY_SEED", "1")
out = os.environ.get("ACCURACY_DIR", os.path.join(root, ".build", "accuracy"))
truth_path = os.path.join(out, "truth.jsonl")
def stale():
    """The captures must be made again: missing, another count or seed, or an older generator."""
    seed_path = os.path.join(out, ".seed")
    if not os.path.exists(truth_path) or not os.path.exists(seed_path):
        return True
    if sum(1 for _ in open(truth_path)) != count or open(seed_path).read() != seed:
        return True
    return os.path.getmtime(truth_path) < os.path.getmtime(maker)
if stale():
    subprocess.check_call([maker, "--accuracy", out, str(count), seed])
    open(os.path.join(out, ".seed"), "w").write(seed)

# Score one fixed binary even if the tree is rebuilt meanwhile.
import shutil
shutil.copy2(tool, os.path.join(out, "analyze-recording"))
tool = os.path.join(out, "analyze-recording")
cases = [json.loads(l) for l in open(truth_path)]
axes = ["sprite", "size_band", "refresh", "scale", "brightness", "codec", "b_frames", "crf_band", "body_every", "rearmed",
        "bounce", "turn", "companion", "occluded", "ui_only"]
tally = {mode: collections.defaultdict(lambda: [0, 0, 0, 0]) for mode in ("auto", "template")}  # truth, found, reported, correct
unknown = {"auto": [0, 0], "template": [0, 0]}
# Frames whose facing was measured and decided, and how many of them the wrong way round: the
# sprite's true facing at the refresh the frame shows (its turns and flips), frames at a change of
# facing or the refresh before it left out. A decided frame read the wrong way is the error a fail-closed tool must not make.
wrong = {"auto": [0, 0], "template": [0, 0]}
# Turns: truth turns, reported turns that match one, reported turns in all, reported turns that are
# the second sprite's real turn (the one tracked was not the sprite the truth is about); UI-only:
# seconds, flips, turns.
turn_tally = {mode: [0, 0, 0, 0] for mode in ("auto", "template")}
ui = {"seconds": 0.0, "flips": 0, "turns": 0, "captures": 0}
# Template mode on the UI-only captures, with each sprite's template (none of them is there): runs,
# refused (exit 65), located without a finding, flips and turns reported, runs with findings.
ui_template = {"runs": 0, "refused": 0, "located": 0, "flips": 0, "turns": 0, "findings": 0}
# What a check of each capture would say without a log, from the same runs: a capture of the bug
# (at least one true flip) is "seen" when a flip is reported, "open" when the video could not rule
# one out (sprite never located, template refused, unknown or undecided frames: UNDETERMINED), and
# a "wrong pass" otherwise; a capture without a flip (UI-only) passes or is open.
outcomes = {mode: collections.Counter() for mode in ("auto", "template")}
failures = []
# Flips by what the encoding left of them (make-sample-media's flip_survival and side_survival: the
# margin between the sprite as drawn and the other way round, in the decoded pixels, of the flip's
# weakest frame and of the weaker frame beside it): truth and found where each of those frames
# decoded nearer its drawn facing, truth and found where at least one did not.
survival = {mode: [0, 0, 0, 0] for mode in ("auto", "template")}
# Runs that neither answered (0, 1) nor refused the template (65): a crash, a signal or an internal
# error must not pass for an open answer, so each is listed and counted.
errors = []
# Every (capture, mode) run first, on all cores; scored in order below.
from concurrent.futures import ThreadPoolExecutor
SPRITES = ("snail", "car", "bird", "drop")
def orientation(job):
    c, mode = job
    # "template:KIND" on a UI-only capture: a template of a sprite that is not there.
    kind = mode.split(":", 1)[1] if ":" in mode else c.get("sprite", "snail")
    extra = [] if mode == "auto" else ["--template", os.path.join(out, kind + ".png")]
    return job_key(job), subprocess.run([tool, "orientation", os.path.join(out, c["file"]), "--json", "-"] + extra,
                                        capture_output=True, text=True)
def job_key(job): return (job[0]["file"], job[1])
jobs = [(c, m) for c in cases for m in (("auto",) + tuple(f"template:{k}" for k in SPRITES) if c.get("ui_only") else ("auto", "template"))]
with ThreadPoolExecutor(max(1, os.cpu_count() or 1)) as pool:
    runs = dict(pool.map(orientation, jobs))
for c in cases:
    c.setdefault("sprite", "snail"); c.setdefault("ui_only", False); c.setdefault("turns", [])
    c["crf_band"] = "18-24" if c["crf"] <= 24 else "25-29" if c["crf"] <= 29 else "30-34"
    px = c.get("sprite_px", 60 * c["scale"])
    c["size_band"] = "none" if c["ui_only"] else "20-59" if px < 60 else "60-119" if px < 120 else "120-250"
    c["turn"] = bool(c["turns"])
    c.setdefault("bounce", False); c.setdefault("companion", False); c.setdefault("occluded", False)
    period = 1.0 / c["refresh"]
    truth = [(s * period, n * period) for s, n in c["flips"]]
    truth_turns = [t * period for t in c["turns"]]
    template = os.path.join(out, c["sprite"] + ".png")
    modes = (("auto", []),) if c["ui_only"] else (("auto", []), ("template", ["--template", template]))
    if c["ui_only"]:
        ui["captures"] += 1
        ui["seconds"] += c.get("duration_s", 4.0)
        for kind in SPRITES:
            r = runs[(c["file"], f"template:{kind}")]
            ui_template["runs"] += 1
            if r.returncode == 65:
                ui_template["refused"] += 1
            elif r.returncode in (0, 1):
                d = json.loads(r.stdout)
                ui_template["located"] += 1
                ui_template["flips"] += len(d["flips"]); ui_template["turns"] += len(d["turns"])
                ui_template["findings"] += r.returncode == 1
                if r.returncode == 1 or d["flips"] or d["turns"]:
                    failures.append((f"template:{kind}", c["file"], [], [(f["start_s"], f["duration_ms"] / 1000) for f in d["flips"]], "", []))
            else:
                errors.append((f"template:{kind}", c["file"], r.returncode, r.stderr.strip()[:120]))
    for mode, extra in modes:
        r = runs[(c["file"], mode)]
        if r.returncode not in (0, 1, 65):
            errors.append((mode, c["file"], r.returncode, r.stderr.strip()[:120]))
        reported, reported_turns = [], []
        open_answer = True
        if r.returncode in (0, 1):  # 1: flips found (a finding), the JSON is complete
            d = json.loads(r.stdout)
            reported = [(f["start_s"], f["duration_ms"] / 1000) for f in d["flips"]]
            # As `analyze` decides without a log (CaptureFindings): open when the sprite was never
            # located or a flip could hide in unknown or undecided frames, and in auto mode whenever
            # no flip was seen (nothing ties the object it followed to the sprite under test).
            open_answer = (not d["orientation"].get("sprite_located", True) or bool(d["unknown"]) or bool(d["undecided"])
                           or (mode == "auto" and not reported))
            reported_turns = [t["at_s"] for t in d["turns"]]
            frames = d["orientation"].get("frames", [])
            unknown[mode][0] += sum(1 for f in frames if f["facing"] == "unknown")
            unknown[mode][1] += len(frames)
            if not c["ui_only"]:
                changes = [s for s, n in c["flips"]] + [s + n for s, n in c["flips"]] + c["turns"]
                # Auto mode names facings after the appearance it first knew, which may be the mirrored
                # one: its first facing is the sprite's facing at the start.
                start = d["orientation"].get("initial_facing")
                for f in frames:
                    if mode == "auto":
                        named = f["facing"] in ("initial", "mirrored") and start in ("initial", "mirrored")
                        read = int(f["facing"] != start) if named else None
                    else:
                        read = {"right": 0, "left": 1}.get(f["facing"])
                    k = round(f["time_s"] * c["refresh"])
                    if read is None or not f.get("measured", True) or any(k in (x - 1, x) for x in changes):
                        continue
                    true = (sum(1 for t in c["turns"] if t <= k) + sum(1 for s, n in c["flips"] if s <= k < s + n)) % 2
                    wrong[mode][1] += 1
                    wrong[mode][0] += read != true
        matched = 0
        used = set()
        margins = [min((m for m in pair if m is not None), default=None)
                   for pair in zip(c.get("flip_survival", [None] * len(truth)), c.get("side_survival", [None] * len(truth)))]
        for (ts, td), margin in zip(truth, margins):
            found = False
            for i, (rs, rd) in enumerate(reported):
                if i not in used and abs(rs - ts) <= period + 1e-6 and abs(rd - td) <= period + 1e-6:
                    used.add(i); matched += 1; found = True; break
            if margin is not None:
                kept = 0 if margin > 0 else 2
                survival[mode][kept] += 1; survival[mode][kept + 1] += found
        turns_matched = sum(1 for t in truth_turns if any(abs(t - x) <= period + 1e-6 for x in reported_turns))
        turn_tally[mode][0] += len(truth_turns); turn_tally[mode][1] += turns_matched; turn_tally[mode][2] += len(reported_turns)
        if c.get("companion_turn") is not None:
            companion_turn = c["companion_turn"] * period
            turn_tally[mode][3] += sum(1 for x in reported_turns if abs(x - companion_turn) <= period + 1e-6
                                       and not any(abs(t - x) <= period + 1e-6 for t in truth_turns))
        if c["ui_only"]:
            ui["flips"] += len(reported); ui["turns"] += len(reported_turns)
        if truth:
            outcomes[mode]["bug: seen" if reported else "bug: open" if open_answer else "bug: wrong pass"] += 1
        else:
            outcomes[mode]["no flip: flip reported" if reported else "no flip: open" if open_answer else "no flip: pass"] += 1
        if matched != len(truth) or len(reported) != matched:
            failures.append((mode, c["file"], truth, reported, r.stderr.strip()[:120], margins))
        for key in ["all"] + [f"{a}={c[a]}" for a in axes]:
            t = tally[mode][key]
            t[0] += len(truth); t[1] += matched; t[2] += len(reported); t[3] += matched

def pct(a, b): return f"{100 * a / b:.1f} %" if b else "–"
lines = [f"{count} captures, seed {seed}", "", "| mode | axis | flips | recall | precision |", "| --- | --- | --- | --- | --- |"]
for mode in ("auto", "template"):
    for key in sorted(tally[mode], key=lambda k: (k != "all", k)):
        t = tally[mode][key]
        lines.append(f"| {mode} | {key} | {t[0]} | {pct(t[1], t[0])} | {pct(t[3], t[2])} |")
lines.append("")
for mode in ("auto", "template"):
    lines.append(f"{mode}: frames of unknown facing {unknown[mode][0]} of {unknown[mode][1]} ({pct(*unknown[mode])})")
for mode in ("auto", "template"):
    lines.append(f"{mode}: frames read the wrong way round {wrong[mode][0]} of {wrong[mode][1]} decided ({pct(*wrong[mode])})")
for mode in ("auto", "template"):
    t = turn_tally[mode]
    lines.append(f"{mode}: real turns {t[0]}, found {t[1]} ({pct(t[1], t[0])}), reported {t[2]}"
                 f" ({t[3]} of them the second sprite's real turn, {t[2] - t[1] - t[3]} false)")
for mode in ("auto", "template"):
    k = survival[mode]
    lines.append(f"{mode}: flips whose frames and the frame either side decoded nearer the facing drawn {k[0]},"
                 f" recall {pct(k[1], k[0])}; flips the encoding blurred past halfway in one of those frames {k[2]}, found {k[3]}")
for mode in ("auto", "template"):
    lines.append(f"{mode}: verdicts without a log: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes[mode].items())))
minutes = ui["seconds"] / 60
lines.append(f"UI-only: {ui['captures']} captures, {ui['seconds']:.0f} s; auto mode reported {ui['flips']} flips and {ui['turns']} turns"
             + (f" ({ui['flips'] / minutes:.2f} flips and {ui['turns'] / minutes:.2f} turns per minute)" if minutes else ""))
lines.append(f"UI-only, template mode with each sprite's template (none is there): {ui_template['runs']} runs, refused (exit 65)"
             f" {ui_template['refused']}, located {ui_template['located']} ({ui_template['findings']} with findings),"
             f" {ui_template['flips']} flips and {ui_template['turns']} turns reported")
lines.append(f"runs that ended in an error (exit status other than 0, 1 or 65): {len(errors)}")
lines += [f"   {e}" for e in errors]
print("\n".join(lines))
print(f"\n{len(failures)} capture/mode pairs not exact:")
for f in failures[:40]:
    print("  ", f)
json.dump({"tally": {m: dict(v) for m, v in tally.items()}, "unknown": unknown, "wrong": wrong, "turns": turn_tally, "ui_only": ui, "ui_only_template": ui_template, "outcomes": outcomes, "survival": survival, "failures": failures,
           "errors": errors},
          open(os.path.join(out, "results.json"), "w"), indent=1)
