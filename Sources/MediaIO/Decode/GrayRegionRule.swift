import RecordingAnalysis

/// Which pixels `VideoFrame.grayImage(width:height:region:)` fills for a region and which it leaves
/// black, for the frames of one capture at one size: an image of the whole frame, kept from an
/// earlier decode, then stands in for that call exactly (`restricting(_:to:)`).
public struct GrayRegionRule: Sendable, Equatable {
    /// Whether a region is honoured at all (the box average); libswscale's conversion fills everything.
    let honoursRegions: Bool
    let storedWidth: Int
    let storedHeight: Int
    let display: DisplayTransform

    /// A rule for frames stored at `storedWidth` x `storedHeight` (the image's size before `display`),
    /// box-averaged (`honoursRegions`) or converted whole.
    public init(honoursRegions: Bool, storedWidth: Int, storedHeight: Int, display: DisplayTransform) {
        self.honoursRegions = honoursRegions
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.display = display
    }

    /// The image `grayImage(width:height:region:)` gives, made from the one it gives without a region.
    public func restricting(_ whole: GrayImage, to region: PixelRect?) -> GrayImage {
        guard honoursRegions, let region else { return whole }
        let area = FrameScaler.boxArea(
            region: display.storedRect(region, width: storedWidth, height: storedHeight), width: storedWidth, height: storedHeight)
        guard area.width < storedWidth || area.height < storedHeight else { return whole }
        var out = GrayImage(width: whole.width, height: whole.height)
        if !display.changesFrames {
            for y in area.y..<area.maxY {
                let row = y * whole.width
                out.pixels[(row + area.x)..<(row + area.maxX)] = whole.pixels[(row + area.x)..<(row + area.maxX)]
            }
            return out
        }
        for y in 0..<whole.height {
            for x in 0..<whole.width {
                let s = display.storedPoint(x: x, y: y, width: storedWidth, height: storedHeight)
                if s.x >= area.x, s.x < area.maxX, s.y >= area.y, s.y < area.maxY {
                    out.pixels[y * whole.width + x] = whole.pixels[y * whole.width + x]
                }
            }
        }
        return out
    }
}
