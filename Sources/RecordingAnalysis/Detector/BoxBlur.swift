extension GrayImage {
    /// This image with each pixel the rounded mean of the 3 x 3 pixels around it, the pixels on the
    /// border repeated beyond it.
    ///
    /// Compression noise in a heavily coded capture is mostly finer than that, a sprite's shape is
    /// not: the mirror test's error, which is that noise where a sprite turned, falls by a third,
    /// while the change it is weighed against hardly does.
    public func boxBlurred() -> GrayImage {
        guard width > 0, height > 0 else { return self }
        var out = GrayImage(width: width, height: height)
        let w = width, h = height
        // Each column's sum over three rows, for one row at a time; one extra column either side.
        var columns = [UInt16](repeating: 0, count: w + 2)
        pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                columns.withUnsafeMutableBufferPointer { col in
                    guard let s = src.baseAddress, let d = dst.baseAddress, let c = col.baseAddress else { return }
                    for y in 0..<h {
                        let above = s + Swift.max(0, y - 1) * w, row = s + y * w, below = s + Swift.min(h - 1, y + 1) * w
                        let sums = c + 1
                        // Plain loops over pointers, which the optimiser vectorises.
                        for x in 0..<w { sums[x] = UInt16(above[x]) &+ UInt16(row[x]) &+ UInt16(below[x]) }
                        c[0] = sums[0]
                        c[w + 1] = sums[w - 1]
                        // Three column sums (at most 2,295): their rounded ninth is ((s + 4) · 7282) >> 16,
                        // exact over that whole range.
                        let outRow = d + y * w
                        for x in 0..<w {
                            let total = UInt32(c[x] &+ c[x + 1] &+ c[x + 2])
                            outRow[x] = UInt8(truncatingIfNeeded: ((total &+ 4) &* 7282) &>> 16)
                        }
                    }
                }
            }
        }
        return out
    }
}
