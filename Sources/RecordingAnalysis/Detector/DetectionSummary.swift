/// What a finished detection established, as plain values: what reports need from the detector,
/// without handing them the detector itself.
public struct DetectionSummary: Sendable {
    /// Every decoded frame's facing, in decoding order.
    public let orientations: [FrameOrientation]
    /// Whether a template located the sprite (template mode).
    public let templateMode: Bool
    /// The scale at which the template matched.
    public let templateScale: Double?
    /// The sprite's last known box, in recording pixels.
    public let spriteRect: PixelRect?
    /// The frame whose mirror event started the track (auto mode).
    public let firstEventFrame: Int?

    /// The summary of `detector` after its last frame; `workingFactor` converts its working-resolution
    /// positions to recording pixels. `repeats`: the frames the detector was not fed because they
    /// repeat the picture before them (its indices count pictures); none by default.
    public init(_ detector: MirrorDetector, repeats: RepeatedFrames = RepeatedFrames(), templateMode: Bool, workingFactor f: Int) {
        orientations = repeats.expanded(detector.orientations)
        self.templateMode = templateMode
        templateScale = detector.templateScale
        spriteRect = detector.lastPosition.map { PixelRect(x: $0.x * f, y: $0.y * f, width: $0.width * f, height: $0.height * f) }
        firstEventFrame = detector.firstEvent.map { $0.index < repeats.pictureCount ? repeats.firstFrame(ofPicture: $0.index) : $0.index }
    }
}
