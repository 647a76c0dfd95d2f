import CFFmpeg
import RecordingAnalysis

/// Converts decoded frames to packed 8-bit images with libswscale, reusing one cached context.
final class FrameScaler {
    private var context: OpaquePointer?
    /// Row sums of the box average, kept between frames so the per-frame path does not allocate it.
    private var accumulator: [UInt16] = []
    /// One row of a frame's luma made 8-bit (`LumaRows`), for formats whose plane is not.
    private var scratchRow: [UInt8] = []
    /// Factor 3: output pixel by block sum, per range (`factor3Table`).
    private var factor3Tables: [Bool: [UInt8]] = [:]

    deinit { sws_freeContext(context) }

    func gray(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, region: PixelRect? = nil) throws(MediaError) -> GrayImage {
        if let fast = boxAveragedLuma(frame, width: width, height: height, region: region) { return fast }
        let pixels = try convert(frame, to: AV_PIX_FMT_GRAY8, bytesPerPixel: 1, width: width, height: height, flags: SWS_AREA)
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// The frame in `ColourChannel` at `width` x `height`: for 8-bit YCbCr formats the chroma sample
    /// nearest the centre of each output pixel (planar and semi-planar alike, through the format's
    /// component layout; a gray format is all 0); for others, libswscale's area-averaged RGB through
    /// the channel's RGB definition.
    /// With `axis`, the channel along that hue (`ColourChannel.HueAxis`) instead of the distance from gray.
    func colourChannel(
        _ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, along axis: ColourChannel.HueAxis? = nil
    ) throws(MediaError) -> GrayImage {
        if let axis {
            if let fast = nearestChroma(frame, width: width, height: height, along: axis) { return fast }
        } else if let fast = nearestChroma(frame, width: width, height: height) {
            return fast
        }
        if let samples = ChromaSamples(frame) {
            return nearest(
                samples, width: width, height: height, frameWidth: Int(frame.pointee.width),
                frameHeight: Int(frame.pointee.height), along: axis)
        }
        let rgb = try convert(frame, to: AV_PIX_FMT_RGB24, bytesPerPixel: 3, width: width, height: height, flags: SWS_AREA)
        var pixels = [UInt8](repeating: 0, count: width * height)
        for i in 0..<pixels.count {
            let value = ColourChannel.value(red: Float(rgb[3 * i]), green: Float(rgb[3 * i + 1]), blue: Float(rgb[3 * i + 2]), along: axis)
            pixels[i] = UInt8(value.rounded())
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// The chroma sample nearest each output pixel's centre (as `nearestChroma(_:width:height:)`
    /// picks it), read along `axis`: `ColourChannel.HueAxis.value` of the sample pair, limited-range
    /// chroma first stretched to full range. Nil where `nearestChroma` would be nil.
    private func nearestChroma(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, along axis: ColourChannel.HueAxis)
        -> GrayImage?
    {
        let fw = Int(frame.pointee.width), fh = Int(frame.pointee.height)
        guard width > 0, height > 0, fw >= width, fh >= height, let layout = ChromaLayout(frame) else { return nil }
        guard let planes = layout.planes else {
            return layout.isGray ? GrayImage(width: width, height: height, pixels: [UInt8](repeating: 128, count: width * height)) : nil
        }
        let stretch: Float = FrameScaler.isFullRange(frame) ? 1 : 255 / 224
        // The projection is linear, so each sample's share is looked up and the two are added.
        let cbShare = (0...255).map { HueAxis.gain * axis.cb * stretch * (Float($0) - 128) }
        let crShare = (0...255).map { HueAxis.gain * axis.cr * stretch * (Float($0) - 128) }
        var out = [UInt8](repeating: 128, count: width * height)
        for y in 0..<height {
            let sourceRow = ((2 * y + 1) * fh / (2 * height)) >> planes.shiftY
            let cbRow = planes.cbBase + sourceRow * planes.cbStride + planes.cbOffset
            let crRow = planes.crBase + sourceRow * planes.crStride + planes.crOffset
            for x in 0..<width {
                let c = ((2 * x + 1) * fw / (2 * width)) >> planes.shiftX
                let v = 128 + cbShare[Int(cbRow[c * planes.cbStep])] + crShare[Int(crRow[c * planes.crStep])]
                out[y * width + x] = UInt8(min(255, max(0, v.rounded())))
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    private typealias HueAxis = ColourChannel.HueAxis

    /// The colour channel from `ChromaSamples` (deeper YCbCr, packed RGB), valued as the 8-bit
    /// readers value their samples.
    private func nearest(
        _ samples: ChromaSamples, width: Int, height: Int, frameWidth: Int, frameHeight: Int, along axis: HueAxis?
    ) -> GrayImage {
        var out = [UInt8](repeating: axis == nil ? 0 : 128, count: width * height)
        guard width > 0, height > 0, frameWidth >= width, frameHeight >= height else {
            return GrayImage(width: width, height: height, pixels: out)
        }
        if let axis {
            let stretch: Float = samples.isFullRange ? 1 : 255 / 224
            let cbShare = (0...255).map { HueAxis.gain * axis.cb * stretch * (Float($0) - 128) }
            let crShare = (0...255).map { HueAxis.gain * axis.cr * stretch * (Float($0) - 128) }
            samples.forEachRow(width: width, height: height, frameWidth: frameWidth, frameHeight: frameHeight) { y, cb, cr in
                for x in 0..<width {
                    out[y * width + x] = UInt8(min(255, max(0, (128 + cbShare[Int(cb[x])] + crShare[Int(cr[x])]).rounded())))
                }
            }
        } else {
            let table = samples.isFullRange ? FrameScaler.fullRangeDistance : FrameScaler.limitedRangeDistance
            samples.forEachRow(width: width, height: height, frameWidth: frameWidth, frameHeight: frameHeight) { y, cb, cr in
                for x in 0..<width { out[y * width + x] = table[Int(cb[x])] &+ table[Int(cr[x])] }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// Where each output column's chroma sample sits in its chroma row, per frame geometry: worked
    /// out once per capture, not per frame.
    private var chromaColumns: (frameWidth: Int, width: Int, shiftX: Int, columns: [Int32], identity: Bool)?

    private func nearestChroma(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) -> GrayImage? {
        let fw = Int(frame.pointee.width), fh = Int(frame.pointee.height)
        guard width > 0, height > 0, fw >= width, fh >= height, let layout = ChromaLayout(frame) else { return nil }
        guard let planes = layout.planes else {
            return layout.isGray ? GrayImage(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height)) : nil
        }
        let (cbBase, crBase, cbStride, crStride) = (planes.cbBase, planes.crBase, planes.cbStride, planes.crStride)
        let (shiftX, shiftY) = (planes.shiftX, planes.shiftY)
        let (cbStep, cbOffset, crStep, crOffset) = (planes.cbStep, planes.cbOffset, planes.crStep, planes.crOffset)
        let cached = chromaColumns.map { $0.frameWidth == fw && $0.width == width && $0.shiftX == shiftX } ?? false
        if !cached {
            let columns = (0..<width).map { x in Int32(((2 * x + 1) * fw / (2 * width)) >> shiftX) }
            chromaColumns = (fw, width, shiftX, columns, columns.enumerated().allSatisfy { $0.offset == Int($0.element) })
        }
        guard let (_, _, _, columns, identity) = chromaColumns, let last = columns.last else { return nil }
        // Every chroma sample up to the last column used, in this row.
        let span = Int(last) + 1
        let fullRange = FrameScaler.isFullRange(frame)
        // Every pixel is written below.
        var out = FrameScaler.uninitializedPixels(width * height)
        out.withUnsafeMutableBufferPointer { o in
            columns.withUnsafeBufferPointer { c in
                (fullRange ? FrameScaler.fullRangeDistance : FrameScaler.limitedRangeDistance).withUnsafeBufferPointer { table in
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: span) { rowBuffer in
                        guard let dst = o.baseAddress, let col = c.baseAddress, let t = table.baseAddress, let row = rowBuffer.baseAddress
                        else { return }
                        var lastSourceRow = -1
                        for y in 0..<height {
                            let sourceRow = ((2 * y + 1) * fh / (2 * height)) >> shiftY
                            let line = dst + y * width
                            // Subsampled chroma serves several output rows (factor 1 of 4:2:0): the same row again.
                            if sourceRow == lastSourceRow {
                                line.update(from: line - width, count: width)
                                continue
                            }
                            lastSourceRow = sourceRow
                            let cbRow = cbBase + sourceRow * cbStride + cbOffset, crRow = crBase + sourceRow * crStride + crOffset
                            if !identity, cbStep == 1, crStep == 1 {
                                // The row's distances in vector lanes, then the output's columns picked from them.
                                FrameScaler.chromaDistances(cbRow, crRow, count: span, fullRange: fullRange, into: row)
                                for x in 0..<width { line[x] = row[Int(col[x])] }
                            } else if !identity {
                                // Interleaved chroma: picked columns only, through the per-sample table.
                                for x in 0..<width {
                                    let c = Int(col[x])
                                    line[x] = t[Int(cbRow[c &* cbStep])] &+ t[Int(crRow[c &* crStep])]
                                }
                            } else if cbStep == 1, crStep == 1 {
                                FrameScaler.chromaDistances(cbRow, crRow, count: span, fullRange: fullRange, into: line)
                            } else {
                                FrameScaler.chromaDistances(
                                    cbRow, crRow, cbStep: cbStep, crStep: crStep, count: span, fullRange: fullRange, into: line)
                            }
                        }
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// `distance` of every chroma value, per range.
    private static let fullRangeDistance: [UInt8] = (0...255).map { UInt8(distance(UInt8($0), fullRange: true)) }
    private static let limitedRangeDistance: [UInt8] = (0...255).map { UInt8(distance(UInt8($0), fullRange: false)) }

    /// min(127, |C − 128|) for full-range chroma; limited-range chroma (16–240) first stretched to
    /// full range by 255/224 and rounded half up: ⌊(255a + 112) / 224⌋ for a = |C − 128| ≤ 128, which
    /// is a + ⌊(31a + 112) / 224⌋, the division a multiply-high by 1171 and a shift by 2 in 16-bit
    /// lanes (exact for every such a; the colour-channel tests check all 256 values).
    @inline(__always)
    private static func distance(_ c: UInt8, fullRange: Bool) -> UInt16 {
        let a = UInt16(c >= 128 ? c &- 128 : 128 &- c)
        guard !fullRange else { return min(127, a) }
        return min(127, a &+ (UInt16(truncatingIfNeeded: (UInt32(31 &* a &+ 112) &* 1171) >> 16) >> 2))
    }

    /// Planar chroma: both planes read contiguously, so the loop is vectorised.
    private static func chromaDistances(
        _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, count: Int, fullRange: Bool,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        if fullRange {
            for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: distance(cb[i], fullRange: true) &+ distance(cr[i], fullRange: true)) }
        } else {
            for i in 0..<count {
                out[i] = UInt8(truncatingIfNeeded: distance(cb[i], fullRange: false) &+ distance(cr[i], fullRange: false))
            }
        }
    }

    /// Interleaved chroma (NV12, NV21 and the like): each plane at its own step.
    private static func chromaDistances(
        _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, cbStep: Int, crStep: Int, count: Int, fullRange: Bool,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        for i in 0..<count {
            out[i] = UInt8(
                truncatingIfNeeded: distance(cb[i * cbStep], fullRange: fullRange) &+ distance(cr[i * crStep], fullRange: fullRange))
        }
    }

    static func isFullRange(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        frame.pointee.color_range == AVCOL_RANGE_JPEG || frame.pointee.format == AV_PIX_FMT_GRAY8.rawValue
            || frame.pointee.format == AV_PIX_FMT_YUVJ420P.rawValue || frame.pointee.format == AV_PIX_FMT_YUVJ422P.rawValue
            || frame.pointee.format == AV_PIX_FMT_YUVJ444P.rawValue
    }

    /// Straight-alpha RGBA at `width` x `height` (point sampling: templates are read at their own size).
    func rgba(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) throws(MediaError) -> [UInt8] {
        try convert(frame, to: AV_PIX_FMT_RGBA, bytesPerPixel: 4, width: width, height: height, flags: SWS_POINT)
    }

    func rgb(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) throws(MediaError) -> RGBImage {
        // Bicubic is what the ffmpeg CLI's automatically inserted scaler uses, so frames match its output.
        let pixels = try convert(frame, to: AV_PIX_FMT_RGB24, bytesPerPixel: 3, width: width, height: height, flags: SWS_BICUBIC)
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// RGB48 (big-endian 16-bit samples) at `width` x `height`, converted as `rgb(_:width:height:)` is.
    func rgb48(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) throws(MediaError) -> [UInt8] {
        try convert(frame, to: AV_PIX_FMT_RGB48BE, bytesPerPixel: 6, width: width, height: height, flags: SWS_BICUBIC)
    }

    /// `count` bytes left as they are, for an image the caller writes every pixel of: the zero fill
    /// would be a pass over the frame's bytes for nothing.
    static func uninitializedPixels(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    static let identity: [UInt8] = (0...255).map { UInt8($0) }
    static let limitedToFull: [UInt8] = (0...255).map { v in UInt8(max(0, min(255, ((v - 16) * 255 + 109) / 219))) }

    /// The luma plane averaged over factor x factor blocks, read straight from the decoder's frame:
    /// the detector only needs the reduced luma, and this is several times cheaper than a generic
    /// conversion. Nil when the format or the size does not allow it (libswscale is used then).
    /// The box average's factor for a frame at `width` x `height`: nil when the gray image comes from
    /// libswscale instead (another format or size ratio), which converts the whole frame.
    static func boxFactor(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) -> Int? {
        let fw = Int(frame.pointee.width), fh = Int(frame.pointee.height)
        guard width > 0, height > 0, LumaRows(frame) != nil else { return nil }
        let factor = fw / width
        guard factor >= 1, factor == fh / height, width * factor <= fw, height * factor <= fh else { return nil }
        return factor
    }

    /// The part of a box-averaged `width` x `height` image that a region asks for (stored pixels):
    /// the region within the image, or all of it when there is none or it lies outside.
    static func boxArea(region: PixelRect?, width: Int, height: Int) -> PixelRect {
        region.flatMap { $0.clipped(width: width, height: height) } ?? PixelRect(x: 0, y: 0, width: width, height: height)
    }

    private func boxAveragedLuma(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int, region: PixelRect?) -> GrayImage? {
        guard let factor = FrameScaler.boxFactor(frame, width: width, height: height), let rows = LumaRows(frame) else { return nil }
        let area = FrameScaler.boxArea(region: region, width: width, height: height)
        let span = area.width * factor
        let columnOffset = area.x * factor
        let reciprocal = UInt32((65536 + factor * factor / 2) / (factor * factor))
        // Limited-range luma (16-235) is expanded to full range, as libswscale's gray conversion does.
        let fullRange = rows.isFullRange
        let lut = fullRange ? FrameScaler.identity : FrameScaler.limitedToFull
        if scratchRow.count < span { scratchRow = [UInt8](repeating: 0, count: span) }
        // Outside a region the image is black; a whole frame is written in full below.
        let whole = area.width == width && area.height == height
        var out = whole ? FrameScaler.uninitializedPixels(width * height) : [UInt8](repeating: 0, count: width * height)
        if factor == 1 {
            // Full resolution: each output pixel is one luma sample, copied (full range) or expanded in
            // arithmetic the compiler vectorises (limited range; `expanded` is `limitedToFull`).
            out.withUnsafeMutableBufferPointer { o in
                scratchRow.withUnsafeMutableBufferPointer { s in
                    guard let dst = o.baseAddress, let scratch = s.baseAddress else { return }
                    for y in area.y..<area.maxY {
                        let src = rows.row(y, from: area.x, count: area.width, scratch: scratch)
                        let row = dst + y * width + area.x
                        if fullRange {
                            row.update(from: src, count: area.width)
                        } else {
                            for x in 0..<area.width { row[x] = UInt8(truncatingIfNeeded: FrameScaler.expanded(UInt16(src[x]))) }
                        }
                    }
                }
            }
            return GrayImage(width: width, height: height, pixels: out)
        }
        // Sum `factor` rows into a 16-bit accumulator (vectorised), then each block's columns in it:
        // factor 2 as pairs, the mean and the range expansion in arithmetic the compiler vectorises;
        // factor 3 as each block's three columns added and looked up in a table by block sum (a pass
        // over every run of three first, vectorised, cost more than it saved); larger factors add up
        // each block's columns.
        let sumTable = factor == 3 ? factor3Table(fullRange: fullRange, reciprocal: reciprocal) : []
        if accumulator.count < span { accumulator = [UInt16](repeating: 0, count: span) }
        out.withUnsafeMutableBufferPointer { o in
            accumulator.withUnsafeMutableBufferPointer { acc in
                lut.withUnsafeBufferPointer { table in
                    sumTable.withUnsafeBufferPointer { sums in
                        scratchRow.withUnsafeMutableBufferPointer { s in
                            guard let a = acc.baseAddress, let dstBase = o.baseAddress, let t = table.baseAddress,
                                let scratch = s.baseAddress
                            else { return }
                            let bySum = sums.baseAddress
                            let count = area.width
                            for y in area.y..<area.maxY {
                                let first = rows.row(y * factor, from: columnOffset, count: span, scratch: scratch)
                                for i in 0..<span { a[i] = UInt16(first[i]) }
                                for r in 1..<factor {
                                    let row = rows.row(y * factor + r, from: columnOffset, count: span, scratch: scratch)
                                    for i in 0..<span { a[i] &+= UInt16(row[i]) }
                                }
                                let dst = dstBase + y * width + area.x
                                switch factor {
                                case 2:
                                    if fullRange {
                                        for i in 0..<count {
                                            dst[i] = UInt8(truncatingIfNeeded: FrameScaler.mean4(a[2 * i] &+ a[2 * i + 1]))
                                        }
                                    } else {
                                        for i in 0..<count {
                                            dst[i] = UInt8(
                                                truncatingIfNeeded: FrameScaler.expanded(FrameScaler.mean4(a[2 * i] &+ a[2 * i + 1])))
                                        }
                                    }
                                case 3:
                                    if let b = bySum {
                                        var block = UnsafePointer(a)
                                        for i in 0..<count {
                                            dst[i] = b[Int(block[0] &+ block[1] &+ block[2])]
                                            block += 3
                                        }
                                    }
                                default:
                                    var j = 0
                                    for i in 0..<count {
                                        var sum: UInt32 = 0
                                        for _ in 0..<factor {
                                            sum &+= UInt32(a[j])
                                            j += 1
                                        }
                                        dst[i] = t[Int(min(255, (sum &* reciprocal &+ 32768) >> 16))]
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    // Factor 2 in arithmetic the compiler vectorises (16-bit lanes, multiply-high), equal to the
    // rounded mean (sum · reciprocal + 32768) >> 16 and to `limitedToFull` for every value they can
    // meet (all block sums, all means; BoxAveragedLumaTests checks each one).

    /// The rounded mean of a 2x2 block sum (at most 1020): (sum + 2) / 4.
    @inline(__always)
    static func mean4(_ sum: UInt16) -> UInt16 { (sum &+ 2) >> 2 }

    /// Factor 3's output value by block sum (0 … 2295): the rounded mean through the range table.
    private func factor3Table(fullRange: Bool, reciprocal: UInt32) -> [UInt8] {
        if let cached = factor3Tables[fullRange] { return cached }
        let table = fullRange ? FrameScaler.identity : FrameScaler.limitedToFull
        let made = (0...(9 * 255)).map { sum in table[Int(min(255, (UInt32(sum) &* reciprocal &+ 32768) >> 16))] }
        factor3Tables[fullRange] = made
        return made
    }

    /// Limited-range luma expanded to full range, `limitedToFull`: for u = Y − 16 ≥ 0,
    /// ⌊(255u + 109) / 219⌋ = u + ⌊(36u + 109) / 219⌋, the last division a multiply-high by 4789
    /// and a shift by 4 (exact for u ≤ 239), clamped to 255.
    @inline(__always)
    static func expanded(_ y: UInt16) -> UInt16 {
        let u = y &- 16
        let q = u &+ (UInt16(truncatingIfNeeded: (UInt32(36 &* u &+ 109) &* 4789) >> 16) >> 4)
        return y < 16 ? 0 : min(255, q)
    }

    private func convert(
        _ frame: UnsafeMutablePointer<AVFrame>, to target: AVPixelFormat, bytesPerPixel: Int,
        width: Int, height: Int, flags: Int32
    ) throws(MediaError) -> [UInt8] {
        guard width > 0, height > 0, width <= RecordingReader.maximumDimension, height <= RecordingReader.maximumDimension else {
            throw MediaError(kind: .invalidData, operation: "sws_scale", message: "invalid output size \(width)x\(height)")
        }
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        context = sws_getCachedContext(
            context, frame.pointee.width, frame.pointee.height, source,
            Int32(width), Int32(height), target, flags, nil, nil, nil)
        guard let context else {
            throw MediaError(
                kind: .invalidData, operation: "sws_getCachedContext",
                message: "cannot convert \(frame.pointee.width)x\(frame.pointee.height) frames of this pixel format")
        }
        if target != AV_PIX_FMT_GRAY8 { FrameScaler.useFrameColorimetry(context, frame) }
        return try FrameScaler.packed(rowBytes: width * bytesPerPixel, height: height) { dstPlanes, dstStrides in
            frame.withSourcePlanes { srcPlanes, srcStrides in
                sws_scale(context, srcPlanes, srcStrides, 0, frame.pointee.height, dstPlanes, dstStrides)
            }
        }
    }

    /// Converts with the frame's own YCbCr matrix and range, as the ffmpeg CLI's scale filter does
    /// (FFmpeg 5.1 `vf_scale`, `in_color_matrix=auto`): the matrix the stream is tagged with — BT.601
    /// (BT.470BG) when untagged or unknown —, the frame's range when tagged, and the context's own
    /// choices otherwise.
    static func useFrameColorimetry(_ context: OpaquePointer, _ frame: UnsafeMutablePointer<AVFrame>) {
        var invTable: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var srcRange: Int32 = 0, dstRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        guard sws_getColorspaceDetails(context, &invTable, &srcRange, &table, &dstRange, &brightness, &contrast, &saturation) >= 0 else {
            return
        }
        guard let coefficients = coefficients(forColorSpace: Int32(frame.pointee.colorspace.rawValue)) else { return }
        let range = frame.pointee.color_range
        if range != AVCOL_RANGE_UNSPECIFIED { srcRange = range == AVCOL_RANGE_JPEG ? 1 : 0 }
        _ = sws_setColorspaceDetails(context, coefficients, srcRange, coefficients, dstRange, brightness, contrast, saturation)
    }

    /// libswscale's YCbCr coefficients for an AVCOL_SPC value, as FFmpeg 5.1's scale filter picks
    /// them: an unknown or unsupported space is BT.601 (BT.470BG).
    static func coefficients(forColorSpace space: Int32) -> UnsafePointer<Int32>? {
        let known = space >= 1 && space <= 10 && space != 8
        return sws_getCoefficients(known ? space : Int32(AVCOL_SPC_BT470BG.rawValue))
    }

    /// Runs a `sws_scale` call (`scale`) into an aligned buffer, as libswscale's SIMD code wants,
    /// and returns the rows packed without padding.
    static func packed(
        rowBytes: Int, height: Int,
        scale: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int32>) -> Int32
    ) throws(MediaError) -> [UInt8] {
        // libswscale's SIMD YUV-to-RGB code writes whole groups of 8 pixels and, when the stride has
        // no room for the last group, leaves the last pixels of every row unwritten (1170-wide
        // captures lost columns 1168-1169). 64 bytes of slack is room for it, as FFmpeg's own frame
        // buffers have.
        let stride = (rowBytes + 64 + 63) & ~63
        var padded = [UInt8](repeating: 0, count: stride * height + 64)
        let scaled: Int32 = padded.withUnsafeMutableBufferPointer { dst in
            var dstPlanes: [UnsafeMutablePointer<UInt8>?] = [dst.baseAddress, nil, nil, nil]
            var dstStrides: [Int32] = [Int32(stride), 0, 0, 0]
            return scale(&dstPlanes, &dstStrides)
        }
        if scaled < 0 {
            throw MediaError(kind: .invalidData, operation: "sws_scale", code: scaled, message: ffmpegErrorText(scaled))
        }
        // Rows packed in place, first to last (each moves to an address at or below its own), so a
        // full frame's RGB never exists twice (9.5 MB each at 1206x2622, on top of the decoder's frames).
        padded.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in 1..<max(1, height) { memmove(base + y * rowBytes, base + y * stride, rowBytes) }
        }
        padded.removeSubrange((rowBytes * height)...)
        return padded
    }
}

/// Where a frame's chroma samples are (`FrameScaler`'s colour channel reads them directly): for 8-bit
/// YCbCr formats, planar and semi-planar alike, through the format's component layout.
private struct ChromaLayout {
    struct Planes {
        let cbBase: UnsafeMutablePointer<UInt8>, crBase: UnsafeMutablePointer<UInt8>
        let cbStride: Int, crStride: Int
        /// log2 of the chroma subsampling, horizontally and vertically.
        let shiftX: Int, shiftY: Int
        let cbStep: Int, cbOffset: Int, crStep: Int, crOffset: Int
    }

    /// The chroma planes; nil for an 8-bit gray format (`isGray`), which has none.
    let planes: Planes?
    let isGray: Bool

    /// Nil when the format is neither (RGB, palette, deeper samples): libswscale converts those.
    init?(_ frame: UnsafeMutablePointer<AVFrame>) {
        guard let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: frame.pointee.format)) else { return nil }
        guard descriptor.pointee.nb_components >= 3 else {
            guard descriptor.pointee.nb_components == 1 && descriptor.pointee.comp.0.depth == 8 else { return nil }
            planes = nil
            isGray = true
            return
        }
        let cb = descriptor.pointee.comp.1, cr = descriptor.pointee.comp.2
        guard descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0, descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_PAL) == 0,
            cb.depth == 8, cr.depth == 8, cb.shift == 0, cr.shift == 0
        else { return nil }
        let data = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3]
        let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3]
        guard (0..<4).contains(cb.plane), (0..<4).contains(cr.plane),
            let cbBase = data[Int(cb.plane)], let crBase = data[Int(cr.plane)]
        else { return nil }
        let cbStride = Int(strides[Int(cb.plane)]), crStride = Int(strides[Int(cr.plane)])
        guard cbStride > 0, crStride > 0 else { return nil }
        planes = Planes(
            cbBase: cbBase, crBase: crBase, cbStride: cbStride, crStride: crStride,
            shiftX: Int(descriptor.pointee.log2_chroma_w), shiftY: Int(descriptor.pointee.log2_chroma_h),
            cbStep: Int(cb.step), cbOffset: Int(cb.offset), crStep: Int(cr.step), crOffset: Int(cr.offset))
        isGray = false
    }
}
