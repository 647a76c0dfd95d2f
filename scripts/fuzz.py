#!/usr/bin/env python3
"""make fuzz: mutate the sample captures and probe logs, run every subcommand on each, and fail on
any crash (signal), hang (over TIMEOUT s), exit status outside 0/1/65, or failure without an error line.

Besides blind mutations, structured ones edit the index the way real damage does: one sample-table
size (stsz), one chunk offset (stco), the edit list (elst), a duplicated sample, and a capture whose
resolution changes mid-stream. Never-passes check: a mutated fixed.mov that the ffmpeg CLI (the
oracle) decodes short of the original or with errors must never pass `analyze --expect fixed`.

Seeded and time-bounded:  FUZZ_SEED (default 1), FUZZ_SECONDS (default 600).
Failing inputs are saved under Tests/Fixtures/fuzz/, where FuzzRegressionTests replays them.
"""
import hashlib
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

BIN = os.environ.get("ANALYZE_RECORDING", ".build/release/analyze-recording")
SEED = int(os.environ.get("FUZZ_SEED", "1"))
SECONDS = float(os.environ.get("FUZZ_SECONDS", "600"))
TIMEOUT = float(os.environ.get("FUZZ_TIMEOUT", "60"))
FIXTURES = "Tests/Fixtures/fuzz"
CAPTURES = ["SampleMedia/fixed.mov", "SampleMedia/flip.mov", "SampleMedia/turns.mov", "SampleMedia/nonmonotonic.mov", "SampleMedia/flip-hevc.mov"]
LOGS = ["SampleMedia/probe.txt", "SampleMedia/probe-console.txt"]
ALLOWED = {0, 1, 65}


def top_level_boxes(data):
    boxes, offset = [], 0
    while offset + 8 <= len(data) and len(boxes) < 64:
        size = struct.unpack(">I", data[offset:offset + 4])[0]
        if size == 1 and offset + 16 <= len(data):
            size = struct.unpack(">Q", data[offset + 8:offset + 16])[0]
        if size < 8 or offset + size > len(data):
            break
        boxes.append((offset, size, data[offset + 4:offset + 8]))
        offset += size
    return boxes


ATOMS = [b"stts", b"ctts", b"stsz", b"stco", b"co64", b"stss", b"stsc", b"mdhd", b"tkhd", b"hdlr", b"stsd", b"avcC", b"hvcC", b"elst", b"mvhd"]


def table(data, atom, start):
    """(offset of the first entry, entry count) of a full box with a count after version/flags."""
    i = data.find(atom, start)
    if i < 0 or i + 16 > len(data):
        return None
    if atom == b"stsz":
        if struct.unpack(">I", data[i + 8:i + 12])[0] != 0:
            return None  # one size for every sample: no table
        return i + 16, struct.unpack(">I", data[i + 12:i + 16])[0]
    return i + 12, struct.unpack(">I", data[i + 8:i + 12])[0]


def mutate_structured(data, rng, moov):
    """Damage as it happens: a sample size, a chunk offset, the edit list, a duplicated sample."""
    kind = rng.choice(["sample-size", "chunk-offset", "edit-list", "duplicate-sample"])
    if kind == "sample-size" and (t := table(data, b"stsz", moov[0])):
        first, count = t
        k = rng.randrange(max(1, count))
        at = first + 4 * k
        if at + 4 <= len(data):
            data[at:at + 4] = struct.pack(">I", rng.choice([0, 1, 0x7FFFFFFF, rng.randrange(1 << 24)]))
    elif kind == "chunk-offset" and (t := table(data, b"stco", moov[0])):
        first, count = t
        at = first + 4 * rng.randrange(max(1, count))
        if at + 4 <= len(data):
            old = struct.unpack(">I", data[at:at + 4])[0]
            data[at:at + 4] = struct.pack(">I", rng.choice([0, len(data) + 100, max(0, old - rng.randrange(1, 5000)), old + rng.randrange(1, 5000)]) & 0xFFFFFFFF)
    elif kind == "edit-list" and (t := table(data, b"elst", moov[0])):
        first, count = t
        if first + 12 <= len(data):
            field = first + 4 * rng.randrange(3)
            data[field:field + 4] = struct.pack(">I", rng.choice([0, 1, 0xFFFFFFFF, 0x7FFFFFFF, rng.randrange(1 << 16)]))
            if rng.random() < 0.3:
                data[first - 4:first] = struct.pack(">I", rng.choice([2, 3, 1000]))
    elif kind == "duplicate-sample" and (t := table(data, b"stsz", moov[0])):
        first, count = t
        if count > 2:
            k = rng.randrange(count - 1)
            a = first + 4 * k
            if a + 8 <= len(data):
                data[a + 4:a + 8] = data[a:a + 4]
    return kind


def mutate_capture(data, rng):
    data = bytearray(data)
    kind = rng.choice(["bitflip", "bitflip-index", "truncate", "zero-box", "shuffle-boxes", "swap-atoms", "box-size", "atom-field",
                       "structured", "structured"])
    boxes = top_level_boxes(bytes(data))
    moov = next(((o, s) for o, s, t in boxes if t == b"moov"), (0, len(data)))
    if kind == "bitflip":
        for _ in range(rng.randint(1, 64)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
    elif kind == "bitflip-index":
        for _ in range(rng.randint(1, 16)):
            i = rng.randrange(moov[0], moov[0] + moov[1])
            data[i] ^= 1 << rng.randrange(8)
    elif kind == "truncate":
        data = data[:rng.randrange(len(data))]
    elif kind == "zero-box" and boxes:
        o, s, _ = rng.choice(boxes)
        start = o + 8 + rng.randrange(max(1, s - 8))
        end = min(o + s, start + rng.randint(1, 4096))
        data[start:end] = bytes(end - start)
    elif kind == "shuffle-boxes" and len(boxes) > 1:
        parts = [bytes(data[o:o + s]) for o, s, _ in boxes]
        rng.shuffle(parts)
        tail = bytes(data[boxes[-1][0] + boxes[-1][1]:])
        data = bytearray(b"".join(parts) + tail)
    elif kind == "swap-atoms":
        found = [(data.find(a, moov[0]), a) for a in ATOMS]
        found = [(i, a) for i, a in found if i >= 0]
        if len(found) >= 2:
            (i, a), (j, b) = rng.sample(found, 2)
            data[i:i + 4], data[j:j + 4] = b, a
    elif kind == "box-size":
        found = [data.find(a, moov[0]) for a in ATOMS]
        found = [i for i in found if i >= 4]
        if found:
            i = rng.choice(found)
            data[i - 4:i] = struct.pack(">I", rng.choice([0, 1, 7, 8, 0xFFFFFFFF, rng.randrange(1 << 32)]))
    elif kind == "structured":
        kind = mutate_structured(data, rng, moov)
    elif kind == "atom-field":
        found = [data.find(a, moov[0]) for a in ATOMS]
        found = [i for i in found if i >= 0 and i + 24 <= len(data)]
        if found:
            i = rng.choice(found) + 4 + rng.randrange(20)
            data[i:i + 4] = struct.pack(">I", rng.choice([0, 1, 0x7FFFFFFF, 0xFFFFFFFF, rng.randrange(1 << 32)]))
    return bytes(data), kind


def mutate_log(text, rng):
    lines = text.split("\n")
    kind = rng.choice(["drop-lines", "dup-lines", "numbers", "junk", "truncate", "arrows"])
    if kind == "drop-lines":
        for _ in range(rng.randint(1, 20)):
            if lines:
                del lines[rng.randrange(len(lines))]
    elif kind == "dup-lines" and lines:
        for _ in range(rng.randint(1, 20)):
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i])
    elif kind == "numbers":
        for _ in range(rng.randint(1, 20)):
            i = rng.randrange(len(lines))
            lines[i] = lines[i].replace(rng.choice(["-0.0", "+0.0", "0.9", "=8"]), rng.choice(["nan", "inf", "-1e308", "99999999999999999999", "", "=-", "0.5.5"]), 1)
    elif kind == "junk":
        blob = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4000)))
        return (text.encode() + blob).decode("latin-1"), kind
    elif kind == "truncate":
        return text[:rng.randrange(max(1, len(text)))], kind
    elif kind == "arrows":
        return text.replace("→R", rng.choice(["←L", "->", "→", ""])), kind
    return "\n".join(lines), kind


def ffmpeg_frames(path):
    """Frames the ffmpeg CLI decodes and whether it logged an error: the oracle for damage."""
    p = subprocess.run(["ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"],
                       capture_output=True, timeout=TIMEOUT)
    frames = sum(1 for line in p.stdout.decode("latin-1").splitlines() if line and not line.startswith("#"))
    return frames, bool(p.stderr.strip()) or p.returncode != 0


def check_never_passes(path, original_frames, label, saved, payload):
    """A capture the oracle finds damaged (fewer frames, or errors) must not pass --expect fixed.
    An edited edit list that only trims the start is a valid file, so there only errors count."""
    frames, errors = ffmpeg_frames(path)
    if (frames >= original_frames or label.endswith("edit-list")) and not errors:
        return True
    argv = [BIN, "analyze", path, "--expect", "fixed"]
    try:
        p = subprocess.run(argv, capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return fail("hang", label, argv, saved, payload, "mov")
    if p.returncode == 0:
        return fail(f"damaged capture passed (ffmpeg: {frames} of {original_frames} frames, errors: {errors})", label, argv, saved, payload, "mov",
                    p.stdout.decode("utf-8", "replace")[-300:])
    return True


def resolution_change(work):
    """A capture whose frame size changes mid-stream (MPEG-TS, the sizes concatenated), or None without ffmpeg."""
    path = os.path.join(work, "resize.ts")
    parts = []
    for i, size in enumerate(["390x844", "390x600", "200x844"]):
        part = os.path.join(work, f"part{i}.ts")
        r = subprocess.run(["ffmpeg", "-y", "-v", "error", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate=30", "-t", "1",
                            "-c:v", "libx264", "-pix_fmt", "yuv420p", part], capture_output=True)
        if r.returncode != 0:
            return None
        parts.append(open(part, "rb").read())
    with open(path, "wb") as out:
        out.write(b"".join(parts))
    return path


def check(argv, label, saved, payload, ext):
    try:
        p = subprocess.run(argv, capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return fail("hang", label, argv, saved, payload, ext)
    err = p.stderr.decode("utf-8", "replace").strip()
    if p.returncode < 0:
        return fail(f"signal {-p.returncode}", label, argv, saved, payload, ext, err)
    # `frame` at a time past the (possibly shortened) end is a usage error by the exit-code rule.
    allowed = ALLOWED | ({64} if "frame" in argv[1:2] and "ends at" in err else set())
    if p.returncode not in allowed:
        return fail(f"exit status {p.returncode}", label, argv, saved, payload, ext, err)
    if p.returncode == 65 and not err:
        return fail("status 65 without an error line", label, argv, saved, payload, ext)
    return True


def fail(why, label, argv, saved, payload, ext, err=""):
    digest = hashlib.sha1(payload).hexdigest()[:12]
    path = os.path.join(FIXTURES, f"{digest}.{ext}")
    with open(path, "wb") as out:
        out.write(payload)
    saved.append(path)
    print(f"FAIL ({why}) [{label}] {' '.join(argv)}\n  saved {path}\n  {err[:300]}", flush=True)
    return False


def main():
    rng = random.Random(SEED)
    os.makedirs(FIXTURES, exist_ok=True)
    work = tempfile.mkdtemp(prefix="fuzz-")
    runs = 0
    saved = []
    captures = [(p, open(p, "rb").read()) for p in CAPTURES if os.path.exists(p)]
    fixed_frames = ffmpeg_frames("SampleMedia/fixed.mov")[0] if os.path.exists("SampleMedia/fixed.mov") else 0
    resized = resolution_change(work)
    if resized:
        payload = open(resized, "rb").read()
        for argv in [[BIN, "timestamps", resized], [BIN, "cfr", resized], [BIN, "orientation", resized],
                     [BIN, "analyze", resized, "--evidence", os.path.join(work, "evidence")],
                     [BIN, "frame", resized, "--around", "1.0", "--count", "8", "--output", os.path.join(work, "strip.png")]]:
            runs += 1
            check(argv, "resolution change", saved, payload, "ts")
    logs = [(p, open(p, encoding="utf-8").read()) for p in LOGS]
    deadline = time.time() + SECONDS
    cases = 0

    try:
        while time.time() < deadline:
            cases += 1
            if rng.random() < 0.75:
                name, data = rng.choice(captures)
                payload, kind = mutate_capture(data, rng)
                path = os.path.join(work, "case.mov")
                with open(path, "wb") as out:
                    out.write(payload)
                png = os.path.join(work, "frame.png")
                commands = [[BIN, "timestamps", path], [BIN, "cfr", path, "--json", "-"], [BIN, "orientation", path],
                            [BIN, "analyze", path, "--log", "SampleMedia/probe.txt"],
                            [BIN, "frame", path, "--at", f"{rng.uniform(0, 8):.3f}", "--output", png]]
                ext = "mov"
            else:
                name, text = rng.choice(logs)
                mutated, kind = mutate_log(text, rng)
                payload = mutated.encode("utf-8", "surrogateescape") if isinstance(mutated, str) else mutated
                path = os.path.join(work, "case.txt")
                with open(path, "wb") as out:
                    out.write(payload)
                commands = [[BIN, "log", path], [BIN, "analyze", "SampleMedia/flip.mov", "--log", path]]
                ext = "txt"
            for argv in commands:
                runs += 1
                check(argv, f"{os.path.basename(name)} {kind}", saved, payload, ext)
            if ext == "mov" and name.endswith("fixed.mov") and fixed_frames:
                runs += 1
                check_never_passes(path, fixed_frames, f"{os.path.basename(name)} {kind}", saved, payload)
            if cases % 50 == 0:
                print(f"{cases} cases, {runs} runs, {len(saved)} failures", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"fuzz: seed {SEED}, {SECONDS:.0f} s: {cases} cases, {runs} runs, {len(saved)} failures")
    sys.exit(1 if saved else 0)


if __name__ == "__main__":
    main()
