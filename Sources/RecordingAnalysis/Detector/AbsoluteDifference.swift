/// Sums of |a − b| over rows of 8-bit samples, sixteen at a time: the mirror-event search compares
/// every candidate region with its mirror image about a dozen axes and with itself shifted by a few
/// hundred offsets, on every frame pair of a capture without a known sprite.
///
/// The sum is exact (the same integer a scalar loop gives): sixteen byte differences are added into
/// 16-bit lanes, which hold at least 257 of them (257 · 255 < 65536) before they are added up.
enum AbsoluteDifference {
    /// Σ |a[i] − b[i]| for i in 0..<count.
    static func sum(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Int {
        var total = 0, i = 0
        while i + 16 <= count {
            var lanes = SIMD16<UInt16>(repeating: 0)
            let end = min(count, i + 16 * 256)
            while i + 16 <= end {
                let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD16<UInt8>.self)
                let y = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD16<UInt8>.self)
                let difference = (y &- x).replacing(with: x &- y, where: x .> y)
                lanes &+= SIMD16<UInt16>(truncatingIfNeeded: difference)
                i += 16
            }
            total += Int(SIMD16<UInt32>(truncatingIfNeeded: lanes).wrappedSum())
        }
        if i + 8 <= count {
            let x = UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<UInt8>.self)
            let y = UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<UInt8>.self)
            total += Int(SIMD8<UInt16>(truncatingIfNeeded: (y &- x).replacing(with: x &- y, where: x .> y)).wrappedSum())
            i += 8
        }
        while i < count {
            let x = a[i], y = b[i]
            total &+= Int(x > y ? x &- y : y &- x)
            i &+= 1
        }
        return total
    }

    /// Σ |new[k·step] − ⌊(a[k·step] + b[k·step] + 1) / 2⌋| for k in 0..<count, `step` 1 or 2: a row
    /// compared with another moved by half a pixel (the mean of two neighbours), or every second
    /// column of it. Reads no sample past the last one compared.
    static func sumAgainstMean(
        _ new: UnsafePointer<UInt8>, _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int, step: Int
    ) -> Int {
        var total = 0, k = 0
        let one = SIMD16<UInt16>(repeating: 1)
        @inline(__always) func difference(_ n: SIMD16<UInt8>, _ x: SIMD16<UInt8>, _ y: SIMD16<UInt8>) -> SIMD16<UInt16> {
            let mean = SIMD16<UInt8>(
                truncatingIfNeeded: (SIMD16<UInt16>(truncatingIfNeeded: x) &+ SIMD16<UInt16>(truncatingIfNeeded: y) &+ one) &>> 1)
            return SIMD16<UInt16>(truncatingIfNeeded: (mean &- n).replacing(with: n &- mean, where: n .> mean))
        }
        if step == 2 {
            // Thirty-two samples read for sixteen compared: the last one read is the one after the
            // sixteenth, so the loop stops a vector before the end.
            while k + 16 < count {
                var lanes = SIMD16<UInt16>(repeating: 0)
                let end = min(count - 1, k + 16 * 256)
                while k + 16 <= end {
                    let n = UnsafeRawPointer(new + 2 * k).loadUnaligned(as: SIMD32<UInt8>.self).evenHalf
                    let x = UnsafeRawPointer(a + 2 * k).loadUnaligned(as: SIMD32<UInt8>.self).evenHalf
                    let y = UnsafeRawPointer(b + 2 * k).loadUnaligned(as: SIMD32<UInt8>.self).evenHalf
                    lanes &+= difference(n, x, y)
                    k += 16
                }
                total += Int(SIMD16<UInt32>(truncatingIfNeeded: lanes).wrappedSum())
            }
        } else if step == 1 {
            while k + 16 <= count {
                var lanes = SIMD16<UInt16>(repeating: 0)
                let end = min(count, k + 16 * 256)
                while k + 16 <= end {
                    let n = UnsafeRawPointer(new + k).loadUnaligned(as: SIMD16<UInt8>.self)
                    let x = UnsafeRawPointer(a + k).loadUnaligned(as: SIMD16<UInt8>.self)
                    let y = UnsafeRawPointer(b + k).loadUnaligned(as: SIMD16<UInt8>.self)
                    lanes &+= difference(n, x, y)
                    k += 16
                }
                total += Int(SIMD16<UInt32>(truncatingIfNeeded: lanes).wrappedSum())
            }
        }
        // Sixteen and more samples, then eight, then one by one (rows of a small sprite are short,
        // so the tail is a good part of the work).
        if k + 8 < count || (step == 1 && k + 8 <= count) {
            let low: (UnsafePointer<UInt8>) -> SIMD8<UInt8> =
                step == 2
                ? { UnsafeRawPointer($0).loadUnaligned(as: SIMD16<UInt8>.self).evenHalf }
                : { UnsafeRawPointer($0).loadUnaligned(as: SIMD8<UInt8>.self) }
            let n = low(new + k * step), x = low(a + k * step), y = low(b + k * step)
            let mean = SIMD8<UInt8>(
                truncatingIfNeeded: (SIMD8<UInt16>(truncatingIfNeeded: x) &+ SIMD8<UInt16>(truncatingIfNeeded: y) &+ 1) &>> 1)
            total &+= Int(SIMD8<UInt16>(truncatingIfNeeded: (mean &- n).replacing(with: n &- mean, where: n .> mean)).wrappedSum())
            k += 8
        }
        var pn = new + k * step, pa = a + k * step, pb = b + k * step
        while k < count {
            let d = Int32(pn[0]) &- ((Int32(pa[0]) &+ Int32(pb[0]) &+ 1) >> 1)
            total &+= Int(d < 0 ? 0 &- d : d)
            pn += step
            pa += step
            pb += step
            k += 1
        }
        return total
    }
}
