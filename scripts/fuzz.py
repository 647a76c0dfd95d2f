#!/usr/bin/env python3
"""make fuzz: mutate the sample captures and probe logs, run every subcommand on each, and fail on
any crash (signal), hang (over TIMEOUT s), exit status outside 0/1/65, or failure without an error line.

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
CAPTURES = ["SampleMedia/flip.mov", "SampleMedia/turns.mov", "SampleMedia/nonmonotonic.mov", "SampleMedia/flip-hevc.mov"]
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


def mutate_capture(data, rng):
    data = bytearray(data)
    kind = rng.choice(["bitflip", "bitflip-index", "truncate", "zero-box", "shuffle-boxes", "swap-atoms", "box-size", "atom-field"])
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


def check(argv, label, saved, payload, ext):
    try:
        p = subprocess.run(argv, capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return fail("hang", label, argv, saved, payload, ext)
    err = p.stderr.decode("utf-8", "replace").strip()
    if p.returncode < 0:
        return fail(f"signal {-p.returncode}", label, argv, saved, payload, ext, err)
    if p.returncode not in ALLOWED:
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
    captures = [(p, open(p, "rb").read()) for p in CAPTURES if os.path.exists(p)]
    logs = [(p, open(p, encoding="utf-8").read()) for p in LOGS]
    deadline = time.time() + SECONDS
    runs = cases = 0
    saved = []
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
            if cases % 50 == 0:
                print(f"{cases} cases, {runs} runs, {len(saved)} failures", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"fuzz: seed {SEED}, {SECONDS:.0f} s: {cases} cases, {runs} runs, {len(saved)} failures")
    sys.exit(1 if saved else 0)


if __name__ == "__main__":
    main()
