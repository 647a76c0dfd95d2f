#!/usr/bin/env python3
"""make web-captures PAGES=DIR OUT=DIR: screen recordings of real web pages, none with a sprite.

Real text, code, tables and images as a browser lays them out are what a UI capture mostly shows,
and none of it was drawn by this project. For COUNT pages picked (seeded) from the HTML files under
PAGES, Chromium under Xvfb shows the page in a phone-sized window at 1x, 2x or 3x, and a driver page
(served with the pages from one local HTTP server, so that it may script them) plays what a user
does: scrolls smoothly, flicks, pages down, opens a link on the page (a navigation), scrolls the new
page, goes back. ffmpeg's x11grab records it at 60 fps; it is then encoded as recorders do
(H.264/HEVC, crf 18–34, B-frames or not, change-driven VFR by mpdecimate or every refresh).

The captures go to OUT; check them with `make real-check CAPTURES=OUT` (every flip or turn there
is false). Needs Xvfb, Chromium and ffmpeg with x11grab (Debian: apt-get install xvfb chromium ffmpeg).
COUNT (default 12) and SEED (default 1) from the environment."""
import functools
import http.server
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time

from recorder_encoding import encode_like_a_recorder

DRIVER = """<!doctype html><meta charset="utf-8"><style>html,body{margin:0;height:100%;overflow:hidden}
iframe{border:0;width:100%;height:100%}</style><iframe id="f" src="/pages/PAGE"></iframe><script>
const f = document.getElementById('f');
const wait = ms => new Promise(r => setTimeout(r, ms));
const win = () => f.contentWindow;
async function smooth(dy, ms) {
  const start = performance.now(), y0 = win().scrollY;
  while (performance.now() - start < ms) {
    const t = (performance.now() - start) / ms;
    win().scrollTo(0, y0 + dy * (1 - Math.cos(Math.PI * t)) / 2);
    await new Promise(r => requestAnimationFrame(r));
  }
}
async function play() {
  await wait(600);
  await smooth(SPEED, 1500);
  await wait(400);
  for (let i = 0; i < 3; i++) { win().scrollBy(0, 120); await wait(120); }
  await wait(400);
  win().scrollBy(0, win().innerHeight * 0.9);
  await wait(600);
  const links = [...win().document.querySelectorAll('a[href]')].filter(a => {
    const r = a.getBoundingClientRect();
    return r.top > 0 && r.bottom < win().innerHeight && !a.getAttribute('href').startsWith('#') && a.href.startsWith(location.origin);
  });
  if (links.length) links[LINK % links.length].click();
  await wait(1200);
  try { await smooth(SPEED / 2, 1000); } catch (e) {}
  await wait(500);
  history.back();
  await wait(1000);
  try { await smooth(-SPEED, 1200); } catch (e) {}
}
f.onload = () => { if (!window.started) { window.started = true; play(); } };
</script>"""

SECONDS = 12
REFRESH = 60


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: record-web-pages.py PAGES OUT (make web-captures PAGES=DIR OUT=DIR)")
    pages_root, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    for tool in ("Xvfb", "chromium", "ffmpeg"):
        if shutil.which(tool) is None:
            sys.exit(f"record-web-pages: {tool} not found (Debian: apt-get install xvfb chromium ffmpeg)")
    pages = sorted(os.path.relpath(os.path.join(d, f), pages_root)
                   for d, _, fs in os.walk(pages_root) for f in fs
                   if f.endswith(".html") and os.path.getsize(os.path.join(d, f)) > 8000)
    if not pages:
        sys.exit(f"record-web-pages: no HTML pages over 8 kB under {pages_root}")
    count, rng = int(os.environ.get("COUNT", "12")), random.Random(int(os.environ.get("SEED", "1")))
    os.makedirs(out, exist_ok=True)
    serve = os.path.join(out, ".serve")
    os.makedirs(serve, exist_ok=True)
    link = os.path.join(serve, "pages")
    if not os.path.islink(link):
        os.symlink(pages_root, link)
    handler = functools.partial(QuietHandler, directory=serve)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    for i in range(count):
        c = {"name": f"web-{i + 1:03d}", "page": rng.choice(pages), "scale": rng.choice([1, 2, 3]),
             "speed": rng.choice([900, 1600, 2600]), "link": rng.randrange(1000),
             "codec": rng.choice(["h264", "hevc"]), "crf": rng.randint(18, 34), "b_frames": rng.choice([0, 2]),
             "vfr": rng.random() < 0.6}
        mov = os.path.join(out, c["name"] + ".mov")
        if os.path.exists(mov):
            continue
        driver = os.path.join(serve, c["name"] + ".html")
        with open(driver, "w") as fh:
            fh.write(DRIVER.replace("PAGE", c["page"]).replace("SPEED", str(c["speed"])).replace("LINK", str(c["link"])))
        raw = os.path.join(out, c["name"] + ".nut")
        record(c, f"http://127.0.0.1:{port}/{c['name']}.html", raw, f":{90 + i % 9}")
        encode_like_a_recorder(raw, mov, c)
        os.remove(raw)
        print(f"{c['name']}.mov  {c['page']}  {c['scale']}x  {c['codec']} crf {c['crf']} b-frames {c['b_frames']}"
              f"  {'vfr' if c['vfr'] else 'every refresh'}", flush=True)
    server.shutdown()
    shutil.rmtree(serve, ignore_errors=True)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def record(c, url, raw, display):
    w, h = 390 * c["scale"], 844 * c["scale"]
    profile = raw + ".profile"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", f"{w}x{h}x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.8)
    if xvfb.poll() is not None:
        sys.exit(f"record-web-pages: Xvfb could not start on display {display} (is another server using it?)")
    browser = subprocess.Popen(
        ["chromium", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}", f"--force-device-scale-factor={c['scale']}",
         "--window-position=0,0", "--window-size=390,844", "--kiosk", "--no-first-run", "--hide-scrollbars",
         f"--display={display}", url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.3)
        subprocess.check_call(["ffmpeg", "-v", "error", "-y", "-f", "x11grab", "-framerate", str(REFRESH), "-video_size", f"{w}x{h}",
                               "-draw_mouse", "0", "-i", display, "-frames:v", str(SECONDS * REFRESH),
                               "-c:v", "libx264", "-preset", "ultrafast", "-qp", "0", "-f", "nut", raw])
    finally:
        browser.send_signal(signal.SIGTERM)
        browser.wait()
        xvfb.terminate()
        xvfb.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
