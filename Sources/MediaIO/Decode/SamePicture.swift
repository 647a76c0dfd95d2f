import CFFmpeg

/// Whether two decoded frames hold the same picture: the same size and pixel format, and every
/// byte of every plane that the picture uses equal (the padding at the end of a row is not part of
/// it). Palette, bitstream and hardware formats are never called the same: their planes do not hold
/// the picture itself.
enum SamePicture {
    static func holds(_ a: UnsafeMutablePointer<AVFrame>, _ b: UnsafeMutablePointer<AVFrame>) -> Bool {
        let fa = a.pointee, fb = b.pointee
        guard fa.width == fb.width, fa.height == fb.height, fa.format == fb.format, fa.width > 0, fa.height > 0,
            let descriptor = av_pix_fmt_desc_get(AVPixelFormat(rawValue: fa.format))
        else { return false }
        let format = AVPixelFormat(rawValue: fa.format)
        let unsupported = UInt64(AV_PIX_FMT_FLAG_PAL) | UInt64(AV_PIX_FMT_FLAG_BITSTREAM) | UInt64(AV_PIX_FMT_FLAG_HWACCEL)
        guard descriptor.pointee.flags & unsupported == 0 else { return false }
        let planes = Int(av_pix_fmt_count_planes(format))
        guard planes > 0, planes <= 4 else { return false }
        var rowBytes: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let filled = withUnsafeMutablePointer(to: &rowBytes) {
            $0.withMemoryRebound(to: Int32.self, capacity: 4) { av_image_fill_linesizes($0, format, fa.width) }
        }
        guard filled >= 0 else { return false }
        let chromaShift = Int32(descriptor.pointee.log2_chroma_h)
        return withUnsafeBytes(of: rowBytes) { rowBytesBuffer in
            let widths = rowBytesBuffer.bindMemory(to: Int32.self)
            return withUnsafeBytes(of: fa.data) { dataA in
                withUnsafeBytes(of: fb.data) { dataB in
                    withUnsafeBytes(of: fa.linesize) { strideA in
                        withUnsafeBytes(of: fb.linesize) { strideB in
                            let pa = dataA.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                            let pb = dataB.bindMemory(to: UnsafeMutablePointer<UInt8>?.self)
                            let sa = strideA.bindMemory(to: Int32.self), sb = strideB.bindMemory(to: Int32.self)
                            for plane in 0..<planes {
                                guard let rowsA = pa[plane], let rowsB = pb[plane], widths[plane] > 0 else { return false }
                                // Chroma planes (1 and 2) have fewer rows; luma and alpha have all of them.
                                let chroma = planes >= 3 ? (plane == 1 || plane == 2) : plane == 1
                                let rows = chroma ? Int(-((-fa.height) >> chromaShift)) : Int(fa.height)
                                let width = Int(widths[plane])
                                for row in 0..<rows {
                                    if memcmp(rowsA + row * Int(sa[plane]), rowsB + row * Int(sb[plane]), width) != 0 { return false }
                                }
                            }
                            return true
                        }
                    }
                }
            }
        }
    }
}
