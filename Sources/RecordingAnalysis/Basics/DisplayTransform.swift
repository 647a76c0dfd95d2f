import Foundation

/// How a player shows a video stream's stored frames: the quarter turn or flip its display matrix
/// asks for, applied as the ffmpeg CLI applies it by default (autorotate). A phone recording held
/// upright, or an edited capture, can store its frames on their side; a sprite mirrored on screen is
/// then mirrored vertically in the stored pixels, so the detector, the frames written and every
/// position must use the frames as shown.
public enum DisplayTransform: Sendable, Equatable {
    /// Shown as stored.
    case identity
    /// Mirrored left to right (ffmpeg's `hflip`).
    case horizontalFlip
    /// Mirrored top to bottom (`vflip`).
    case verticalFlip
    /// Turned by 180° (`hflip` and `vflip`).
    case halfTurn
    /// Turned a quarter clockwise (`transpose=clock`).
    case clockwise
    /// Turned a quarter counterclockwise (`transpose=cclock`).
    case counterclockwise
    /// Mirrored about the main diagonal: stored rows become columns (`transpose=cclock_flip`).
    case transpose
    /// Mirrored about the other diagonal (`transpose=clock_flip`).
    case antiTranspose
    /// A rotation by an angle other than a multiple of 90° (ffmpeg turns the picture with its `rotate`
    /// filter, into a frame of the same size with black corners). Not applied here: frames are used
    /// as stored, and the recording's report says so.
    case unsupported(degrees: Double)

    /// The transform the ffmpeg CLI (5.1, `configure_input_video_filter`) applies for a stream's
    /// display matrix: nine 16.16 / 2.30 fixed-point values in row order, as FFmpeg stores
    /// `AV_PKT_DATA_DISPLAYMATRIX`. Nil or malformed: identity.
    public init(displayMatrix m: [Int32]?) {
        guard let m, m.count >= 9 else {
            self = .identity
            return
        }
        let theta = DisplayTransform.rotationDegrees(displayMatrix: m)
        if abs(theta - 90) < 1 {
            self = m[3] > 0 ? .transpose : .clockwise
        } else if abs(theta - 180) < 1 {
            switch (m[0] < 0, m[4] < 0) {
            case (true, true): self = .halfTurn
            case (true, false): self = .horizontalFlip
            case (false, true): self = .verticalFlip
            case (false, false): self = .identity
            }
        } else if abs(theta - 270) < 1 {
            self = m[3] < 0 ? .antiTranspose : .counterclockwise
        } else if abs(theta) > 1 {
            self = .unsupported(degrees: theta)
        } else {
            // Also a matrix without a rotation (theta NaN: a degenerate matrix compares false above).
            self = !theta.isNaN && m[4] < 0 ? .verticalFlip : .identity
        }
    }

    /// The clockwise display rotation in degrees in 0..<360, as the ffmpeg CLI's `get_rotation`
    /// works it out (libavutil's `av_display_rotation_get`, negated, rounded and wrapped); NaN for a
    /// degenerate matrix.
    public static func rotationDegrees(displayMatrix m: [Int32]) -> Double {
        func fixed(_ v: Int32) -> Double { Double(v) / 65536 }
        let scale0 = hypot(fixed(m[0]), fixed(m[3])), scale1 = hypot(fixed(m[1]), fixed(m[4]))
        guard scale0 != 0, scale1 != 0 else { return .nan }
        let rotation = -(atan2(fixed(m[1]) / scale1, fixed(m[0]) / scale0) * 180 / Double.pi)
        var theta = -rotation.rounded(.toNearestOrAwayFromZero)
        theta -= 360 * (theta / 360 + 0.9 / 360).rounded(.down)
        return theta
    }

    /// Whether shown frames are the stored ones with width and height exchanged.
    public var swapsAxes: Bool {
        switch self {
        case .clockwise, .counterclockwise, .transpose, .antiTranspose: return true
        default: return false
        }
    }

    /// Whether frames are shown other than as stored.
    public var changesFrames: Bool {
        switch self {
        case .identity, .unsupported: return false
        default: return true
        }
    }

    /// The size frames of `width` x `height` are shown at.
    public func shownSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// The stored pixel that shown pixel (`x`, `y`) of a frame stored at `width` x `height` shows.
    public func storedPoint(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .identity, .unsupported: return (x, y)
        case .horizontalFlip: return (width - 1 - x, y)
        case .verticalFlip: return (x, height - 1 - y)
        case .halfTurn: return (width - 1 - x, height - 1 - y)
        case .clockwise: return (y, height - 1 - x)
        case .counterclockwise: return (width - 1 - y, x)
        case .transpose: return (y, x)
        case .antiTranspose: return (width - 1 - y, height - 1 - x)
        }
    }

    /// The stored rectangle that a shown rectangle covers, in a frame stored at `width` x `height`.
    public func storedRect(_ r: PixelRect, width: Int, height: Int) -> PixelRect {
        guard changesFrames, r.width > 0, r.height > 0 else { return r }
        let a = storedPoint(x: r.x, y: r.y, width: width, height: height)
        let b = storedPoint(x: r.x + r.width - 1, y: r.y + r.height - 1, width: width, height: height)
        return PixelRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }

    /// Packed pixels (`channels` bytes each, rows without padding) of a frame stored at `width` x
    /// `height`, as shown.
    public func shown(_ pixels: [UInt8], width: Int, height: Int, channels: Int) -> [UInt8] {
        guard changesFrames, pixels.count == width * height * channels else { return pixels }
        let size = shownSize(width: width, height: height)
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<size.height {
                    for x in 0..<size.width {
                        let s = storedPoint(x: x, y: y, width: width, height: height)
                        let from = (s.y * width + s.x) * channels, to = (y * size.width + x) * channels
                        for c in 0..<channels { dst[to + c] = src[from + c] }
                    }
                }
            }
        }
        return out
    }

    /// A gray image stored at its size, as shown.
    public func shown(_ image: GrayImage) -> GrayImage {
        let size = shownSize(width: image.width, height: image.height)
        return GrayImage(
            width: size.width, height: size.height, pixels: shown(image.pixels, width: image.width, height: image.height, channels: 1))
    }

    /// An RGB image stored at its size, as shown.
    public func shown(_ image: RGBImage) -> RGBImage {
        let size = shownSize(width: image.width, height: image.height)
        return RGBImage(
            width: size.width, height: size.height, pixels: shown(image.pixels, width: image.width, height: image.height, channels: 3))
    }

    /// In words, for the recording's report; nil for identity.
    public var summary: String? {
        switch self {
        case .identity: return nil
        case .horizontalFlip: return "mirrored left to right"
        case .verticalFlip: return "mirrored top to bottom"
        case .halfTurn: return "turned 180°"
        case .clockwise: return "turned 90° clockwise"
        case .counterclockwise: return "turned 90° counterclockwise"
        case .transpose: return "turned 90° counterclockwise and mirrored top to bottom"
        case .antiTranspose: return "turned 90° clockwise and mirrored top to bottom"
        case .unsupported(let degrees):
            return String(format: "rotated by %.0f°, which this tool does not apply (frames are used as stored)", degrees)
        }
    }

    /// The name in JSON output.
    public var name: String {
        switch self {
        case .identity: return "none"
        case .horizontalFlip: return "hflip"
        case .verticalFlip: return "vflip"
        case .halfTurn: return "rotate-180"
        case .clockwise: return "rotate-90-clockwise"
        case .counterclockwise: return "rotate-90-counterclockwise"
        case .transpose: return "transpose"
        case .antiTranspose: return "antitranspose"
        case .unsupported: return "unsupported-rotation"
        }
    }
}
