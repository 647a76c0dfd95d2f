import Foundation

/// The two ways the story's `WalkClock` turned elapsed time into a walk phase.
public enum WalkFormula: String, Sendable, CaseIterable {
    /// `raw = fmod(elapsed / period, 1); raw < 0 ? raw + 1 : raw`: wraps a slightly negative elapsed to ≈1.
    case legacy = "old"
    /// `max(0, elapsed) / period`, modulo 1: the fix.
    case clamped = "new"

    /// The phase in 0..<1 for `elapsed` seconds of walking with a round trip of `period` seconds.
    public func phase(elapsed: Double, period: Double) -> Double {
        switch self {
        case .legacy:
            let raw = (elapsed / period).truncatingRemainder(dividingBy: 1)
            return raw < 0 ? raw + 1 : raw
        case .clamped:
            return (max(0, elapsed) / period).truncatingRemainder(dividingBy: 1)
        }
    }

    /// Facing right while the phase is in the first half of the round trip.
    public static func facesRight(phase: Double) -> Bool { phase < 0.5 }

    /// The triangle wave 0 → 1 → 0 over one round trip.
    public static func triangle(phase: Double) -> Double { phase < 0.5 ? phase * 2 : 2 - phase * 2 }
}

/// SwiftUI's smoothstep easing used by the scene fade.
public func smoothstep(_ p: Double) -> Double {
    let x = min(1, max(0, p))
    return x * x * (3 - 2 * x)
}
