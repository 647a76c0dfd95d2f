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
        public var acceptRatio: Double = 0.5
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
        /// Whether a pair in which nothing is found is looked at again with half the change threshold.
        public var looksAgainAtHalfThreshold = true
        /// Whether a change whose halves, either side of its axis, are each mirror-symmetric on their
        /// own (two symmetric things that swapped places) is refused (see `mirrorTest`).
        public var refusesSwappedSymmetricHalves = true
        /// The block gates of a last look at half the threshold, where nothing else was found: smaller
        /// groups of fewer changed pixels. Nil: no such look.
        public var sparseLook: SparseLook? = SparseLook()
        public init() {}
    }

    /// The gates of the last look (`Parameters.sparseLook`), which replace the usual ones.
    public struct SparseLook: Sendable {
        /// Changed pixels that make a block busy (the other looks: `Parameters.minimumChangedPerBlock`).
        public var minimumChangedPerBlock = 8
        /// Busy blocks a group needs (`Parameters.minimumBlocks`).
        public var minimumBlocks = 2
        /// Width and height the changed box needs (`Parameters.minimumSide`).
        public var minimumSide = 6
        public init() {}
    }

    /// |v| of a small sum or difference of samples.
    @inline(__always) static func magnitude(_ v: Int32) -> Int32 { v < 0 ? 0 &- v : v }

    /// Two images in which a group of changed pixels is tested: the mirror, the shifts, the balance
    /// and the symmetry are measured there.
    public typealias Pair = (old: GrayImage, new: GrayImage)

    /// Mirror events between `old` and `new` (same size) inside `roi` (whole image when nil).
    ///
    /// `measuredIn`: the same two images smoothed (`GrayImage.boxBlurred`), in which each group of
    /// changed pixels is tested; the changed pixels are still counted in `old` and `new`. Nil: tested
    /// in `old` and `new` as well. Compression noise is mostly finer than a sprite's shape: blurred,
    /// a turning sprite's mirror error falls by about a third while its change hardly does. Counted
    /// in blurred images, though, a small sprite's eyes changing direction change no block enough.
    public static func find(
        old: GrayImage, new: GrayImage, measuredIn smoothed: Pair? = nil, roi: PixelRect? = nil, parameters: Parameters = Parameters()
    ) -> [Event] {
        find(old: old, new: new, measuredIn: smoothed, roi: roi, parameters: parameters, skipping: []).events
    }

    /// As `find(old:new:measuredIn:roi:parameters:)`, testing no group whose bounds (in blocks) are in
    /// `skipping`; `tested`: the bounds of the groups it tested, for a later look at the same pair.
    static func find(
        old: GrayImage, new: GrayImage, measuredIn smoothed: Pair?, roi: PixelRect?, parameters: Parameters,
        skipping: Set<Component.Bounds>
    ) -> (events: [Event], tested: Set<Component.Bounds>) {
        guard old.width == new.width, old.height == new.height, old.width > 0, old.height > 0 else { return ([], []) }
        let measured = smoothed ?? (old, new)
        guard measured.old.width == old.width, measured.old.height == old.height, measured.new.width == old.width,
            measured.new.height == old.height
        else { return ([], []) }
        let area = (roi ?? PixelRect(x: 0, y: 0, width: new.width, height: new.height)).clipped(width: new.width, height: new.height)
        guard let area else { return ([], []) }
        // A pair with no pixel changed has no event (every block is idle whatever the levels): screen
        // recorders that capture at a fixed rate repeat the frame while nothing moves.
        if old.hasSamePixels(as: new) { return ([], []) }
        var p = parameters
        let levels = changeLevels(old: old, new: new, area: area, ceiling: p.changeThreshold)
        p.changeThreshold = levels.threshold
        p.noise = levels.noise
        p.minimumDirectError = min(p.minimumDirectError, Double(p.changeThreshold) / 2)
        let (events, seen) = look(old: old, new: new, measuredIn: measured, area: area, parameters: p, skipping: skipping)
        // A third look, only where the first two found nothing, at half the threshold: a sprite whose
        // luma lies within a couple of dozen levels of its background (a dim bird on a dark card)
        // changes few pixels by the frame's whole-contrast threshold, and no component forms there.
        // Groups with the bounds of one already tested are high-contrast changes seen again (text,
        // rows, rain); only new ones are tested, so UI whose every change is sharp costs little more.
        let lower = max(8, Int(4 * p.noise) + 6, p.changeThreshold / 2)
        guard events.isEmpty, p.looksAgainAtHalfThreshold, lower < p.changeThreshold else { return (events, seen) }
        p.changeThreshold = lower
        p.minimumDirectError = min(p.minimumDirectError, Double(lower) / 2)
        let again = look(old: old, new: new, measuredIn: measured, area: area, parameters: p, skipping: skipping.union(seen))
        let testedSoFar = seen.union(again.tested)
        // A last look, only where every other found nothing, at groups of two blocks: a near-symmetric
        // sprite a few dozen pixels wide at the working resolution (a drop whose only asymmetry is a
        // highlight and its pupils) changes a strip a few pixels high when it turns, in two blocks.
        guard again.events.isEmpty, let sparse = p.sparseLook else { return (again.events, testedSoFar) }
        p.minimumChangedPerBlock = sparse.minimumChangedPerBlock
        p.minimumBlocks = sparse.minimumBlocks
        p.minimumSide = sparse.minimumSide
        let last = look(old: old, new: new, measuredIn: measured, area: area, parameters: p, skipping: skipping.union(testedSoFar))
        return (last.events, testedSoFar.union(last.tested))
    }

    /// The events whose changed pixels (by `p.changeThreshold`) form components: first of touching
    /// busy blocks, then, only when none holds one, of blocks a block apart taken together. Groups
    /// whose bounds are in `skipping` are not tested; `tested` holds the bounds of those that were.
    private static func look(
        old: GrayImage, new: GrayImage, measuredIn pair: Pair, area: PixelRect, parameters p: Parameters,
        skipping: Set<Component.Bounds> = []
    ) -> (events: [Event], tested: Set<Component.Bounds>) {
        let bw = (area.width + p.block - 1) / p.block, bh = (area.height + p.block - 1) / p.block
        let counts = ChangeMask.blockCounts(old: old, new: new, area: area, block: p.block, threshold: p.changeThreshold)
        let busy = counts.map { $0 >= p.minimumChangedPerBlock }
        var events: [Event] = []
        var tested: Set<Component.Bounds> = []
        let touching = labels(of: busy, width: bw, height: bh, reach: 1)
        for c in components(labelled: touching, width: bw) where c.blocks >= p.minimumBlocks && !skipping.contains(c.bounds) {
            tested.insert(c.bounds)
            if let e = event(in: c, old: old, new: new, measuredIn: pair, area: area, parameters: p) { events.append(e) }
        }
        // A second look, only where the first found nothing: parts of one change a block apart taken
        // together. A dim sprite's change is sparse (a snail at a third of the light, on a card whose
        // rain is redrawn at the same moment: its shell and its head were two components split by an
        // empty column of blocks, neither the mirror image of itself).
        guard events.isEmpty else { return (events, tested) }
        for c in components(of: busy, width: bw, height: bh, reach: 2, parts: touching)
        where c.blocks >= p.minimumBlocks && c.parts > 1 && !skipping.contains(c.bounds) {
            tested.insert(c.bounds)
            if let e = event(in: c, old: old, new: new, measuredIn: pair, area: area, parameters: p) { events.append(e) }
        }
        return (events, tested)
    }

    /// A group of busy blocks: their bounds in blocks, how many, and of how many 4-connected parts.
    struct Component {
        /// A group's bounds in blocks, inclusive.
        struct Bounds: Hashable {
            var minX: Int, minY: Int, maxX: Int, maxY: Int
        }
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min, blocks = 0, parts = 1
        var bounds: Bounds { Bounds(minX: minX, minY: minY, maxX: maxX, maxY: maxY) }
    }

    /// Groups of busy blocks, a block joining a group when it lies within `reach` blocks of one of
    /// its blocks (1: 4-connected neighbours; 2: also across one empty block, diagonals included).
    /// `parts`, the 4-connected labelling of the same blocks when the caller has it, saves making it
    /// again to count each group's parts.
    static func components(
        of busy: [Bool], width bw: Int, height bh: Int, reach: Int, parts: (labels: [Int32], count: Int)? = nil
    ) -> [Component] {
        let grouped = labels(of: busy, width: bw, height: bh, reach: reach)
        var result = components(labelled: grouped, width: bw)
        guard reach > 1 else { return result }
        // How many 4-connected parts each group joined.
        let (partLabel, partCount) = parts ?? labels(of: busy, width: bw, height: bh, reach: 1)
        var groupOfPart = [Int32](repeating: -1, count: partCount)
        for i in partLabel.indices where partLabel[i] >= 0 { groupOfPart[Int(partLabel[i])] = grouped.labels[i] }
        for i in result.indices { result[i].parts = 0 }
        for g in groupOfPart where g >= 0 { result[Int(g)].parts += 1 }
        return result
    }

    /// Each labelled group's bounds and number of blocks.
    private static func components(labelled: (labels: [Int32], count: Int), width bw: Int) -> [Component] {
        var result = [Component](repeating: Component(), count: labelled.count)
        for (i, l) in labelled.labels.enumerated() where l >= 0 {
            let bx = i % bw, by = i / bw, g = Int(l)
            result[g].minX = min(result[g].minX, bx)
            result[g].maxX = max(result[g].maxX, bx)
            result[g].minY = min(result[g].minY, by)
            result[g].maxY = max(result[g].maxY, by)
            result[g].blocks += 1
        }
        return result
    }

    /// Each busy block's group (−1: not busy) and the number of groups (see `components`), by a
    /// flood fill from each unlabelled busy block in row-major order.
    private static func labels(of busy: [Bool], width bw: Int, height bh: Int, reach: Int) -> (labels: [Int32], count: Int) {
        var label = [Int32](repeating: -1, count: bw * bh)
        var count: Int32 = 0
        // One stack for every fill: a group can hold at most every block.
        var stack = [Int](repeating: 0, count: bw * bh)
        busy.withUnsafeBufferPointer { b in
            label.withUnsafeMutableBufferPointer { l in
                stack.withUnsafeMutableBufferPointer { st in
                    for start in 0..<(bw * bh) where b[start] && l[start] < 0 {
                        var top = 0
                        st[top] = start
                        top += 1
                        l[start] = count
                        while top > 0 {
                            top -= 1
                            let i = st[top]
                            let bx = i % bw, by = i / bw
                            for y in max(0, by - reach)...min(bh - 1, by + reach) {
                                for x in max(0, bx - reach)...min(bw - 1, bx + reach) {
                                    // Reach 1 is the four neighbours only.
                                    if reach == 1 && x != bx && y != by { continue }
                                    let j = y * bw + x
                                    if b[j] && l[j] < 0 {
                                        l[j] = count
                                        st[top] = j
                                        top += 1
                                    }
                                }
                            }
                        }
                        count += 1
                    }
                }
            }
        }
        return (label, Int(count))
    }

    /// The mirror event a group of busy blocks holds, if any: its changed pixels' box, when it is
    /// compact and dense enough, tested by `mirrorTest`.
    static func event(in c: Component, old: GrayImage, new: GrayImage, measuredIn pair: Pair, area: PixelRect, parameters p: Parameters)
        -> Event?
    {
        let blockRect = PixelRect(
            x: area.x + c.minX * p.block, y: area.y + c.minY * p.block,
            width: (c.maxX - c.minX + 1) * p.block, height: (c.maxY - c.minY + 1) * p.block)
        guard Double(blockRect.width) <= p.maximumFraction * Double(area.width),
            Double(blockRect.height) <= p.maximumFraction * Double(area.height),
            let (tight, changed) = ChangeMask.changedBox(
                old: old, new: new, in: blockRect.clipped(width: area.maxX, height: area.maxY) ?? blockRect,
                threshold: p.changeThreshold)
        else { return nil }
        guard tight.width >= p.minimumSide, tight.height >= p.minimumSide,
            Double(changed) >= p.minimumChangedFraction * Double(tight.width * tight.height)
        else { return nil }
        return mirrorTest(old: pair.old, new: pair.new, tight: tight, parameters: p, detail: (old, new))
    }

    /// The frame pair's noise (the upper quartile of the differences, which compression flicker on a
    /// static screen sets) and the level above which a pixel counts as changed: `ceiling` on ordinary
    /// captures, lower on dark or dimmed ones whose whole contrast is a few dozen levels, but always
    /// well above the noise.
    static func changeLevels(old: GrayImage, new: GrayImage, area: PixelRect, ceiling: Int) -> (threshold: Int, noise: Double) {
        // Four histograms of each, filled in turn and added up at the end: on a static screen nearly
        // every sample lands in one bin, and four copies break that chain of increments.
        let copies = 4
        var differences = [Int32](repeating: 0, count: copies * 256)
        var levels = [Int32](repeating: 0, count: copies * 256)
        var n = 0
        let step = 2
        old.pixels.withUnsafeBufferPointer { a in
            new.pixels.withUnsafeBufferPointer { b in
                differences.withUnsafeMutableBufferPointer { h in
                    levels.withUnsafeMutableBufferPointer { s in
                        guard let oldBase = a.baseAddress, let newBase = b.baseAddress, let hb = h.baseAddress, let sb = s.baseAddress
                        else { return }
                        var y = area.y
                        while y < area.maxY {
                            let oldRow = oldBase + y * new.width, newRow = newBase + y * new.width
                            var x = area.x
                            while x + (copies - 1) * step < area.maxX {
                                for k in 0..<copies {
                                    let u = oldRow[x + k * step], v = newRow[x + k * step]
                                    hb[k &* 256 &+ Int(u > v ? u &- v : v &- u)] &+= 1
                                    sb[k &* 256 &+ Int(v)] &+= 1
                                }
                                x += copies * step
                            }
                            while x < area.maxX {
                                let u = oldRow[x], v = newRow[x]
                                hb[Int(u > v ? u &- v : v &- u)] &+= 1
                                sb[Int(v)] &+= 1
                                x += step
                            }
                            n += (area.maxX - area.x + step - 1) / step
                            y += step
                        }
                    }
                }
            }
        }
        let histogram = (0..<256).map { v in (0..<copies).reduce(0) { $0 + Int(differences[$1 * 256 + v]) } }
        let spread = (0..<256).map { v in (0..<copies).reduce(0) { $0 + Int(levels[$1 * 256 + v]) } }
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
    /// Infinity as soon as the mean must exceed `bound` (the exact mean otherwise).
    static func shiftError(
        old: GrayImage, new: GrayImage, tight: PixelRect, dx2: Int, dy: Int, sparse: Bool = false, bound: Double = .infinity
    ) -> Double {
        var sum = 0, n = 0
        let step = sparse ? 2 : 1
        let dxLow = dx2 >> 1, dxHigh = (dx2 + 1) >> 1
        // Pixels whose source lies outside the image are left out, so at most this many are compared.
        let most = ((tight.height + step - 1) / step) * ((tight.width + step - 1) / step)
        let limit = bound.isFinite ? bound * Double(most) * (1 + 1e-9) : .infinity
        // Only columns whose two sources lie inside the image: a >= 0, b < width.
        let xFirst = max(tight.x, dxHigh), xEnd = min(tight.maxX, old.width + dxLow)
        var x0 = xFirst
        if (x0 - tight.x) % step != 0 { x0 += 1 }
        guard x0 < xEnd else { return .infinity }
        let columns = (xEnd - x0 + step - 1) / step
        return old.pixels.withUnsafeBufferPointer { op -> Double in
            new.pixels.withUnsafeBufferPointer { np -> Double in
                guard let ob = op.baseAddress, let nb = np.baseAddress else { return .infinity }
                for y in stride(from: tight.y, to: tight.maxY, by: step) {
                    let sy = y - dy
                    guard sy >= 0, sy < old.height else { continue }
                    let oldRow = ob + sy * old.width, newRow = nb + y * new.width
                    sum += AbsoluteDifference.sumAgainstMean(
                        newRow + x0, oldRow + (x0 - dxLow), oldRow + (x0 - dxHigh), count: columns, step: step)
                    n += columns
                    if Double(sum) > limit { return .infinity }
                }
                return n > 0 ? Double(sum) / Double(n) : .infinity
            }
        }
    }

    /// Mean absolute difference between `new` and `old` mirrored about the axis at `axis2 / 2`, over
    /// `tight` (as `mirrorTest`'s direct comparison, with pixels whose mirror falls outside the image
    /// left out); nil as soon as it must exceed `bound`. Rows are visited in four interleaved passes,
    /// so the running sum is representative early and a hopeless axis is given up after a fraction
    /// of the region. The result, when there is one, is exactly the full mean.
    static func mirrorError(old: GrayImage, new: GrayImage, tight: PixelRect, axis2: Int, between: Bool = false, bound: Double) -> Double? {
        mirrorError(reversed: reversedRows(of: old, in: tight), new: new, tight: tight, axis2: axis2, between: between, bound: bound)
    }

    /// The rows of `image` that `rect` spans (clipped to it), each reversed end to end, as an image
    /// of that many rows: column `axis2 − x` of row y is column `w − 1 − axis2 + x` of row
    /// y − rect.y here, so a mirror comparison reads both images forwards, sixteen bytes at a time.
    static func reversedRows(of image: GrayImage, in rect: PixelRect) -> GrayImage {
        let w = image.width, first = max(0, rect.y), end = min(image.height, rect.maxY)
        var out = GrayImage(width: w, height: max(0, end - first))
        image.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                guard let s = src.baseAddress, let d = dst.baseAddress else { return }
                for y in first..<max(first, end) {
                    let from = s + y * w, to = d + (y - first) * w
                    for x in 0..<w { to[x] = from[w &- 1 &- x] }
                }
            }
        }
        return out
    }

    /// `mirrorError` with the old image's rows already reversed (`reversedRows(of: old, in: tight)`).
    /// `between`: the axis a quarter pixel right of `axis2`'s, each pixel compared with the mean of
    /// the two old pixels about it (`axis2 − x` and `axis2 + 1 − x`).
    /// `errorBound`, when given, gives up an axis (not `between`) whose column or row sums already exceed the bound.
    static func mirrorError(
        reversed: GrayImage, new: GrayImage, tight: PixelRect, axis2: Int, between: Bool = false, bound: Double,
        errorBound: MirrorErrorBound? = nil
    ) -> Double? {
        let w = reversed.width
        let lo = max(tight.x, axis2 + (between ? 1 : 0) - w + 1), hi = min(tight.maxX - 1, axis2)
        guard lo <= hi, tight.height > 0, tight.y >= 0, tight.maxY <= new.height, reversed.height == tight.height else { return .infinity }
        let n = (hi - lo + 1) * tight.height
        // A little headroom so that rounding never gives up an axis whose mean equals the bound.
        let limit = bound.isFinite ? Int((bound * Double(n) * (1 + 1e-9)).rounded(.up)) + 1 : Int.max
        if !between, let errorBound,
            errorBound.exceeds(limit, newColumn: lo, reversedColumn: w - 1 - axis2 + lo, count: hi - lo + 1)
        {
            return nil
        }
        var sum = 0
        let given = new.pixels.withUnsafeBufferPointer { np in
            reversed.pixels.withUnsafeBufferPointer { op -> Bool in
                guard let nb = np.baseAddress, let ob = op.baseAddress else { return false }
                for phase in 0..<4 {
                    var y = tight.y + phase
                    while y < tight.maxY {
                        let newRow = nb + y * w, mirroredRow = ob + (y - tight.y) * w + (w &- 1 &- axis2)
                        sum +=
                            between
                            ? AbsoluteDifference.sumAgainstMean(
                                newRow + lo, mirroredRow + lo, mirroredRow + lo - 1, count: hi - lo + 1, step: 1)
                            : AbsoluteDifference.sum(newRow + lo, mirroredRow + lo, count: hi - lo + 1)
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
    /// `detail`: the same pair unblurred, where `old` and `new` are blurred (nil: they are not).
    static func mirrorTest(old: GrayImage, new: GrayImage, tight: PixelRect, parameters p: Parameters, detail: Pair? = nil) -> Event? {
        let w = old.width
        // A change that reaches the image's left or right edge may be content that slid in from
        // beyond it (a carousel card's rounded end at the screen edge reads as the mirror of the
        // card before it), and no shift can be tested against pixels the image does not have.
        guard tight.x > 0, tight.maxX < w else { return nil }
        /// Whether the mean absolute difference between `image` and its own mirror image about the
        /// axis at `axis4 / 4` is below `bound` (quarter pixels: anti-aliased edges of a symmetric
        /// object match its mirror image only with the axis placed that finely).
        func isMirrorSymmetric(_ image: GrayImage, axis4: Int, below bound: Double, within columns: Range<Int>? = nil) -> Bool {
            let low = axis4 >> 1, high = (axis4 + 1) >> 1
            // x such that both mirrors lie inside the image (0 <= low - x and high - x < w), and
            // inside `columns` when given.
            let lo = columns.map { max($0.lowerBound, high - w + 1, high - ($0.upperBound - 1)) } ?? max(tight.x, high - w + 1)
            let hi = min((columns?.upperBound ?? tight.maxX) - 1, low)
            guard lo <= hi, tight.height > 0 else { return false }
            let n = Double(2 * (hi - lo + 1) * tight.height)
            // Given up once the sum shows the mean cannot be below the bound.
            let limit = bound * n * (1 + 1e-9)
            var sum = 0
            return image.pixels.withUnsafeBufferPointer { px -> Bool in
                guard let base = px.baseAddress else { return false }
                for y in tight.y..<tight.maxY {
                    let row = base + y * w
                    var rowSum: Int32 = 0
                    for x in lo..<(hi &+ 1) { rowSum &+= magnitude(2 &* Int32(row[x]) &- Int32(row[low &- x]) &- Int32(row[high &- x])) }
                    sum += Int(rowSum)
                    if Double(sum) > limit { return false }
                }
                return Double(sum) / n < bound
            }
        }
        // The change itself: mean |new − old| over the region (columns inside the image).
        let first = max(0, tight.x), end = min(w, tight.maxX)
        var directSum = 0
        new.pixels.withUnsafeBufferPointer { np in
            old.pixels.withUnsafeBufferPointer { op in
                guard let nb = np.baseAddress, let ob = op.baseAddress, first < end else { return }
                for y in tight.y..<tight.maxY {
                    directSum += AbsoluteDifference.sum(nb + y * w + first, ob + y * w + first, count: end - first)
                }
            }
        }
        let direct = first < end && tight.height > 0 ? Double(directSum) / Double((end - first) * tight.height) : .infinity
        guard direct >= p.minimumDirectError else { return nil }
        let centre2 = tight.x + tight.maxX - 1
        // Axes up to a quarter of the region's width either side of its centre (`reach` in half
        // pixels): rain redrawn beside a sprite as it turns widens the changed box on one side, and
        // a bird of 36 pixels in rain had its axis 3 to 5 pixels off the box's centre.
        let reach = max(4, tight.width / 2)
        var best = (axis2: centre2, error: Double.infinity)
        let accept = p.acceptRatio * direct
        // Axes on pixel edges and centres are measured first; the best one is then tried a quarter
        // pixel either side, so it is measured up to this much above `accept`.
        let nearlyAccepted = accept * 1.25
        let reversedOld = reversedRows(of: old, in: tight)
        let errorBound = MirrorErrorBound(
            reversed: reversedOld, new: new, tight: tight, newColumns: tight.x..<tight.maxX,
            reversedColumns: (w - 1 - (centre2 + reach) + tight.x)..<(w - (centre2 - reach) + tight.maxX - 1))
        // From the centre outwards, where a sprite's axis usually is: a good axis found early gives
        // up the others sooner. Of equal errors the leftmost axis wins, whatever the visiting order.
        for offset in 0...(2 * reach) {
            let k = centre2 + (offset % 2 == 0 ? offset / 2 : -(offset + 1) / 2)
            // Only an axis that could still be the best and pass the test below is measured in full.
            if let e = mirrorError(
                reversed: reversedOld, new: new, tight: tight, axis2: k, bound: min(best.error, nearlyAccepted), errorBound: errorBound),
                e < best.error || (e == best.error && k < best.axis2)
            {
                best = (k, e)
            }
        }
        // A small sprite's axis seldom falls on a half pixel of the working resolution, and its sharp
        // details (eyes, a headlight) then miss their mirror images by a fraction of a pixel: the
        // axis between two half-pixel ones compares each pixel with the mean of two.
        if best.error.isFinite {
            for k in [best.axis2 - 1, best.axis2] {
                if let e = mirrorError(reversed: reversedOld, new: new, tight: tight, axis2: k, between: true, bound: best.error),
                    e < best.error
                {
                    best.error = e
                }
            }
        }
        guard best.error <= accept else { return nil }
        // (The cheapest test first.) A sprite turning in place has detail on both sides of its axis, before and after. An object
        // that moved across the axis (a pointer, a dragged icon) has it on one side only in each frame.
        guard isBalanced(old, about: best.axis2, in: tight, minimum: p.minimumBalance),
            isBalanced(new, about: best.axis2, in: tight, minimum: p.minimumBalance)
        else { return nil }
        // A mirror-symmetric object (a round icon, a button) that moved sideways is also "its mirror
        // image about a shifted axis", down to the anti-aliasing: it is symmetric before and after.
        // Only one side of a real flip may look symmetric (a dim red car whose luma is mostly its
        // window: mirrored, the window sits over the car's middle), so the change is refused only when
        // both sides are. Axes through the middle half of the region, so that most of it is compared
        // with itself.
        let asymmetry = p.minimumAsymmetry * direct
        let axes = (2 * tight.x + tight.width / 2)...max(2 * tight.x + tight.width / 2, 2 * (tight.maxX - 1) - tight.width / 2)
        func isSymmetric(_ image: GrayImage) -> Bool {
            axes.contains { k in
                isMirrorSymmetric(image, axis4: 2 * k, below: asymmetry) || isMirrorSymmetric(image, axis4: 2 * k + 1, below: asymmetry)
            }
        }
        if isSymmetric(old) && isSymmetric(new) { return nil }
        // Two things each its own mirror image that swapped places are the mirror image of the pair
        // too: a highlight moving to the next of two identical cells (a real minesweeper board), a
        // selection crossing a segmented control. A sprite's halves are not themselves symmetric.
        // Each half (of the changed region, either side of the axis) is tried about axes within half
        // a pixel of its own centre, so that all of it is compared with itself.
        func halvesAreSymmetric(_ image: GrayImage) -> Bool {
            let left = tight.x..<((best.axis2 + 1) / 2), right = (best.axis2 / 2 + 1)..<tight.maxX
            return [left, right].allSatisfy { half in
                guard half.count >= 4 else { return false }
                let centre = half.lowerBound + half.upperBound - 1
                return (2 * centre - 2...2 * centre + 2).contains { isMirrorSymmetric(image, axis4: $0, below: asymmetry, within: half) }
            }
        }
        // Judged unblurred: blurred, a sprite's blocky half (a car's cabin, a pixel-art body) is a
        // symmetric smudge.
        let sharp = detail ?? (old, new)
        if p.refusesSwappedSymmetricHalves, halvesAreSymmetric(sharp.old), halvesAreSymmetric(sharp.new) { return nil }
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
                if shiftError(old: old, new: new, tight: tight, dx2: dx2, dy: dy, bound: limit) < limit { return nil }
            }
        }
        // A mirrored sprite resembles itself shifted a little, so a wide shift must explain the
        // change nearly as well as the mirror does before it counts against it.
        let wideLimit = max(0, best.error - p.noise) / p.wideShiftRatio + p.noise
        for dx2 in (-2 * tight.width)...(2 * tight.width) where abs(dx2) > 2 * p.shiftReach {
            for dy in -p.shiftReach...p.shiftReach {
                if shiftError(old: old, new: new, tight: tight, dx2: dx2, dy: dy, sparse: true, bound: wideLimit) < wideLimit { return nil }
            }
        }
        for dy in -tight.height...tight.height where abs(dy) > p.shiftReach {
            for dx2 in (-2 * p.shiftReach)...(2 * p.shiftReach) {
                if shiftError(old: old, new: new, tight: tight, dx2: dx2, dy: dy, sparse: true, bound: wideLimit) < wideLimit { return nil }
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
