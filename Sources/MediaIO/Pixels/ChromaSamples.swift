import CFFmpeg

/// The chroma (Cb, Cr) nearest the centre of each output pixel, as 8-bit samples, for the formats
/// `FrameScaler`'s own 8-bit chroma reader does not take: deeper planar YCbCr (9 to 16 bits,
/// rounded to 8 and keeping their range) and 8-bit RGB, packed or planar (through BT.601 full-range YCbCr,
/// as `ColourChannel.chroma` defines it). libswscale's area-averaged RGB was most of the time spent on such
/// captures.
struct ChromaSamples {
    private enum Layout {
        case planes(cb: Plane, cr: Plane, shiftX: Int, shiftY: Int)
        case packedRGB(base: UnsafeMutablePointer<UInt8>, stride: Int, step: Int, red: Int, green: Int, blue: Int)
        case planarRGB(red: LumaRows.Plane, green: LumaRows.Plane, blue: LumaRows.Plane)
    }

    /// A plane of 16-bit chroma words: the sample is `(word >> shift)`, `depth` bits.
    private struct Plane {
        let base: UnsafeMutablePointer<UInt8>, stride: Int, step: Int, offset: Int, depth: Int, shift: Int, bigEndian: Bool

        /// Row `row`'s samples at `columns` (in samples), rounded to 8 bits, into `out`.
        func samples(row: Int, columns: UnsafeBufferPointer<Int32>, into out: UnsafeMutablePointer<UInt8>) {
            let line = UnsafeRawPointer(base + row * stride + offset)
            let (half, drop) = LumaRows.rounding(depth: depth)
            let mask = UInt32((1 << depth) - 1), shift = UInt32(self.shift)
            for (x, column) in columns.enumerated() {
                let raw = line.loadUnaligned(fromByteOffset: Int(column) * step, as: UInt16.self)
                let word = UInt32(bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw))
                out[x] = LumaRows.eightBit((word >> shift) & mask, half: half, drop: drop)
            }
        }
    }

    private let layout: Layout
    /// Whether the samples are full range (RGB always is).
    let isFullRange: Bool

    /// Nil for formats it does not read (8-bit YCbCr has its own reader; palettes, float, bitstreams
    /// and the rest go through libswscale).
    init?(_ frame: UnsafeMutablePointer<AVFrame>) {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format)) else { return nil }
        let d = descriptor.pointee
        guard d.flags & LumaRows.unreadFormats == 0, d.nb_components >= 3 else { return nil }
        let data = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3]
        let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3]
        if d.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0, d.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0 {
            guard let r = LumaRows.Plane(d.comp.0, of: frame), let g = LumaRows.Plane(d.comp.1, of: frame),
                let b = LumaRows.Plane(d.comp.2, of: frame)
            else { return nil }
            layout = .planarRGB(red: r, green: g, blue: b)
            isFullRange = true
            return
        }
        if d.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0 {
            let r = d.comp.0, g = d.comp.1, b = d.comp.2
            guard d.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) == 0, r.plane == 0, g.plane == 0, b.plane == 0,
                r.depth == 8, g.depth == 8, b.depth == 8, r.shift == 0, g.shift == 0, b.shift == 0,
                r.step == g.step, g.step == b.step, r.step >= 3, let base = data[0], strides[0] > 0
            else { return nil }
            layout = .packedRGB(
                base: base, stride: Int(strides[0]), step: Int(r.step), red: Int(r.offset), green: Int(g.offset), blue: Int(b.offset))
            isFullRange = true
            return
        }
        let bigEndian = d.flags & UInt64(AV_PIX_FMT_FLAG_BE) != 0
        func plane(_ c: AVComponentDescriptor) -> Plane? {
            guard (0..<4).contains(c.plane), c.depth > 8, c.depth <= 16, c.step >= 2, let base = data[Int(c.plane)],
                strides[Int(c.plane)] > 0
            else { return nil }
            return Plane(
                base: base, stride: Int(strides[Int(c.plane)]), step: Int(c.step), offset: Int(c.offset), depth: Int(c.depth),
                shift: Int(c.shift), bigEndian: bigEndian)
        }
        guard let cb = plane(d.comp.1), let cr = plane(d.comp.2) else { return nil }
        layout = .planes(cb: cb, cr: cr, shiftX: Int(d.log2_chroma_w), shiftY: Int(d.log2_chroma_h))
        isFullRange = FrameScaler.isFullRange(frame)
    }

    /// Calls `body` with each output row's index and its `width` nearest chroma pairs (of a frame of
    /// `frameWidth` x `frameHeight` reduced to `width` x `height`).
    func forEachRow(
        width: Int, height: Int, frameWidth fw: Int, frameHeight fh: Int,
        _ body: (Int, UnsafePointer<UInt8>, UnsafePointer<UInt8>) -> Void
    ) {
        let columns = (0..<width).map { x in Int32((2 * x + 1) * fw / (2 * width)) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * width) { buffer in
            guard let cbRow = buffer.baseAddress, width > 0 else { return }
            let crRow = cbRow + width
            columns.withUnsafeBufferPointer { column in
                switch layout {
                case .planes(let cb, let cr, let shiftX, let shiftY):
                    let chromaColumns = column.map { $0 >> Int32(shiftX) }
                    chromaColumns.withUnsafeBufferPointer { c in
                        for y in 0..<height {
                            let row = ((2 * y + 1) * fh / (2 * height)) >> shiftY
                            cb.samples(row: row, columns: c, into: cbRow)
                            cr.samples(row: row, columns: c, into: crRow)
                            body(y, cbRow, crRow)
                        }
                    }
                case .packedRGB(let base, let stride, let step, let red, let green, let blue):
                    for y in 0..<height {
                        let line = base + ((2 * y + 1) * fh / (2 * height)) * stride
                        for x in 0..<width {
                            let p = line + Int(column[x]) * step
                            (cbRow[x], crRow[x]) = ChromaSamples.chroma(red: p[red], green: p[green], blue: p[blue])
                        }
                        body(y, cbRow, crRow)
                    }
                case .planarRGB(let red, let green, let blue):
                    for y in 0..<height {
                        let row = (2 * y + 1) * fh / (2 * height)
                        let r = red.row(row), g = green.row(row), b = blue.row(row)
                        for x in 0..<width {
                            let c = Int(column[x])
                            (cbRow[x], crRow[x]) = ChromaSamples.chroma(red: r[c], green: g[c], blue: b[c])
                        }
                        body(y, cbRow, crRow)
                    }
                }
            }
        }
    }

    /// BT.601 full-range (Cb, Cr) of an 8-bit RGB pixel in 16-bit fixed point, rounded: as
    /// `ColourChannel.chroma` defines it.
    @inline(__always)
    private static func chroma(red: UInt8, green: UInt8, blue: UInt8) -> (UInt8, UInt8) {
        let r = Int32(red), g = Int32(green), b = Int32(blue)
        let cb = (32768 &* b &- 11059 &* r &- 21709 &* g &+ (128 << 16) &+ 32768) >> 16
        let cr = (32768 &* r &- 27439 &* g &- 5329 &* b &+ (128 << 16) &+ 32768) >> 16
        return (UInt8(truncatingIfNeeded: min(255, max(0, cb))), UInt8(truncatingIfNeeded: min(255, max(0, cr))))
    }
}
