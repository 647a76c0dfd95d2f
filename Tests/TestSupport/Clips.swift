import Foundation

/// Small clips made with the ffmpeg CLI during the test run.
public enum Clips {
    /// A 2 s 30 fps H.264 clip with B-frames in an MP4.
    public static func h264WithBFrames(in dir: URL, name: String = "bframes.mp4") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try TestSupport.ffmpegRun(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "2",
                                   "-c:v", "libx264", "-bf", "3", "-pix_fmt", "yuv420p", path])
        return path
    }

    /// A 2 s 30 fps HEVC clip with B-frames in a QuickTime file.
    public static func hevcWithBFrames(in dir: URL, name: String = "hevc.mov") throws -> String {
        let path = dir.appendingPathComponent(name).path
        try TestSupport.ffmpegRun(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "2",
                                   "-c:v", "libx265", "-x265-params", "bframes=3:log-level=error", "-pix_fmt", "yuv420p",
                                   "-tag:v", "hvc1", path])
        return path
    }

    /// A 2 s 30 fps H.264 clip without B-frames in a 1/600 QuickTime file, remuxed so that frame 13 is
    /// presented late (pts 290, after frame 14's 280) and frame 20 shares frame 21's pts (420).
    public static func editedPTS(in dir: URL) throws -> String {
        let source = dir.appendingPathComponent("plain.mov").path
        let path = dir.appendingPathComponent("edited.mov").path
        try TestSupport.ffmpegRun(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "2",
                                   "-c:v", "libx264", "-bf", "0", "-pix_fmt", "yuv420p", "-video_track_timescale", "600", source])
        try TestSupport.ffmpegRun(["-i", source, "-c", "copy", "-video_track_timescale", "600",
                                   "-bsf:v", "setts=pts=if(eq(N\\,13)\\,PTS+30\\,if(eq(N\\,20)\\,PTS+20\\,PTS))", path])
        return path
    }

    /// A QuickTime file cut off before its index, like a recorder killed with SIGKILL.
    public static func truncatedBeforeIndex(in dir: URL) throws -> String {
        let source = dir.appendingPathComponent("whole.mov").path
        try TestSupport.ffmpegRun(["-f", "lavfi", "-i", "testsrc=size=160x120:rate=30", "-t", "1",
                                   "-c:v", "libx264", "-pix_fmt", "yuv420p", source])
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
