import CFFmpeg
import RecordingAnalysis

/// Converts decoded frames to packed 8-bit images with libswscale, reusing one cached context.
final class FrameScaler {
    private var context: OpaquePointer?

    deinit { sws_freeContext(context) }

    func gray(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) throws(MediaError) -> GrayImage {
        let pixels = try convert(frame, to: AV_PIX_FMT_GRAY8, bytesPerPixel: 1, width: width, height: height, flags: SWS_AREA)
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    func rgb(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) throws(MediaError) -> RGBImage {
        // Bicubic is what the ffmpeg CLI's automatically inserted scaler uses, so frames match its output.
        let pixels = try convert(frame, to: AV_PIX_FMT_RGB24, bytesPerPixel: 3, width: width, height: height, flags: SWS_BICUBIC)
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, to target: AVPixelFormat, bytesPerPixel: Int,
                         width: Int, height: Int, flags: Int32) throws(MediaError) -> [UInt8] {
        guard width > 0, height > 0, width <= RecordingReader.maximumDimension, height <= RecordingReader.maximumDimension else {
            throw MediaError(kind: .invalidData, operation: "sws_scale", message: "invalid output size \(width)x\(height)")
        }
        let source = AVPixelFormat(rawValue: frame.pointee.format)
        context = sws_getCachedContext(context, frame.pointee.width, frame.pointee.height, source,
                                       Int32(width), Int32(height), target, flags, nil, nil, nil)
        guard let context else {
            throw MediaError(kind: .invalidData, operation: "sws_getCachedContext",
                             message: "cannot convert \(frame.pointee.width)x\(frame.pointee.height) frames of this pixel format")
        }
        // libswscale writes with SIMD and wants aligned rows; copy out into a packed image afterwards.
        let rowBytes = width * bytesPerPixel
        let stride = (rowBytes + 63) & ~63
        var padded = [UInt8](repeating: 0, count: stride * height + 64)
        let scaled: Int32 = padded.withUnsafeMutableBufferPointer { dst in
            var dstPlanes: [UnsafeMutablePointer<UInt8>?] = [dst.baseAddress, nil, nil, nil]
            var dstStrides: [Int32] = [Int32(stride), 0, 0, 0]
            return withUnsafePointer(to: &frame.pointee.data) { dataTuple in
                dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { srcPlanes in
                    withUnsafePointer(to: &frame.pointee.linesize) { lineTuple in
                        lineTuple.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { srcStrides in
                            sws_scale(context, srcPlanes, srcStrides, 0, frame.pointee.height, &dstPlanes, &dstStrides)
                        }
                    }
                }
            }
        }
        if scaled < 0 {
            throw MediaError(kind: .invalidData, operation: "sws_scale", code: scaled, message: ffmpegErrorText(scaled))
        }
        if stride == rowBytes { return Array(padded[0..<(rowBytes * height)]) }
        var packed = [UInt8](repeating: 0, count: rowBytes * height)
        packed.withUnsafeMutableBufferPointer { out in
            padded.withUnsafeBufferPointer { src in
                for y in 0..<height {
                    (out.baseAddress! + y * rowBytes).update(from: src.baseAddress! + y * stride, count: rowBytes)
                }
            }
        }
        return packed
    }
}
