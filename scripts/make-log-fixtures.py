#!/usr/bin/env python3
"""Writes Tests/Fixtures/logs/: SampleMedia/probe-console.txt's lines as the unified log prints them
(`log show`/`log stream` default, compact, syslog, json, ndjson), with lines from another process and
another category mixed in (which the parser must ignore and count). The shapes follow Apple's log(1);
every line is written here, none copied from a real log. Run: python3 scripts/make-log-fixtures.py
"""
import json
import os

SOURCE = "SampleMedia/probe-console.txt"
OUT = "Tests/Fixtures/logs"
SUBSYSTEM, CATEGORY = "com.example.tinnitus", "FlipProbe"
FOREIGN_EVERY = 9  # after every ninth probe line, one probe-like line from elsewhere

records = []
for raw in open(SOURCE, encoding="utf-8").read().splitlines():
    if not raw.strip():
        continue
    date, time, proc, message = raw.split(" ", 3)
    name, ids = proc[:-1].split("[")
    pid, tid = ids.split(":")
    records.append({"date": date, "time": time, "process": name, "pid": int(pid), "tid": int(tid), "message": message})

def with_foreign(rs):
    out = []
    n = 0
    for r in rs:
        out.append((r, CATEGORY, r["process"]))
        if "skew=" in r["message"]:
            n += 1
            if n % FOREIGN_EVERY == 0:
                out.append((dict(r, message="#99  skew=-0.50000  elapsed=+1.00000 | old=0.50000 ←L | new=0.50000 ←L"), CATEGORY, "Safari"))
                out.append((dict(r, message="#98  skew=-0.40000  elapsed=+1.00000 | old=0.50000 ←L | new=0.50000 ←L"), "Audio", r["process"]))
    return out

def zone(t):  # 16:14:24.600388+0000 -> ("16:14:24.600388", "+0000")
    return t[:-5], t[-5:]

def default_line(r, cat, proc):
    t, z = zone(r["time"])
    return f"{r['date']} {t}{z} 0x{r['tid']:x}   Default     0x0                  {r['pid']:<6} 0    {proc}: (Tinnitus.debug.dylib) [{SUBSYSTEM}:{cat}] {r['message']}"

def compact_line(r, cat, proc):
    t, _ = zone(r["time"])
    return f"{r['date']} {t[:12]} Df {proc}[{r['pid']}:{r['tid']:x}] (Tinnitus.debug.dylib) [{SUBSYSTEM}:{cat}] {r['message']}"

def syslog_line(r, cat, proc):
    t, z = zone(r["time"])
    return f"{r['date']} {t}{z}  localhost {proc}[{r['pid']}]: (Tinnitus.debug.dylib) [{SUBSYSTEM}:{cat}] {r['message']}"

def json_object(r, cat, proc):
    t, z = zone(r["time"])
    return {"timestamp": f"{r['date']} {t}{z}", "messageType": "Default", "eventType": "logEvent", "threadID": r["tid"],
            "processID": r["pid"], "processImagePath": f"/Users/dev/Library/Developer/CoreSimulator/Devices/X/data/Containers/Bundle/Application/Y/{proc}.app/{proc}",
            "subsystem": SUBSYSTEM, "category": cat, "eventMessage": r["message"], "formatString": "%{public}s"}

rows = with_foreign(records)
os.makedirs(OUT, exist_ok=True)
header = "Timestamp                       Thread     Type        Activity             PID    TTL  "
with open(os.path.join(OUT, "probe-log-show.txt"), "w", encoding="utf-8") as f:
    f.write("Filtering the log data using \"subsystem == \\\"com.example.tinnitus\\\"\"\n" + header + "\n")
    f.write("\n".join(default_line(*x) for x in rows) + "\n")
with open(os.path.join(OUT, "probe-compact.txt"), "w", encoding="utf-8") as f:
    f.write("Timestamp               Ty Process[PID:TID]\n" + "\n".join(compact_line(*x) for x in rows) + "\n")
with open(os.path.join(OUT, "probe-syslog.txt"), "w", encoding="utf-8") as f:
    f.write("\n".join(syslog_line(*x) for x in rows) + "\n")
with open(os.path.join(OUT, "probe.json"), "w", encoding="utf-8") as f:
    f.write(json.dumps([json_object(*x) for x in rows], indent=2, ensure_ascii=False) + "\n")
with open(os.path.join(OUT, "probe.ndjson"), "w", encoding="utf-8") as f:
    f.write("\n".join(json.dumps(json_object(*x), ensure_ascii=False) for x in rows) + "\n")
print(f"wrote {len(rows)} records in 5 styles to {OUT}")
