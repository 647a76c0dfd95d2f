/// Finds mirror flips between two consecutive frames: a compact region whose new content is the
/// horizontal mirror of its old content about the region's vertical centre line.
///
/// A normal change (a sprite crawling, rain, a crossfade) does not have that property, so it is
/// rejected even where it changes as many pixels as a flip.
public enum MirrorEventFinder {
    /// A region that was mirrored between two frames.
    public struct Event: Equatable, Sendable {
        /// The region, symmetric about the mirror axis, in the images' pixels.
        public var rect: PixelRect
        /// Twice the axis x coordinate: column x of the new frame shows column `axis2 - x` of the old.
        public var axis2: Int
        /// Mean absolute difference between old and new, unmirrored.
        public var directError: Double
        /// Mean absolute difference between the new frame and the mirrored old frame.
        public var mirrorError: Double
    }

    /// Tuning, in gray levels and pixels of the working resolution.
    public struct Parameters: Sendable {
        public var changeThreshold: Int = 24
        public var block: Int = 8
        public var minimumChangedPerBlock: Int = 12
        public var minimumBlocks: Int = 3
        public var maximumFraction: Double = 0.6
        /// A mirror explains the change when its error is at most this fraction of the direct error.
        public var acceptRatio: Double = 0.4
        public var minimumDirectError: Double = 10
        /// The changed pixels must fill at least this fraction of their bounding box (noise does not).
        public var minimumChangedFraction: Double = 0.2
        /// Translations up to this many pixels are tried as an alternative explanation.
        public var shiftReach: Int = 6
        /// And the box must be at least this many pixels wide and high.
        public var minimumSide: Int = 8
        public init() {}
    }

    /// Mirror events between `old` and `new` (same size) inside `roi` (whole image when nil).
    public static func find(old: GrayImage, new: GrayImage, roi: PixelRect? = nil, parameters p: Parameters = Parameters()) -> [Event] {
        guard old.width == new.width, old.height == new.height, old.width > 0, old.height > 0 else { return [] }
        let area = (roi ?? PixelRect(x: 0, y: 0, width: new.width, height: new.height)).clipped(width: new.width, height: new.height)
        guard let area else { return [] }
        let bw = (area.width + p.block - 1) / p.block, bh = (area.height + p.block - 1) / p.block
        var counts = [Int](repeating: 0, count: bw * bh)
        old.pixels.withUnsafeBufferPointer { a in
            new.pixels.withUnsafeBufferPointer { b in
                for y in area.y..<area.maxY {
                    let row = y * new.width
                    let by = (y - area.y) / p.block
                    for x in area.x..<area.maxX where abs(Int(a[row + x]) - Int(b[row + x])) > p.changeThreshold {
                        counts[by * bw + (x - area.x) / p.block] += 1
                    }
                }
            }
        }
        // Connected components of busy blocks.
        var label = [Int](repeating: -1, count: bw * bh)
        var components: [(minX: Int, minY: Int, maxX: Int, maxY: Int, blocks: Int)] = []
        for start in 0..<(bw * bh) where counts[start] >= p.minimumChangedPerBlock && label[start] < 0 {
            var stack = [start]
            label[start] = components.count
            var c = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min, blocks: 0)
            while let i = stack.popLast() {
                let bx = i % bw, by = i / bw
                c.minX = min(c.minX, bx); c.maxX = max(c.maxX, bx); c.minY = min(c.minY, by); c.maxY = max(c.maxY, by)
                c.blocks += 1
                for (nx, ny) in [(bx - 1, by), (bx + 1, by), (bx, by - 1), (bx, by + 1)] where nx >= 0 && ny >= 0 && nx < bw && ny < bh {
                    let j = ny * bw + nx
                    if counts[j] >= p.minimumChangedPerBlock && label[j] < 0 {
                        label[j] = components.count
                        stack.append(j)
                    }
                }
            }
            components.append(c)
        }
        var events: [Event] = []
        for c in components where c.blocks >= p.minimumBlocks {
            let blockRect = PixelRect(x: area.x + c.minX * p.block, y: area.y + c.minY * p.block,
                                      width: (c.maxX - c.minX + 1) * p.block, height: (c.maxY - c.minY + 1) * p.block)
            guard Double(blockRect.width) <= p.maximumFraction * Double(area.width),
                  Double(blockRect.height) <= p.maximumFraction * Double(area.height),
                  let tight = tightChange(old: old, new: new, in: blockRect.clipped(width: area.maxX, height: area.maxY) ?? blockRect, threshold: p.changeThreshold)
            else { continue }
            guard tight.width >= p.minimumSide, tight.height >= p.minimumSide,
                  Double(changedCount(old: old, new: new, in: tight, threshold: p.changeThreshold)) >= p.minimumChangedFraction * Double(tight.width * tight.height)
            else { continue }
            if let e = mirrorTest(old: old, new: new, tight: tight, parameters: p) { events.append(e) }
        }
        return events
    }

    static func changedCount(old: GrayImage, new: GrayImage, in rect: PixelRect, threshold: Int) -> Int {
        var n = 0
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX where abs(Int(old[x, y]) - Int(new[x, y])) > threshold { n += 1 }
        }
        return n
    }

    /// The bounding box of pixels that changed by more than `threshold` inside `rect`.
    static func tightChange(old: GrayImage, new: GrayImage, in rect: PixelRect, threshold: Int) -> PixelRect? {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX where abs(Int(old[x, y]) - Int(new[x, y])) > threshold {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        guard x0 <= x1 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    /// Mean absolute difference between `new` and `old` moved by (dx, dy) over `tight`.
    static func shiftError(old: GrayImage, new: GrayImage, tight: PixelRect, dx: Int, dy: Int) -> Double {
        var sum = 0, n = 0
        for y in tight.y..<tight.maxY {
            let sy = y - dy
            guard sy >= 0, sy < old.height else { continue }
            for x in tight.x..<tight.maxX {
                let sx = x - dx
                guard sx >= 0, sx < old.width else { continue }
                sum += abs(Int(new.pixels[y * new.width + x]) - Int(old.pixels[sy * old.width + sx]))
                n += 1
            }
        }
        return n > 0 ? Double(sum) / Double(n) : .infinity
    }

    /// Whether `new` equals `old` mirrored about some axis near the centre of `tight`.
    static func mirrorTest(old: GrayImage, new: GrayImage, tight: PixelRect, parameters p: Parameters) -> Event? {
        let w = old.width
        func error(_ axis2: Int?) -> Double {
            var sum = 0, n = 0
            for y in tight.y..<tight.maxY {
                let row = y * w
                for x in tight.x..<tight.maxX {
                    let sx = axis2.map { $0 - x } ?? x
                    guard sx >= 0, sx < w else { continue }
                    sum += abs(Int(new.pixels[row + x]) - Int(old.pixels[row + sx]))
                    n += 1
                }
            }
            return n > 0 ? Double(sum) / Double(n) : .infinity
        }
        let direct = error(nil)
        guard direct >= p.minimumDirectError else { return nil }
        let centre2 = tight.x + tight.maxX - 1
        let reach = max(4, tight.width / 4)
        var best = (axis2: centre2, error: Double.infinity)
        for k in (centre2 - reach)...(centre2 + reach) {
            let e = error(k)
            if e < best.error { best = (k, e) }
        }
        guard best.error <= p.acceptRatio * direct else { return nil }
        // Rain and crawling are translations: if a small shift explains the change about as well, it
        // is motion, not a mirror.
        var shifted = Double.infinity
        for dy in -p.shiftReach...p.shiftReach {
            for dx in -p.shiftReach...p.shiftReach where dx != 0 || dy != 0 {
                shifted = min(shifted, shiftError(old: old, new: new, tight: tight, dx: dx, dy: dy))
            }
        }
        guard best.error <= p.acceptRatio * shifted else { return nil }
        // The region symmetric about the axis that covers everything that changed.
        let half2 = max(best.axis2 - 2 * tight.x, 2 * (tight.maxX - 1) - best.axis2)
        let x0 = (best.axis2 - half2) / 2 - 2
        let width = half2 + 1 + 4
        let rect = PixelRect(x: x0, y: tight.y - 2, width: width, height: tight.height + 4)
        return Event(rect: rect, axis2: best.axis2, directError: direct, mirrorError: best.error)
    }
}
