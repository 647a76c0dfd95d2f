extension GrayImage {
    /// This image with bright features narrower than three pixels across a row taken out: a
    /// grayscale opening by a run of three pixels (each pixel the minimum of three in a row, then
    /// the maximum of those minimums over the three runs that hold it). Rain streaks one or two
    /// pixels wide go; a sprite's body, eyes and shell stay, in both frames of a pair alike.
    public func withoutThinBrightLines() -> GrayImage {
        guard width >= 3 else { return self }
        var out = GrayImage(width: width, height: height)
        var lows = [UInt8](repeating: 0, count: width)
        let w = width
        pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                lows.withUnsafeMutableBufferPointer { low in
                    guard let s = src.baseAddress, let d = dst.baseAddress, let l = low.baseAddress else { return }
                    for y in 0..<height {
                        let row = s + y * w, outRow = d + y * w
                        // l[x]: the minimum of the run starting at x (x < w − 2), sixteen at a time.
                        var x = 0
                        while x + 16 <= w - 2 {
                            let a = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD16<UInt8>.self)
                            let b = UnsafeRawPointer(row + x + 1).loadUnaligned(as: SIMD16<UInt8>.self)
                            let c = UnsafeRawPointer(row + x + 2).loadUnaligned(as: SIMD16<UInt8>.self)
                            UnsafeMutableRawPointer(l + x).storeBytes(of: pointwiseMin(pointwiseMin(a, b), c), as: SIMD16<UInt8>.self)
                            x += 16
                        }
                        while x < w - 2 {
                            l[x] = Swift.min(Swift.min(row[x], row[x + 1]), row[x + 2])
                            x += 1
                        }
                        // The runs holding x start at x − 2 … x, those that exist (0 … w − 3).
                        for x in [0, 1, w - 2, w - 1] where x >= 0 && x < w {
                            var v: UInt8 = 0
                            for start in Swift.max(0, x - 2)...Swift.min(x, w - 3) { v = Swift.max(v, l[start]) }
                            outRow[x] = v
                        }
                        x = 2
                        while x + 16 <= w - 2 {
                            let a = UnsafeRawPointer(l + x - 2).loadUnaligned(as: SIMD16<UInt8>.self)
                            let b = UnsafeRawPointer(l + x - 1).loadUnaligned(as: SIMD16<UInt8>.self)
                            let c = UnsafeRawPointer(l + x).loadUnaligned(as: SIMD16<UInt8>.self)
                            UnsafeMutableRawPointer(outRow + x).storeBytes(of: pointwiseMax(pointwiseMax(a, b), c), as: SIMD16<UInt8>.self)
                            x += 16
                        }
                        while x < w - 2 {
                            outRow[x] = Swift.max(Swift.max(l[x - 2], l[x - 1]), l[x])
                            x += 1
                        }
                    }
                }
            }
        }
        return out
    }
}
