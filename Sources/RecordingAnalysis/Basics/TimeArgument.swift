/// A time on the recording clock given on the command line: `4.05`, `4.05s`, `4050ms`.
///
/// Kept exact as a rational number of seconds, so `floor(TIME × R)` never suffers from binary
/// floating point (4.05 × 60 is 243, not 242.99999).
public struct TimeArgument: Sendable, Equatable, CustomStringConvertible {
    /// Seconds as an exact fraction.
    public let seconds: Rational

    public init(seconds: Rational) { self.seconds = seconds }

    /// Parses a non-negative decimal with an optional `s` or `ms` unit; nil when malformed.
    public init?(parsing text: String) {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        var scale: Int64 = 1
        if body.hasSuffix("ms") {
            body = body.dropLast(2)
            scale = 1000
        } else if body.hasSuffix("s") {
            body = body.dropLast(1)
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let whole = parts[0], fraction = parts.count == 2 ? parts[1] : ""
        guard !(whole.isEmpty && fraction.isEmpty), whole.count <= 9, fraction.count <= 9,
            whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit)
        else { return nil }
        var denominator: Int64 = 1
        for _ in 0..<fraction.count { denominator *= 10 }
        let numerator = (Int64(whole) ?? 0) * denominator + (Int64(fraction) ?? 0)
        seconds = Rational(numerator, denominator * scale)
    }

    /// `floor(seconds × rate)`: the constant-rate slot that contains this time.
    public func slot(at rate: Rational) -> Int64 {
        rescale(seconds.numerator, from: Rational(rate.numerator, seconds.denominator), to: Rational(rate.denominator, 1), rounding: .down)
    }

    /// This time in ticks of `timeBase`, rounded to nearest as `av_rescale_q` does.
    public func ticks(in timeBase: Rational) -> Int64 {
        rescale(seconds.numerator, from: Rational(1, seconds.denominator), to: timeBase)
    }

    public var description: String { String(format: "%.3f s", seconds.doubleValue) }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

import Foundation
