import CFFmpeg

/// A decoded frame's luma at full resolution, one 8-bit row at a time, for the box average
/// (`FrameScaler`): straight from the plane of an 8-bit luma format, or made row by row from deeper
/// luma samples (9 to 16 bits: ProRes, 10-bit HEVC, lossless captures) and from 8-bit RGB, packed
/// (QuickTime Animation, PNG-in-MOV) or planar (H.264 and VP9 RGB). libswscale's area filter took 20 times FFmpeg's own decode
/// time on an RGB capture and twice on a 10-bit one.
///
/// Deeper samples are rounded to 8 bits (v · 2⁸⁻ᵈ, half up, at most 255), keeping their range;
/// RGB becomes BT.601 full-range luma, (19595 R + 38470 G + 7471 B + 2¹⁵) / 2¹⁶.
struct LumaRows {
    private enum Layout {
        /// An 8-bit luma plane: rows are read where they are.
        case plane8
        /// 16-bit words: the sample is `(word >> shift)`, `depth` bits, little- or big-endian.
        case plane16(depth: Int, shift: Int, bigEndian: Bool)
        /// Packed 8-bit RGB: `step` bytes a pixel, red, green and blue at these offsets.
        case packedRGB(step: Int, red: Int, green: Int, blue: Int)
        /// Planar 8-bit RGB (`gbrp`, what H.264 and VP9 RGB streams decode to): a plane each.
        case planarRGB(red: Plane, green: Plane, blue: Plane)
    }

    /// One 8-bit plane of a planar format.
    struct Plane {
        let base: UnsafeMutablePointer<UInt8>, stride: Int

        /// The plane of component `c` of `frame`, when it is one byte a sample.
        init?(_ c: AVComponentDescriptor, of frame: UnsafeMutablePointer<AVFrame>) {
            let data = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3]
            let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3]
            guard (0..<4).contains(c.plane), c.step == 1, c.offset == 0, c.depth == 8, c.shift == 0, let base = data[Int(c.plane)],
                strides[Int(c.plane)] > 0
            else { return nil }
            self.base = base
            stride = Int(strides[Int(c.plane)])
        }

        func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { base + y * stride }
    }

    private let layout: Layout
    private let base: UnsafeMutablePointer<UInt8>
    private let stride: Int
    /// Whether the rows are full range (0–255) rather than limited (16–235).
    let isFullRange: Bool

    /// Nil for a format it does not read (palettes, float, Bayer, RGB of more than 8 bits,
    /// bitstreams): libswscale converts those.
    init?(_ frame: UnsafeMutablePointer<AVFrame>) {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format)),
            let base = frame.pointee.data.0, frame.pointee.linesize.0 > 0
        else { return nil }
        let d = descriptor.pointee
        guard d.flags & LumaRows.unreadFormats == 0, d.nb_components >= 1 else { return nil }
        let isRGB = d.flags & UInt64(AV_PIX_FMT_FLAG_RGB) != 0
        let bigEndian = d.flags & UInt64(AV_PIX_FMT_FLAG_BE) != 0
        self.base = base
        stride = Int(frame.pointee.linesize.0)
        if isRGB, d.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0 {
            guard d.nb_components >= 3, let r = Plane(d.comp.0, of: frame), let g = Plane(d.comp.1, of: frame),
                let b = Plane(d.comp.2, of: frame)
            else { return nil }
            layout = .planarRGB(red: r, green: g, blue: b)
            isFullRange = true
            return
        }
        if isRGB {
            let r = d.comp.0, g = d.comp.1, b = d.comp.2
            // Packed: all three in plane 0, one byte each, at the same step (3 or 4).
            guard d.nb_components >= 3, d.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) == 0,
                r.plane == 0, g.plane == 0, b.plane == 0, r.depth == 8, g.depth == 8, b.depth == 8,
                r.shift == 0, g.shift == 0, b.shift == 0, r.step == g.step, g.step == b.step, r.step >= 3
            else { return nil }
            layout = .packedRGB(step: Int(r.step), red: Int(r.offset), green: Int(g.offset), blue: Int(b.offset))
            isFullRange = true
            return
        }
        let y = d.comp.0
        guard y.plane == 0, y.offset == 0, y.depth >= 8, y.depth <= 16 else { return nil }
        switch (y.step, y.depth) {
        case (1, 8) where y.shift == 0:
            layout = .plane8
        case (2, 9...16):
            layout = .plane16(depth: Int(y.depth), shift: Int(y.shift), bigEndian: bigEndian)
        default:
            return nil
        }
        // Gray formats are full range, as libswscale takes them.
        isFullRange = FrameScaler.isFullRange(frame) || d.nb_components <= 2
    }

    /// Row `y`'s samples `first ..< first + count` as 8-bit luma: the plane itself for an 8-bit
    /// format, `scratch` (at least `count` bytes) filled otherwise.
    func row(_ y: Int, from first: Int, count: Int, scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        let line = base + y * stride
        switch layout {
        case .plane8:
            return UnsafePointer(line + first)
        case .plane16(let depth, let shift, let bigEndian):
            let (half, drop) = LumaRows.rounding(depth: depth)
            if !bigEndian, shift == 0 {
                // The usual layout (10- and 12-bit YCbCr): a loop the compiler vectorises. FFmpeg's
                // planes are aligned, and its samples of fewer than 16 bits have their high bits clear.
                let words = UnsafeRawPointer(line).assumingMemoryBound(to: UInt16.self) + first
                for x in 0..<count {
                    scratch[x] = LumaRows.eightBit(UInt32(UInt16(littleEndian: words[x])), half: half, drop: drop)
                }
                return UnsafePointer(scratch)
            }
            let mask = UInt32((1 << depth) - 1)
            let words = UnsafeRawPointer(line + 2 * first)
            for x in 0..<count {
                let raw = words.loadUnaligned(fromByteOffset: 2 * x, as: UInt16.self)
                let word = UInt32(bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw))
                scratch[x] = LumaRows.eightBit((word >> UInt32(shift)) & mask, half: half, drop: drop)
            }
            return UnsafePointer(scratch)
        case .packedRGB(let step, let red, let green, let blue):
            var p = line + first * step
            for x in 0..<count {
                scratch[x] = LumaRows.luma(red: p[red], green: p[green], blue: p[blue])
                p += step
            }
            return UnsafePointer(scratch)
        case .planarRGB(let red, let green, let blue):
            let r = red.row(y) + first, g = green.row(y) + first, b = blue.row(y) + first
            for x in 0..<count { scratch[x] = LumaRows.luma(red: r[x], green: g[x], blue: b[x]) }
            return UnsafePointer(scratch)
        }
    }

    /// Formats neither this nor `ChromaSamples` reads (palettes, bitstreams, hardware frames, float,
    /// Bayer): libswscale converts them.
    static let unreadFormats = UInt64(
        AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_FLOAT | AV_PIX_FMT_FLAG_BAYER)

    /// The constants of `eightBit` for samples of `depth` bits (9 to 16).
    static func rounding(depth: Int) -> (half: UInt32, drop: UInt32) {
        (depth > 8 ? 1 << (depth - 9) : 0, UInt32(depth - 8))
    }

    /// A deeper sample rounded to 8 bits, half up, at most 255 (`rounding(depth:)` gives the constants).
    @inline(__always)
    static func eightBit(_ sample: UInt32, half: UInt32, drop: UInt32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(255, (sample &+ half) >> drop))
    }

    /// BT.601 full-range luma of an 8-bit RGB pixel in 16-bit fixed point, rounded.
    @inline(__always)
    static func luma(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (19595 &* UInt32(red) &+ 38470 &* UInt32(green) &+ 7471 &* UInt32(blue) &+ 32768) >> 16)
    }
}
