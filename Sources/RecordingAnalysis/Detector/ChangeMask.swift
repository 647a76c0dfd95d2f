/// Which pixels changed between two rows of 8-bit samples, sixteen at a time: the inner loops of
/// the mirror-event search, which runs on every frame pair of a capture without a known sprite.
///
/// A pixel changed when |old − new| exceeds the threshold, exactly as a scalar comparison of the two
/// values as integers would say.
enum ChangeMask {
    /// Writes 1 to `flags[i]` where |old[i] − new[i]| > `threshold`, else 0, for i in 0..<count.
    static func mark(
        old: UnsafePointer<UInt8>, new: UnsafePointer<UInt8>, count: Int, threshold: Int, into flags: UnsafeMutablePointer<UInt8>
    ) {
        // A difference of at most 255 never exceeds a threshold of 255 or more.
        let limit = UInt8(clamping: min(255, max(0, threshold)))
        let t = SIMD16<UInt8>(repeating: limit), zero = SIMD16<UInt8>(repeating: 0), one = SIMD16<UInt8>(repeating: 1)
        var i = 0
        while i + 16 <= count {
            let a = UnsafeRawPointer(old + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let b = UnsafeRawPointer(new + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let d = (b &- a).replacing(with: a &- b, where: a .> b)
            UnsafeMutableRawPointer(flags + i).storeBytes(of: zero.replacing(with: one, where: d .> t), as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            let a = old[i], b = new[i]
            flags[i] = (a > b ? a - b : b - a) > limit ? 1 : 0
            i += 1
        }
    }

    /// The number of 1s among the eight flags at `flags`: eight 0/1 bytes summed by one
    /// multiplication, whose top byte collects them all.
    @inline(__always)
    static func eightFlagSum(_ flags: UnsafePointer<UInt8>) -> Int {
        Int((UnsafeRawPointer(flags).loadUnaligned(as: UInt64.self) &* 0x0101_0101_0101_0101) >> 56)
    }

    /// The number of 1s among `flags[0..<count]` (flags are 0 or 1).
    static func count(_ flags: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var n = 0, i = 0
        while i + 8 <= count {
            n += eightFlagSum(flags + i)
            i += 8
        }
        while i < count {
            n += Int(flags[i])
            i += 1
        }
        return n
    }

    /// Calls `body` for each row of `rect` (top to bottom) with the row's flags: 1 where the pixel
    /// changed by more than `threshold`, 0 elsewhere, `rect.width` of them (valid during the call).
    static func forEachRow(
        old: GrayImage, new: GrayImage, in rect: PixelRect, threshold: Int, _ body: (Int, UnsafePointer<UInt8>) -> Void
    ) {
        guard rect.width > 0 else { return }
        var flags = [UInt8](repeating: 0, count: rect.width)
        old.pixels.withUnsafeBufferPointer { a in
            new.pixels.withUnsafeBufferPointer { b in
                flags.withUnsafeMutableBufferPointer { f in
                    guard let oldBase = a.baseAddress, let newBase = b.baseAddress, let flagBase = f.baseAddress else { return }
                    for y in rect.y..<rect.maxY {
                        let offset = y * new.width + rect.x
                        mark(old: oldBase + offset, new: newBase + offset, count: rect.width, threshold: threshold, into: flagBase)
                        body(y, flagBase)
                    }
                }
            }
        }
    }

    /// Changed pixels per `block` x `block` tile of `area` (tiles on the right and bottom edges may be
    /// smaller), row-major, `(area.width + block − 1) / block` tiles per row.
    static func blockCounts(old: GrayImage, new: GrayImage, area: PixelRect, block: Int, threshold: Int) -> [Int] {
        let bw = (area.width + block - 1) / block, bh = (area.height + block - 1) / block
        var counts = [Int](repeating: 0, count: bw * bh)
        counts.withUnsafeMutableBufferPointer { c in
            guard let countBase = c.baseAddress else { return }
            forEachRow(old: old, new: new, in: area, threshold: threshold) { y, flags in
                let blockRow = countBase + ((y - area.y) / block) * bw
                var x = 0, bx = 0
                if block == 8 {
                    // The usual tile: each whole one is a single eight-flag sum.
                    while x + 8 <= area.width {
                        blockRow[bx] &+= eightFlagSum(flags + x)
                        x &+= 8
                        bx &+= 1
                    }
                }
                while x < area.width {
                    let end = min(area.width, x + block)
                    blockRow[bx] += count(flags + x, end - x)
                    x = end
                    bx += 1
                }
            }
        }
        return counts
    }

    /// The bounding box of the pixels inside `rect` that changed by more than `threshold`, and how
    /// many changed; nil when none did.
    static func changedBox(old: GrayImage, new: GrayImage, in rect: PixelRect, threshold: Int) -> (box: PixelRect, changed: Int)? {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min, total = 0
        forEachRow(old: old, new: new, in: rect, threshold: threshold) { y, flags in
            let n = count(flags, rect.width)
            guard n > 0 else { return }
            total += n
            y0 = min(y0, y)
            y1 = y
            var first = 0
            while flags[first] == 0 { first += 1 }
            var last = rect.width - 1
            while flags[last] == 0 { last -= 1 }
            x0 = min(x0, rect.x + first)
            x1 = max(x1, rect.x + last)
        }
        guard total > 0 else { return nil }
        return (PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1), total)
    }
}
