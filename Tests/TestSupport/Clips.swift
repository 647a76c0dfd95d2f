import Foundation

/// Small clips made with the ffmpeg CLI during the test run.
public enum Clips {
    /// One 120x90 frame of testsrc2 (edges, gradients, colour bars, text) in `pixelFormat` and
    /// `range` ("tv" or "pc"), encoded with `codec` into `dir/clip.<container>`; with the frame the
    /// ffmpeg CLI decodes from it, as raw bytes in the same pixel format.
    public static func testPattern(
        pixelFormat: String, range: String, codec: String, container: String = "mkv", in dir: URL
    ) throws -> (path: String, raw: [UInt8]) {
        let path = dir.appendingPathComponent("clip.\(container)").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc2=size=120x90:rate=10", "-frames:v", "1", "-vf", "scale=out_range=\(range)",
            "-c:v", codec, "-pix_fmt", pixelFormat, "-color_range", range, path
        ])
        let rawPath = dir.appendingPathComponent("frame.raw").path
        try TestSupport.ffmpegRun(["-i", path, "-f", "rawvideo", "-pix_fmt", pixelFormat, rawPath])
        return (path, [UInt8](try Data(contentsOf: URL(fileURLWithPath: rawPath))))
    }

    /// Two VP9 segments in one WebM, 15 frames of 160x120 then 15 of 96x72 at 30 fps, joined with
    /// the concat demuxer without re-encoding: a capture whose frame size changes (a browser
    /// recording of a resized window). Nil when this ffmpeg has no VP9 encoder.
    public static func vp9SizeChange(in dir: URL) throws -> String? {
        guard TestSupport.ffmpegHasEncoder("libvpx-vp9") else { return nil }
        var parts: [String] = []
        for (k, size) in ["160x120", "96x72"].enumerated() {
            let part = dir.appendingPathComponent("part\(k).webm").path
            try TestSupport.ffmpegRun([
                "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30", "-frames:v", "15", "-output_ts_offset", "\(Double(k) * 0.5)",
                "-c:v", "libvpx-vp9", "-deadline", "realtime", "-b:v", "200k", part
            ])
            parts.append("file '\(part)'")
        }
        let list = dir.appendingPathComponent("parts.txt")
        try (parts.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        let path = dir.appendingPathComponent("size-change.webm").path
        try TestSupport.ffmpegRun(["-f", "concat", "-safe", "0", "-i", list.path, "-c", "copy", path])
        return path
    }

    /// A 2 s 30 fps H.264 clip with B-frames in an MP4.
    public static func h264WithBFrames(in dir: URL, name: String = "bframes.mp4") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "2",
            "-c:v", "libx264", "-bf", "3", "-pix_fmt", "yuv420p", path
        ])
        return path
    }

    /// 1.6 s at 30 fps of four scenes (white, a test pattern, black, another pattern), H.264 as
    /// x264 writes it at `veryfast`: a scene cut too close to the last IDR becomes a non-IDR I
    /// picture that the container still flags as a sync sample (libavcodec's decoder does not mark
    /// it a key frame).
    public static func h264SceneCuts(in dir: URL, name: String = "scene-cuts.mov") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i",
            "color=white:s=320x240:r=30:d=0.3,format=yuv420p[a];testsrc2=s=320x240:r=30:d=0.5,format=yuv420p[b];"
                + "color=black:s=320x240:r=30:d=0.3,format=yuv420p[c];testsrc=s=320x240:r=30:d=0.5,format=yuv420p[d];"
                + "[a][b][c][d]concat=n=4:v=1:a=0",
            "-c:v", "libx264", "-preset", "veryfast", "-crf", "31", "-bf", "0", "-pix_fmt", "yuv420p", path
        ])
        return path
    }

    /// A 2 s 30 fps HEVC clip with B-frames in a QuickTime file.
    public static func hevcWithBFrames(in dir: URL, name: String = "hevc.mov") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "2",
            "-c:v", "libx265", "-x265-params", "bframes=3:log-level=error", "-pix_fmt", "yuv420p",
            "-tag:v", "hvc1", path
        ])
        return path
    }

    /// A 2 s 30 fps H.264 clip without B-frames in a 1/600 QuickTime file, remuxed so that frame 13 is
    /// presented late (pts 290, after frame 14's 280) and frame 20 shares frame 21's pts (420).
    public static func editedPTS(in dir: URL) throws -> String {
        let source = dir.appendingPathComponent("plain.mov").path
        let path = dir.appendingPathComponent("edited.mov").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "2",
            "-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p", "-video_track_timescale", "600", source
        ])
        try TestSupport.ffmpegRun([
            "-i", source, "-c", "copy", "-video_track_timescale", "600",
            "-bsf:v", "setts=pts=if(eq(N\\,13)\\,PTS+30\\,if(eq(N\\,20)\\,PTS+20\\,PTS))", path
        ])
        return path
    }

    /// The timing trap of real `simctl` HEVC captures, made small: HEVC with B-frames in a 1/600
    /// QuickTime file, remuxed so that in output order one frame shares the next frame's pts (packet 16:
    /// 280 → 300) and one is presented after its successor (packet 11: 220 → 250). FFmpeg's
    /// `best_effort_timestamp` then falls back to dts for the duplicated frame.
    public static func simctlLikeTiming(in dir: URL) throws -> String {
        let source = dir.appendingPathComponent("simctl-source.mov").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "2",
            "-c:v", "libx265", "-x265-params", "bframes=3:log-level=error", "-pix_fmt", "yuv420p",
            "-tag:v", "hvc1", "-video_track_timescale", "600", source
        ])
        let path = dir.appendingPathComponent("simctl-like.mov").path
        try TestSupport.ffmpegRun([
            "-i", source, "-c", "copy", "-video_track_timescale", "600", "-tag:v", "hvc1",
            "-bsf:v", "setts=pts=if(eq(N\\,16)\\,PTS+20\\,if(eq(N\\,11)\\,PTS+30\\,PTS))", path
        ])
        return path
    }

    /// A QuickTime file cut off before its index, like a recorder killed with SIGKILL.
    public static func truncatedBeforeIndex(in dir: URL) throws -> String {
        let source = dir.appendingPathComponent("whole.mov").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "1",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", source
        ])
        var data = try Data(contentsOf: URL(fileURLWithPath: source))
        // The mov muxer writes moov last: find it and cut there.
        guard let range = data.range(of: Data("moov".utf8)) else { throw TestSupportError.failed("no moov in \(source)") }
        data = data.prefix(range.lowerBound - 4)
        let path = dir.appendingPathComponent("killed.mov").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An audio-only file.
    public static func audioOnly(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("audio.m4a").path
        try TestSupport.ffmpegRun(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", path])
        return path
    }
}

extension Clips {
    /// Variable-frame-rate clips of different kinds, made with the ffmpeg CLI: irregular frame
    /// intervals, half-slot timestamps, B-frames, a first frame not at 0, HEVC.
    public static func variableRate(in dir: URL) throws -> [String] {
        var paths: [String] = []
        // 1. H.264 without B-frames in a QuickTime 1/600 file: frames dropped irregularly from 60 fps.
        let a = dir.appendingPathComponent("vfr-qt.mov").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=60", "-t", "3",
            "-vf", "select='not(mod(n\\,3))+eq(n\\,7)+between(n\\,40\\,47)+gt(n\\,150)'",
            "-fps_mode", "passthrough", "-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p",
            "-video_track_timescale", "600", a
        ])
        paths.append(a)
        // 2. H.264 with B-frames in MP4 at 1/1000: 40 fps source gives 25 ms steps, exactly 1.5 slots at 60 fps.
        let b = dir.appendingPathComponent("vfr-bframes.mp4").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=40", "-t", "3",
            "-vf", "select='not(between(n\\,20\\,50))'", "-fps_mode", "passthrough",
            "-c:v", "libx264", "-bf", "3", "-pix_fmt", "yuv420p", "-video_track_timescale", "1000", b
        ])
        paths.append(b)
        // 3. Matroska (1/1000), first frame at 0.35 s, irregular 24/30 fps mix.
        let c = dir.appendingPathComponent("vfr-offset.mkv").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "3",
            "-vf", "select='not(mod(n\\,4))+between(n\\,30\\,38)',setpts=PTS+0.35/TB",
            "-fps_mode", "passthrough", "-c:v", "libx264", "-bf", "2", "-pix_fmt", "yuv420p", c
        ])
        paths.append(c)
        // 4. HEVC with B-frames, variable rate.
        let d = dir.appendingPathComponent("vfr-hevc.mov").path
        try TestSupport.ffmpegRun([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=60", "-t", "3",
            "-vf", "select='lt(n\\,20)+gt(n\\,120)*not(mod(n\\,5))'", "-fps_mode", "passthrough",
            "-c:v", "libx265", "-x265-params", "bframes=3:log-level=error", "-pix_fmt", "yuv420p",
            "-tag:v", "hvc1", "-video_track_timescale", "600", d
        ])
        paths.append(d)
        return paths
    }

    /// A copy of a QuickTime/MP4 file whose (first) video track header carries the display matrix
    /// [a b 0; c d 0; 0 0 1] (16.16 fixed point, as `tkhd` stores it): what a phone writes for a
    /// recording held upright, or an editor for a turned or mirrored clip. The ffmpeg CLI 5.1 can
    /// write rotations only; this writes flips too.
    public static func withDisplayMatrix(_ source: String, a: Int32, b: Int32, c: Int32, d: Int32, to path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let tkhd = Array("tkhd".utf8)
        guard let at = (4..<(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == tkhd }) else {
            throw TestSupportError.failed("\(source): no tkhd box")
        }
        // After the type: version and flags, then times, ids and sizes (longer in version 1).
        let matrix = at + 4 + (bytes[at + 4] == 1 ? 48 : 36) + 4
        for (k, value) in [a, b, 0, c, d, 0, 0, 0, 0x4000_0000].enumerated() {
            let big = UInt32(bitPattern: value).bigEndian
            withUnsafeBytes(of: big) { for j in 0..<4 { bytes[matrix + 4 * k + j] = $0[j] } }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
