#!/usr/bin/env python3
"""Refreshes the example outputs in README.md by running the commands they show.

A block looks like:

    <!-- output: analyze-recording timestamps SampleMedia/flip.mov -->
    ```text
    ...replaced...
    ```
    <!-- end output -->

The command runs with .build/release/analyze-recording; its stdout and stderr, and its exit status
when it is not 0, replace the block's contents. Run via `make readme`.
"""
import re
import shlex
import subprocess
import sys

BIN = ".build/release/analyze-recording"
pattern = re.compile(r"(<!-- output: (.*?) -->\n)```text\n.*?```\n(<!-- end output -->)", re.S)


def run(command: str) -> str:
    argv = shlex.split(command)
    assert argv[0] == "analyze-recording", command
    p = subprocess.run([BIN] + argv[1:], capture_output=True, text=True, env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"})
    text = f"$ {command}\n" + p.stdout + p.stderr
    if p.returncode != 0:
        text += f"(exit status {p.returncode})\n"
    return text


def main() -> int:
    readme = open("README.md", encoding="utf-8").read()
    readme = pattern.sub(lambda m: m.group(1) + "```text\n" + run(m.group(2)) + "```\n" + m.group(3), readme)
    open("README.md", "w", encoding="utf-8").write(readme)
    return 0


if __name__ == "__main__":
    sys.exit(main())
