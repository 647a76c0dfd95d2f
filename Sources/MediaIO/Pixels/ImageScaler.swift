import CFFmpeg
import RecordingAnalysis

/// Resizes packed RGB images with libswscale.
enum ImageScaler {
    static func scale(_ image: RGBImage, width: Int, height: Int) throws(MediaError) -> RGBImage {
        guard width > 0, height > 0, image.width > 0, image.height > 0 else {
            throw MediaError(
                kind: .invalidData, operation: "sws_scale", message: "cannot scale \(image.width)x\(image.height) to \(width)x\(height)")
        }
        guard
            let sws = sws_getContext(
                Int32(image.width), Int32(image.height), AV_PIX_FMT_RGB24, Int32(width), Int32(height),
                AV_PIX_FMT_RGB24, SWS_AREA, nil, nil, nil)
        else {
            throw MediaError(kind: .unavailable, operation: "sws_getContext", message: "cannot scale RGB images")
        }
        defer { sws_freeContext(sws) }
        let pixels = try image.pixels.withUnsafeBufferPointer { src throws(MediaError) in
            try FrameScaler.packed(rowBytes: width * 3, height: height) { dstPlanes, dstStrides in
                var srcPlanes: [UnsafePointer<UInt8>?] = [src.baseAddress, nil, nil, nil]
                var srcStrides: [Int32] = [Int32(image.width * 3), 0, 0, 0]
                return sws_scale(sws, &srcPlanes, &srcStrides, 0, Int32(image.height), dstPlanes, dstStrides)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
