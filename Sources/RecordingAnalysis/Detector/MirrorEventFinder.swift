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
        /// A small shift (crawling, rain) rejects a mirror whose error is not below this fraction of its own.
        public var shiftRatio: Double = 0.5
        public var minimumDirectError: Double = 10
        /// The changed pixels must fill at least this fraction of their bounding box (noise does not).
        public var minimumChangedFraction: Double = 0.2
        /// Translations up to this many pixels are tried as an alternative explanation.
        public var shiftReach: Int = 6
        /// Shifts beyond `shiftReach` (UI sliding sideways or scrolling) reject a mirror whose error
        /// is not below this fraction of theirs.
        public var wideShiftRatio: Double = 0.75
        /// The weaker side of the axis must carry at least this fraction of the stronger side's edges.
        public var minimumBalance: Double = 0.25
        /// The old and new appearance must differ from their own mirror images, about every axis
        /// through the middle half of the region, by at least this fraction of the change between them.
        public var minimumAsymmetry: Double = 0.22
        /// Mean difference two frames show where nothing changed (set per frame pair by `find`).
        public var noise: Double = 0
        /// And the box must be at least this many pixels wide and high.
        public var minimumSide: Int = 8
        public init() {}
    }

    /// Mirror events between `old` and `new` (same size) inside `roi` (whole image when nil).
    public static func find(old: GrayImage, new: GrayImage, roi: PixelRect? = nil, parameters: Parameters = Parameters()) -> [Event] {
        guard old.width == new.width, old.height == new.height, old.width > 0, old.height > 0 else { return [] }
        let area = (roi ?? PixelRect(x: 0, y: 0, width: new.width, height: new.height)).clipped(width: new.width, height: new.height)
        guard let area else { return [] }
        var p = parameters
        let levels = changeLevels(old: old, new: new, area: area, ceiling: p.changeThreshold)
        p.changeThreshold = levels.threshold
        p.noise = levels.noise
        p.minimumDirectError = min(p.minimumDirectError, Double(p.changeThreshold) / 2)
        let bw = (area.width + p.block - 1) / p.block, bh = (area.height + p.block - 1) / p.block
        var counts = [Int](repeating: 0, count: bw * bh)
        let threshold = Int16(p.changeThreshold)
        old.pixels.withUnsafeBufferPointer { a in
            new.pixels.withUnsafeBufferPointer { b in
                counts.withUnsafeMutableBufferPointer { c in
                    guard let oldBase = a.baseAddress, let newBase = b.baseAddress, let countBase = c.baseAddress else { return }
                    for y in area.y..<area.maxY {
                        let oldRow = oldBase + y * new.width, newRow = newBase + y * new.width
                        let blockRow = countBase + ((y - area.y) / p.block) * bw
                        // Block by block, so the inner loop has no division and can be vectorised.
                        var x = area.x, bx = 0
                        while x < area.maxX {
                            let end = min(area.maxX, x + p.block)
                            var n = 0
                            for i in x..<end where abs(Int16(oldRow[i]) - Int16(newRow[i])) > threshold { n += 1 }
                            blockRow[bx] += n
                            x = end
                            bx += 1
                        }
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
                c.minX = min(c.minX, bx)
                c.maxX = max(c.maxX, bx)
                c.minY = min(c.minY, by)
                c.maxY = max(c.maxY, by)
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
            let blockRect = PixelRect(
                x: area.x + c.minX * p.block, y: area.y + c.minY * p.block,
                width: (c.maxX - c.minX + 1) * p.block, height: (c.maxY - c.minY + 1) * p.block)
            guard Double(blockRect.width) <= p.maximumFraction * Double(area.width),
                Double(blockRect.height) <= p.maximumFraction * Double(area.height),
                let tight = tightChange(
                    old: old, new: new, in: blockRect.clipped(width: area.maxX, height: area.maxY) ?? blockRect,
                    threshold: p.changeThreshold)
            else { continue }
            guard tight.width >= p.minimumSide, tight.height >= p.minimumSide,
                Double(changedCount(old: old, new: new, in: tight, threshold: p.changeThreshold)) >= p.minimumChangedFraction
                    * Double(tight.width * tight.height)
            else { continue }
            if let e = mirrorTest(old: old, new: new, tight: tight, parameters: p) { events.append(e) }
        }
        return events
    }

    /// The frame pair's noise (the upper quartile of the differences, which compression flicker on a
    /// static screen sets) and the level above which a pixel counts as changed: `ceiling` on ordinary
    /// captures, lower on dark or dimmed ones whose whole contrast is a few dozen levels, but always
    /// well above the noise.
    static func changeLevels(old: GrayImage, new: GrayImage, area: PixelRect, ceiling: Int) -> (threshold: Int, noise: Double) {
        var histogram = [Int](repeating: 0, count: 256)
        var spread = [Int](repeating: 0, count: 256)
        var n = 0
        let step = 2
        var y = area.y
        while y < area.maxY {
            let row = y * new.width
            var x = area.x
            while x < area.maxX {
                histogram[abs(Int(old.pixels[row + x]) - Int(new.pixels[row + x]))] += 1
                spread[Int(new.pixels[row + x])] += 1
                n += 1
                x += step
            }
            y += step
        }
        guard n > 0 else { return (ceiling, 0) }
        func percentile(_ h: [Int], _ q: Double) -> Int {
            var acc = 0
            for (v, c) in h.enumerated() {
                acc += c
                if Double(acc) >= q * Double(n) { return v }
            }
            return 255
        }
        let noise = percentile(histogram, 0.75)
        let contrast = percentile(spread, 0.98) - percentile(spread, 0.02)
        return (max(8, 4 * noise + 6, min(ceiling, contrast / 5)), Double(noise))
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
                x0 = min(x0, x)
                x1 = max(x1, x)
                y0 = min(y0, y)
                y1 = max(y1, y)
            }
        }
        guard x0 <= x1 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    /// Whether the image's edge energy inside `rect` left of the axis and right of it are within a
    /// factor `1/minimum` of each other.
    static func isBalanced(_ image: GrayImage, about axis2: Int, in rect: PixelRect, minimum: Double) -> Bool {
        var left = 0, right = 0
        for y in max(1, rect.y)..<min(image.height - 1, rect.maxY) {
            let row = y * image.width
            for x in max(1, rect.x)..<min(image.width - 1, rect.maxX) {
                let g =
                    abs(Int(image.pixels[row + x + 1]) - Int(image.pixels[row + x - 1]))
                    + abs(Int(image.pixels[row + x + image.width]) - Int(image.pixels[row + x - image.width]))
                if 2 * x < axis2 { left += g } else if 2 * x > axis2 { right += g }
            }
        }
        let high = max(left, right)
        return high > 0 && Double(min(left, right)) >= minimum * Double(high)
    }

    /// Mean absolute difference between `new` and `old` moved by (dx2 / 2, dy) over `tight`; an odd
    /// `dx2` (a half-pixel shift) averages the two neighbouring columns.
    /// `sparse` samples every second row and column (a quarter of the work, for the wide searches).
    static func shiftError(old: GrayImage, new: GrayImage, tight: PixelRect, dx2: Int, dy: Int, sparse: Bool = false) -> Double {
        var sum = 0, n = 0
        let step = sparse ? 2 : 1
        let dxLow = dx2 >> 1, dxHigh = (dx2 + 1) >> 1
        for y in stride(from: tight.y, to: tight.maxY, by: step) {
            let sy = y - dy
            guard sy >= 0, sy < old.height else { continue }
            let oldRow = sy * old.width, newRow = y * new.width
            for x in stride(from: tight.x, to: tight.maxX, by: step) {
                let a = x - dxLow, b = x - dxHigh
                guard a >= 0, a < old.width, b >= 0, b < old.width else { continue }
                let moved = (Int(old.pixels[oldRow + a]) + Int(old.pixels[oldRow + b]) + 1) >> 1
                sum += abs(Int(new.pixels[newRow + x]) - moved)
                n += 1
            }
        }
        return n > 0 ? Double(sum) / Double(n) : .infinity
    }

    /// Mean absolute difference between `new` and `old` mirrored about the axis at `axis2 / 2`, over
    /// `tight` (as `mirrorTest`'s direct comparison, with pixels whose mirror falls outside the image
    /// left out); nil as soon as it must exceed `bound`. Rows are visited in four interleaved passes,
    /// so the running sum is representative early and a hopeless axis is given up after a fraction
    /// of the region. The result, when there is one, is exactly the full mean.
    static func mirrorError(old: GrayImage, new: GrayImage, tight: PixelRect, axis2: Int, bound: Double) -> Double? {
        let w = old.width
        let lo = max(tight.x, axis2 - w + 1), hi = min(tight.maxX - 1, axis2)
        guard lo <= hi, tight.height > 0 else { return .infinity }
        let n = (hi - lo + 1) * tight.height
        // A little headroom so that rounding never gives up an axis whose mean equals the bound.
        let limit = bound.isFinite ? Int((bound * Double(n) * (1 + 1e-9)).rounded(.up)) + 1 : Int.max
        var sum = 0
        let given = new.pixels.withUnsafeBufferPointer { np in
            old.pixels.withUnsafeBufferPointer { op -> Bool in
                guard let nb = np.baseAddress, let ob = op.baseAddress else { return false }
                for phase in 0..<4 {
                    var y = tight.y + phase
                    while y < tight.maxY {
                        let newRow = nb + y * w, oldRow = ob + y * w
                        var rowSum = 0
                        for x in lo...hi { rowSum += abs(Int(newRow[x]) - Int(oldRow[axis2 - x])) }
                        sum += rowSum
                        if sum > limit { return true }
                        y += 4
                    }
                }
                return false
            }
        }
        return given ? nil : Double(sum) / Double(n)
    }

    /// Whether `new` equals `old` mirrored about some axis near the centre of `tight`.
    static func mirrorTest(old: GrayImage, new: GrayImage, tight: PixelRect, parameters p: Parameters) -> Event? {
        let w = old.width
        /// Mean absolute difference between `image` and its own mirror image about the axis at
        /// `axis4 / 4` (quarter pixels: anti-aliased edges of a symmetric object match its mirror
        /// image only with the axis placed that finely).
        func selfMirrorError(_ image: GrayImage, axis4: Int) -> Double {
            let low = axis4 >> 1, high = (axis4 + 1) >> 1
            // x such that both mirrors lie inside the image: 0 <= low - x and high - x < w.
            let lo = max(tight.x, high - w + 1), hi = min(tight.maxX - 1, low)
            guard lo <= hi, tight.height > 0 else { return .infinity }
            var sum = 0
            image.pixels.withUnsafeBufferPointer { px in
                guard let base = px.baseAddress else { return }
                for y in tight.y..<tight.maxY {
                    let row = base + y * w
                    for x in lo...hi { sum += abs(2 * Int(row[x]) - Int(row[low - x]) - Int(row[high - x])) }
                }
            }
            return Double(sum) / Double(2 * (hi - lo + 1) * tight.height)
        }
        // The change itself: mean |new − old| over the region (columns inside the image).
        let first = max(0, tight.x), end = min(w, tight.maxX)
        var directSum = 0
        new.pixels.withUnsafeBufferPointer { np in
            old.pixels.withUnsafeBufferPointer { op in
                guard let nb = np.baseAddress, let ob = op.baseAddress, first < end else { return }
                for y in tight.y..<tight.maxY {
                    let newRow = nb + y * w, oldRow = ob + y * w
                    for x in first..<end { directSum += abs(Int(newRow[x]) - Int(oldRow[x])) }
                }
            }
        }
        let direct = first < end && tight.height > 0 ? Double(directSum) / Double((end - first) * tight.height) : .infinity
        guard direct >= p.minimumDirectError else { return nil }
        let centre2 = tight.x + tight.maxX - 1
        let reach = max(4, tight.width / 4)
        var best = (axis2: centre2, error: Double.infinity)
        let accept = p.acceptRatio * direct
        for k in (centre2 - reach)...(centre2 + reach) {
            // Only an axis that could still be the best and pass the test below is measured in full.
            if let e = mirrorError(old: old, new: new, tight: tight, axis2: k, bound: min(best.error, accept)), e < best.error {
                best = (k, e)
            }
        }
        guard best.error <= accept else { return nil }
        // (The cheapest test first.) A sprite turning in place has detail on both sides of its axis, before and after. An object
        // that moved across the axis (a pointer, a dragged icon) has it on one side only in each frame.
        guard isBalanced(old, about: best.axis2, in: tight, minimum: p.minimumBalance),
            isBalanced(new, about: best.axis2, in: tight, minimum: p.minimumBalance)
        else { return nil }
        var mostSymmetric = Double.infinity
        // Axes through the middle half of the region, so that most of it is compared with itself.
        for k in (2 * tight.x + tight.width / 2)...max(2 * tight.x + tight.width / 2, 2 * (tight.maxX - 1) - tight.width / 2) {
            mostSymmetric = min(
                mostSymmetric, selfMirrorError(old, axis4: 2 * k), selfMirrorError(new, axis4: 2 * k),
                selfMirrorError(old, axis4: 2 * k + 1), selfMirrorError(new, axis4: 2 * k + 1))
        }
        // A mirror-symmetric object (a round icon, a button) that moved sideways is also "its mirror
        // image about a shifted axis", down to the anti-aliasing. Only an object that differs from its
        // own mirror image, about every axis through the changed region, can show which way it faces.
        guard mostSymmetric >= p.minimumAsymmetry * direct else { return nil }
        // Rain and crawling are translations: if a small shift explains the change about as well, it
        // is motion, not a mirror.
        // UI content slides sideways (pages, navigation pushes, rows) or scrolls by far more than a
        // sprite crawls: shifts up to the region's own width, and its height, must not explain it either.
        // Shifts are tried in half pixels, as fine as the mirror axis: a symmetric object moved by
        // 2.5 pixels is otherwise explained better by a mirror than by any whole-pixel shift.
        // Errors are compared above the compression noise, which a dark, heavily compressed capture
        // adds to the mirror's error as much as to any shift's.
        let limit = max(0, best.error - p.noise) / p.shiftRatio + p.noise
        for dy in -p.shiftReach...p.shiftReach {
            for dx2 in (-2 * p.shiftReach)...(2 * p.shiftReach) where dx2 != 0 || dy != 0 {
                if shiftError(old: old, new: new, tight: tight, dx2: dx2, dy: dy) < limit { return nil }
            }
        }
        // A mirrored sprite resembles itself shifted a little, so a wide shift must explain the
        // change nearly as well as the mirror does before it counts against it.
        let wideLimit = max(0, best.error - p.noise) / p.wideShiftRatio + p.noise
        for dx2 in (-2 * tight.width)...(2 * tight.width) where abs(dx2) > 2 * p.shiftReach {
            for dy in -p.shiftReach...p.shiftReach {
                if shiftError(old: old, new: new, tight: tight, dx2: dx2, dy: dy, sparse: true) < wideLimit { return nil }
            }
        }
        for dy in -tight.height...tight.height where abs(dy) > p.shiftReach {
            for dx2 in (-2 * p.shiftReach)...(2 * p.shiftReach) {
                if shiftError(old: old, new: new, tight: tight, dx2: dx2, dy: dy, sparse: true) < wideLimit { return nil }
            }
        }
        // The region symmetric about the axis that covers everything that changed.
        let half2 = max(best.axis2 - 2 * tight.x, 2 * (tight.maxX - 1) - best.axis2)
        let x0 = (best.axis2 - half2) / 2 - 2
        let width = half2 + 1 + 4
        let rect = PixelRect(x: x0, y: tight.y - 2, width: width, height: tight.height + 4)
        return Event(rect: rect, axis2: best.axis2, directError: direct, mirrorError: best.error)
    }
}
