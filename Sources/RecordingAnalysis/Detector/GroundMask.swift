/// Auto mode: which pixels of an appearance cut from a frame are the sprite, learned from how they
/// change while the sprite is tracked. The cut holds the ground around the sprite too; a sprite
/// walking over a busy screen carries its own pixels along, while the ground in its box slides by.
/// A pixel that keeps differing from the first cut (beyond the compression's noise and a pixel's
/// misalignment) is ground, and is weighed less and less.
///
/// Why: on a real card screen a snail's appearance was cut with the card behind it; where the
/// snail walked off the card onto a light stripe and a black edge, the stripe's edge in its box
/// matched its mirror image better than the snail did, and the track stuck to the stripe and read
/// a turn.
public struct GroundMask: Equatable, Sendable {
    /// Each frame's residual enters the running level with this weight.
    public static let learningRate: Float = 0.2
    /// A pixel whose running residual (gray levels) is under this keeps its whole weight; at twice
    /// it, none. Compression noise at crf 34, after the pixel's best neighbour is taken, stays near
    /// 3–8 levels; ground sliding past differs by tens.
    public static let noiseLevels: Float = 12
    /// Below this share of its pixels weighed, the mask is not used: what is left is not enough to
    /// match (a whole box changing is a change of light, or a lost sprite, not ground).
    public static let minimumShare: Float = 0.25

    public let width: Int
    public let height: Int
    /// The running residual of every pixel (gray levels), row-major.
    public private(set) var residual: [Float]
    /// The first cut's least and greatest level around each pixel (it and its eight neighbours).
    private let low: [Float], high: [Float]

    /// A mask for appearances cut like `first` (its size, its orientation), every pixel the sprite's.
    public init(first: SpriteTemplate) {
        width = first.width
        height = first.height
        residual = [Float](repeating: 0, count: first.pixels.count)
        var low = first.pixels, high = first.pixels
        for y in 0..<height {
            for x in 0..<width {
                for ny in max(0, y - 1)...min(height - 1, y + 1) {
                    for nx in max(0, x - 1)...min(width - 1, x + 1) {
                        let v = first.pixels[ny * width + nx]
                        low[y * width + x] = min(low[y * width + x], v)
                        high[y * width + x] = max(high[y * width + x], v)
                    }
                }
            }
        }
        self.low = low
        self.high = high
    }

    /// Takes in a cut of the first one's size, turned to its orientation: each pixel's residual
    /// is how far it lies outside the range of the first cut's levels at it and its neighbours (a
    /// pixel's misalignment at a sharp edge is not change), after the median difference (a change
    /// of light over all of it) is taken off.
    public mutating func learn(seen: SpriteTemplate) {
        guard seen.width == width, seen.height == height else { return }
        var differences = (0..<residual.count).map { seen.pixels[$0] - (low[$0] + high[$0]) / 2 }
        differences.sort()
        let offset = differences[differences.count / 2]
        for i in 0..<residual.count {
            let v = seen.pixels[i] - offset
            let outside = max(0, low[i] - v, v - high[i])
            residual[i] += Self.learningRate * (outside - residual[i])
        }
    }

    /// Each pixel's weight: 1 under `noiseLevels`, falling to 0 at twice it. Nil while it would
    /// leave under `minimumShare` of the pixels' weight, or every pixel whole.
    public var weights: [Float]? {
        let w = residual.map { min(1, max(0, 2 - $0 / Self.noiseLevels)) }
        let total = w.reduce(0, +)
        guard total < Float(w.count), total >= Self.minimumShare * Float(w.count) else { return nil }
        return w
    }
}
