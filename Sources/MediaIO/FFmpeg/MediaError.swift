import CFFmpeg
import Foundation

/// A failure from the FFmpeg libraries or from reading a recording, with the operation that failed.
///
/// End of stream and "try again" are control flow inside MediaIO and never surface as errors.
public struct MediaError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure this is, which decides the exit status the CLI reports.
    public enum Kind: Sendable, Equatable {
        /// The file is missing, unreadable or not a regular file (sysexits 66).
        case cannotOpen
        /// The bytes are not a usable recording (sysexits 65).
        case invalidData
        /// An output file could not be written (sysexits 73).
        case cannotCreate
        /// The libraries lack something this build needs, e.g. an encoder (sysexits 69).
        case unavailable
    }

    public let kind: Kind
    /// The operation that failed, e.g. `avformat_open_input`.
    public let operation: String
    /// FFmpeg's error code (`AVERROR(...)`), 0 when the failure did not come from FFmpeg.
    public let code: Int32
    /// A readable explanation: `av_strerror`'s text or MediaIO's own.
    public let message: String

    public init(kind: Kind, operation: String, code: Int32 = 0, message: String) {
        self.kind = kind
        self.operation = operation
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (\(operation))" }
}

/// FFmpeg's description of an error code, from `av_strerror`.
func ffmpegErrorText(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: Int(AV_ERROR_MAX_STRING_SIZE) + 1)
    let text: String = buffer.withUnsafeMutableBufferPointer { buf in
        guard let base = buf.baseAddress else { return "" }
        if av_strerror(code, base, buf.count - 1) < 0 {
            return "error \(code)"
        }
        return String(cString: base)
    }
    return text
}

/// The one funnel for FFmpeg calls that return an error code: negative codes become `MediaError`.
@discardableResult
func check(_ code: Int32, _ operation: @autoclosure () -> String, kind: MediaError.Kind = .invalidData) throws(MediaError) -> Int32 {
    if code >= 0 { return code }
    throw MediaError(kind: kind, operation: operation(), code: code, message: ffmpegErrorText(code))
}

/// The one funnel for FFmpeg allocations: nil means out of memory.
func allocated<T>(_ pointer: T?, _ operation: @autoclosure () -> String) throws(MediaError) -> T {
    guard let pointer else {
        throw MediaError(kind: .unavailable, operation: operation(), code: cff_error_from_errno(ENOMEM), message: "out of memory")
    }
    return pointer
}

enum FFmpegCodes {
    static let eof = cff_error_eof()
    static let again = cff_error_eagain()
    static let invalidData = cff_error_invaliddata()
    static let noPTS = cff_nopts_value()
}

/// FFmpeg's own console output is never printed (the tool reports problems itself, one line each),
/// but its error-level messages are kept: `FFmpegLog` counts them and keeps the first few, so a
/// damaged capture's report can say what FFmpeg said ("partial file", "Sample size … too large").
/// `ANALYZE_RECORDING_FFMPEG_LOG=1` prints everything at debug level instead.
let configureLogging: Void = {
    if ProcessInfo.processInfo.environment["ANALYZE_RECORDING_FFMPEG_LOG"] != nil {
        av_log_set_level(AV_LOG_DEBUG)
    } else {
        av_log_set_level(AV_LOG_ERROR)
        av_log_set_callback { _, level, format, arguments in
            guard level <= AV_LOG_ERROR, let format, let arguments else { return }
            var buffer = [CChar](repeating: 0, count: 256)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            FFmpegLog.shared.record(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }
}()

/// Error-level messages FFmpeg logged in this process: how many, and the first few.
public final class FFmpegLog: @unchecked Sendable {
    public static let shared = FFmpegLog()
    private let lock = NSLock()
    private var messages: [String] = []
    private var total = 0
    /// Distinct messages kept; later ones are only counted.
    public static let kept = 5

    /// Threads whose messages are counted apart (`separately`), with their counts.
    private var separate: [(thread: pthread_t, count: Int)] = []

    func record(_ message: String) {
        lock.lock()
        defer { lock.unlock() }
        if let k = separate.firstIndex(where: { pthread_equal($0.thread, pthread_self()) != 0 }) {
            separate[k].count += 1
            return
        }
        total += 1
        if messages.count < FFmpegLog.kept, !message.isEmpty, !messages.contains(message) { messages.append(message) }
    }

    /// Runs `body` with the error-level messages FFmpeg logs on this thread kept out of the
    /// process's count, which another pass on another thread may be comparing before and after
    /// itself; returns how many there were. Only for work that stays on this thread (a decoder
    /// with one thread).
    public func separately<T>(_ body: () throws -> T) rethrows -> (result: T, errors: Int) {
        lock.lock()
        separate.append((pthread_self(), 0))
        lock.unlock()
        defer {
            lock.lock()
            separate.removeAll { pthread_equal($0.thread, pthread_self()) != 0 }
            lock.unlock()
        }
        let result = try body()
        lock.lock()
        let errors = separate.first(where: { pthread_equal($0.thread, pthread_self()) != 0 }).map(\.count) ?? 0
        lock.unlock()
        return (result, errors)
    }

    /// The count so far and the messages kept, to compare before and after a decoding pass.
    public var snapshot: (count: Int, messages: [String]) {
        lock.lock()
        defer { lock.unlock() }
        return (total, messages)
    }
}
