import Foundation

/// What the ffmpeg CLI does, asked through framemd5: the oracle for the constant-rate grid.
public enum FFmpegOracle {
    /// md5 of every decoded source frame, in decoder output order (`-fps_mode passthrough`).
    public static func sourceHashes(_ path: String) throws -> [String] {
        try hashes(["-i", path, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "framemd5", "-"])
    }

    /// The slot map of `ffmpeg -i REC -vf fps=RATE`: for each output frame, the index of the source
    /// frame with the same md5 (the first at or after the previous slot's source, so repeated
    /// pictures cannot confuse it).
    public static func fpsSlotMap(_ path: String, rate: String, copyTimestamps: Bool = false) throws -> [Int] {
        let sources = try sourceHashes(path)
        let outputs = try hashes(
            (copyTimestamps ? ["-copyts"] : []) + ["-i", path, "-map", "0:v:0", "-vf", "fps=\(rate)", "-f", "framemd5", "-"])
        var map: [Int] = []
        var floor = 0
        for hash in outputs {
            guard let index = sources[floor...].firstIndex(of: hash) ?? sources.firstIndex(of: hash) else {
                throw TestSupportError.failed("output frame \(map.count) of fps=\(rate) matches no source frame")
            }
            map.append(index)
            floor = index
        }
        return map
    }

    /// The md5 of every output frame of the ffmpeg command a grid rule names (`-vf fps=RATE` or
    /// `-fps_mode cfr -r RATE`, with or without `-copyts`): compared with the tool's map turned into
    /// source md5s, so that identical pictures cannot confuse the comparison.
    public static func outputHashes(_ path: String, rate: String, fpsModeCFR: Bool, copyTimestamps: Bool) throws -> [String] {
        let conversion = fpsModeCFR ? ["-fps_mode", "cfr", "-r", rate] : ["-vf", "fps=\(rate)"]
        return try hashes((copyTimestamps ? ["-copyts"] : []) + ["-i", path, "-map", "0:v:0"] + conversion + ["-f", "framemd5", "-"])
    }

    /// Raw RGB24 pixels of slot `k` of `fps=RATE`, as ffmpeg extracts it.
    public static func fpsFrameRGB(_ path: String, rate: String, slot: Int, in dir: URL) throws -> [UInt8] {
        let out = dir.appendingPathComponent("slot-\(slot).rgb").path
        try TestSupport.ffmpegRun([
            "-i", path, "-map", "0:v:0", "-vf", "fps=\(rate),select=eq(n\\,\(slot))", "-frames:v", "1",
            "-f", "rawvideo", "-pix_fmt", "rgb24", out
        ])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// Raw RGB24 pixels of source frame `index` (decoder output order), as ffmpeg extracts it.
    public static func frameRGB(_ path: String, index: Int, in dir: URL) throws -> [UInt8] {
        let out = dir.appendingPathComponent("frame-\(index).rgb").path
        try TestSupport.ffmpegRun([
            "-i", path, "-map", "0:v:0", "-vf", "select=eq(n\\,\(index))", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", out
        ])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    private static func hashes(_ arguments: [String]) throws -> [String] {
        guard let ffmpeg = TestSupport.ffmpeg else { throw TestSupportError.missing("ffmpeg") }
        let r = try TestSupport.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-nostdin"] + arguments)
        guard r.status == 0 else { throw TestSupportError.failed("ffmpeg \(arguments.joined(separator: " ")): \(r.stderr)") }
        return r.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            line.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}
