#!/usr/bin/env python3
"""make desktop-captures OUT=DIR: screen recordings of a real toolkit's own demos, none with a sprite.

GTK 4's demo program (Debian: gtk-4-examples) shows the motion real app screens are made of, drawn
by a real toolkit and not by this project: icons that bounce about or scroll by the hundred (many of
them mirror images of each other, as undo and redo), a sphere of icons dragged round (icons near
its rim squeezed and mirrored pairs passing each other), gears and a trefoil turning (a shape whose
mirror image is itself turned), lists flicked down and sideways, sidebar and stack transitions that
slide pages in, a puzzle's tiles slid, strokes painted, mines cleared, pegs dragged, a spinner. Each scene runs in a phone-sized window (390 x 844
points) at 1x, 2x or 3x (GDK_SCALE) under Xvfb, is driven by xdotool where a user would act, is
recorded by ffmpeg's x11grab at 60 fps and encoded as recorders do (H.264/HEVC, crf 18-34, B-frames
or not, change-driven VFR or every refresh).

Check them with `make real-check CAPTURES=OUT` (every flip or turn there is false). Needs Xvfb,
gtk4-demo, xdotool and ffmpeg with x11grab (Debian: apt-get install xvfb gtk-4-examples xdotool
ffmpeg). SEED (default 1) picks each scene's scale and encoding; ONLY (demo names, comma-separated)
records just those scenes."""
import os
import random
import shutil
import subprocess
import sys
import time

from recorder_encoding import encode_like_a_recorder

SECONDS = 10
REFRESH = 60
WIDTH, HEIGHT = 390, 844


def drag(x0, y0, x1, y1, steps=40, pause=0.03):
    """A press at (x0, y0), a drag to (x1, y1) in `steps` moves, a release: xdotool commands in points."""
    moves = [["mousemove", x0 + (x1 - x0) * k // steps, y0 + (y1 - y0) * k // steps, pause] for k in range(1, steps + 1)]
    return [["mousemove", x0, y0, 0.1], ["mousedown", 1, 0.05]] + moves + [["mouseup", 1, 0.3]]


def keys(name, count, pause=0.08):
    """`count` presses of key `name`, to the focused window."""
    return [["key", name, pause]] * count


def wheel(x, y, button, count, pause=0.04):
    """`count` clicks of wheel `button` (4 up, 5 down, 6 left, 7 right) with the pointer at (x, y)."""
    return [["mousemove", x, y, 0.1]] + [["click", button, pause]] * count


# Each scene: the demo and what the user does (xdotool command, its arguments in points, then the
# seconds to wait after it). Scenes without actions animate by themselves.
SCENES = [
    ("iconscroll", []),
    ("fishbowl", []),
    ("paintable_animated", []),
    ("paintable_mediastream", [["wait", 0.8], ["mousemove", 195, 422, 0.3], ["click", 1, 6.0]]),
    ("gears", []),
    ("textscroll", []),
    ("spinner", []),
    ("revealer", []),
    ("gltransition", []),
    ("layoutmanager2", [["wait", 0.8], ["windowfocus", "WINDOW", 0.2]] + keys("Left", 40) + keys("Up", 15) + keys("Right", 60)),
    ("layoutmanager", [["wait", 0.8], ["mousemove", 195, 400, 0.1], ["click", 1, 2.5], ["click", 1, 2.5], ["click", 1, 1.0]]),
    ("listview_words", [["wait", 0.8]] + wheel(195, 450, 5, 60) + [["wait", 0.8]] + wheel(195, 450, 4, 40)),
    ("listview_ucd", [["wait", 0.8]] + wheel(195, 450, 5, 50) + [["wait", 0.5]] + drag(195, 700, 195, 200, steps=30)),
    ("listview_weather", [["wait", 0.8]] + wheel(195, 300, 7, 60) + [["wait", 0.5]] + wheel(195, 300, 6, 40)),
    ("listview_colors", [["wait", 0.8]] + wheel(195, 450, 5, 50) + [["wait", 0.5]] + wheel(195, 450, 4, 30)),
    ("iconview", [["wait", 0.8]] + wheel(195, 450, 5, 40) + [["wait", 0.5]] + wheel(195, 450, 4, 40)),
    ("sidebar", [["wait", 0.8]] + [c for y in (60, 100, 140, 80, 120) for c in (["mousemove", 40, y, 0.1], ["click", 1, 1.3])]),
    ("stack", [["wait", 0.8]] + [c for x in (150, 230, 80, 230) for c in (["mousemove", x, 20, 0.1], ["click", 1, 1.5])]),
    ("css_accordion", [["wait", 0.8]] + [["mousemove", x, y, 0.08] for y in (300, 422, 550) for x in range(10, 380, 16)]),
    ("sliding_puzzle", [["wait", 0.8], ["windowfocus", "WINDOW", 0.2]] + [["key", k, 0.35] for k in "Left Up Right Down Left Left Up Right".split()]),
    ("paint", [["wait", 0.8]] + drag(60, 300, 330, 360) + drag(330, 500, 60, 450) + drag(100, 650, 300, 250)),
    ("listview_minesweeper", [["wait", 0.8]] + [c for x, y in ((100, 300), (250, 400), (150, 550), (300, 250), (60, 650))
                                                 for c in (["mousemove", x, y, 0.1], ["click", 1, 0.9])]),
    ("peg_solitaire", [["wait", 0.8]] + drag(195, 300, 195, 422, steps=20) + drag(100, 422, 195, 422, steps=20)
                      + drag(300, 422, 195, 422, steps=20)),
]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: record-desktop-demos.py OUT (make desktop-captures OUT=DIR)")
    out = os.path.abspath(sys.argv[1])
    for tool in ("Xvfb", "gtk4-demo", "xdotool", "ffmpeg"):
        if shutil.which(tool) is None:
            sys.exit(f"record-desktop-demos: {tool} not found (Debian: apt-get install xvfb gtk-4-examples xdotool ffmpeg)")
    rng = random.Random(int(os.environ.get("SEED", "1")))
    os.makedirs(out, exist_ok=True)
    only = set(filter(None, os.environ.get("ONLY", "").split(",")))
    for i, (demo, actions) in enumerate(SCENES):
        # Every scene draws its settings, recorded or not, so ONLY keeps each scene's own.
        c = {"name": f"gtk-{i + 1:03d}-{demo}", "scale": rng.choice([1, 2, 3]),
             "codec": rng.choice(["h264", "hevc"]), "crf": rng.randint(18, 34), "b_frames": rng.choice([0, 2]),
             "vfr": rng.random() < 0.6}
        mov = os.path.join(out, c["name"] + ".mov")
        if os.path.exists(mov) or (only and demo not in only):
            continue
        raw = os.path.join(out, c["name"] + ".nut")
        record(demo, actions, c["scale"], raw, f":{80 + i % 9}")
        encode_like_a_recorder(raw, mov, c)
        os.remove(raw)
        print(f"{c['name']}.mov  {c['scale']}x  {c['codec']} crf {c['crf']} b-frames {c['b_frames']}"
              f"  {'vfr' if c['vfr'] else 'every refresh'}", flush=True)


def record(demo, actions, scale, raw, display):
    w, h = WIDTH * scale, HEIGHT * scale
    env = dict(os.environ, DISPLAY=display, GDK_SCALE=str(scale), NO_AT_BRIDGE="1")
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{w}x{h}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.8)
    if xvfb.poll() is not None:
        sys.exit(f"record-desktop-demos: Xvfb could not start on display {display} (is another server using it?)")
    app = subprocess.Popen(["gtk4-demo", "--run", demo], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    recorder = None
    try:
        window = wait_for_window(app.pid, env)
        # No window manager: the window is placed and sized as a phone's screen by hand.
        subprocess.run(["xdotool", "windowmove", window, "0", "0", "windowsize", window, str(w), str(h)], env=env, check=True)
        time.sleep(1.0)
        recorder = subprocess.Popen(
            ["ffmpeg", "-v", "error", "-y", "-f", "x11grab", "-framerate", str(REFRESH), "-video_size", f"{w}x{h}",
             "-draw_mouse", "0", "-i", display, "-frames:v", str(SECONDS * REFRESH),
             "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-f", "nut", raw])
        for command, *arguments in actions:
            pause = arguments.pop()
            if command != "wait":
                arguments = [window if a == "WINDOW" else a * scale if command == "mousemove" else a for a in arguments]
                subprocess.run(["xdotool", command] + [str(a) for a in arguments], env=env)
            time.sleep(pause)
        if recorder.wait() != 0:
            sys.exit(f"record-desktop-demos: ffmpeg could not record {demo}")
    finally:
        if recorder and recorder.poll() is None:
            recorder.terminate()
        app.terminate()
        app.wait()
        xvfb.terminate()
        xvfb.wait()


def wait_for_window(pid, env):
    """The demo's visible window, once it has one (10 s at most)."""
    for _ in range(100):
        r = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)], env=env, capture_output=True, text=True)
        if r.stdout.split():
            return r.stdout.split()[-1]
        time.sleep(0.1)
    sys.exit(f"record-desktop-demos: gtk4-demo showed no window (pid {pid})")


if __name__ == "__main__":
    main()
