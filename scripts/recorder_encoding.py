"""A lossless screen recording encoded as a recorder or re-encoder would write it; shared by
browser-accuracy.py and record-web-pages.py."""
import os
import subprocess


def encode_like_a_recorder(raw, mov, c):
    """Encodes `raw` into `mov` (written whole or not at all) with c's "codec" (h264 or hevc), "crf",
    "b_frames" and "vfr" (change-driven frames by mpdecimate, as recorders emit while nothing moves)."""
    args = ["ffmpeg", "-v", "error", "-y", "-i", raw]
    if c["vfr"]:
        args += ["-vf", "mpdecimate=hi=1:lo=1:frac=0", "-fps_mode", "vfr"]
    if c["codec"] == "h264":
        args += ["-c:v", "libx264", "-preset", "veryfast", "-crf", str(c["crf"]), "-bf", str(c["b_frames"]), "-tag:v", "avc1"]
    else:
        args += ["-c:v", "libx265", "-preset", "fast", "-crf", str(c["crf"]), "-tag:v", "hvc1",
                 "-x265-params", f"log-level=error:bframes={c['b_frames']}"]
    subprocess.check_call(args + ["-pix_fmt", "yuv420p", "-an", mov + ".part.mov"])
    os.replace(mov + ".part.mov", mov)
