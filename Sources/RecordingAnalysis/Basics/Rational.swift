/// An exact rational number such as a time base (`1/600`) or a frame rate (`30000/1001`).
///
/// Mirrors FFmpeg's `AVRational`; integer timestamps are always paired with one.
public struct Rational: Hashable, Sendable, CustomStringConvertible {
    public let numerator: Int64
    public let denominator: Int64

    /// Creates `numerator/denominator`. The denominator must not be zero.
    public init(_ numerator: Int64, _ denominator: Int64) {
        precondition(denominator != 0, "Rational with zero denominator")
        if denominator < 0 {
            self.numerator = -numerator
            self.denominator = -denominator
        } else {
            self.numerator = numerator
            self.denominator = denominator
        }
    }

    /// Parses `60`, `29.97` is refused; `30000/1001` and `60/1` are accepted.
    /// Returns nil for anything that is not a positive, finite rational.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
            let num = Int64(parts[0]), num > 0, num <= 1_000_000_000
        else { return nil }
        var den: Int64 = 1
        if parts.count == 2 {
            guard let d = Int64(parts[1]), d > 0, d <= 1_000_000_000 else { return nil }
            den = d
        }
        self.init(num, den)
    }

    /// The value as a floating-point number, for display only.
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// The reciprocal (a frame rate's frame period, a time base's tick rate).
    public var inverse: Rational { Rational(denominator, numerator) }

    public var description: String { "\(numerator)/\(denominator)" }

    /// `60` for whole numbers, `30000/1001` otherwise: how rates are written on the command line.
    public var compactDescription: String { denominator == 1 ? String(numerator) : description }
}

/// How `rescale` rounds, named after FFmpeg's `AVRounding`.
public enum Rounding: Sendable {
    /// Round half away from zero (`AV_ROUND_NEAR_INF`, the default of `av_rescale_q`).
    case nearInfinity
    /// Toward negative infinity (`AV_ROUND_DOWN`).
    case down
    /// Toward positive infinity (`AV_ROUND_UP`).
    case up
}

/// Rescales `value` from time base `from` to time base `to` exactly, as `av_rescale_q_rnd` does:
/// `value * from / to` computed with 128-bit intermediates, then rounded.
/// Results outside `Int64` saturate (FFmpeg returns INT64_MIN there; saturation keeps the
/// arithmetic trap-free for absurd input).
public func rescale(_ value: Int64, from: Rational, to: Rational, rounding: Rounding = .nearInfinity) -> Int64 {
    let b = Int128(from.numerator) * Int128(to.denominator)
    let c = Int128(from.denominator) * Int128(to.numerator)
    return rescale(value, multiplier: b, divisor: c, rounding: rounding)
}

/// `value * multiplier / divisor` rounded; the core of `rescale(_:from:to:rounding:)`.
func rescale(_ value: Int64, multiplier b: Int128, divisor c: Int128, rounding: Rounding) -> Int64 {
    guard c != 0 else { return value < 0 ? Int64.min : Int64.max }
    var num = Int128(value) * b
    var den = c
    if den < 0 {
        den = -den
        num = -num
    }
    let q: Int128
    switch rounding {
    case .down:
        q = num >= 0 ? num / den : -((-num + den - 1) / den)
    case .up:
        q = num >= 0 ? (num + den - 1) / den : -((-num) / den)
    case .nearInfinity:
        let half = den / 2
        q = num >= 0 ? (num + half) / den : -((-num + half) / den)
    }
    if q > Int128(Int64.max) { return Int64.max }
    if q < Int128(Int64.min) { return Int64.min }
    return Int64(q)
}
