#!/usr/bin/env python3
"""Prints the per-axis table of .build/accuracy/results.json (written by `make accuracy`) as the
Markdown table BENCHMARKS.md records: recall / precision per axis value, template and auto mode."""
import json, os, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, ".build", "accuracy", "results.json")
tally = json.load(open(path))["tally"]


def cell(row):
    truth, found, reported, correct = row
    recall = f"{100 * found / truth:.1f} %" if truth else "–"
    precision = f"{100 * correct / reported:.1f} %" if reported else "–"
    return f"{recall} / {precision}"


print("| axis | value | flips | template | auto |")
print("| --- | --- | --- | --- | --- |")
for key in sorted(k for k in tally["auto"] if k != "all"):
    axis, value = key.split("=", 1)
    template = tally["template"].get(key, [0, 0, 0, 0])
    print(f"| {axis} | {value} | {tally['auto'][key][0]} | {cell(template)} | {cell(tally['auto'][key])} |")
