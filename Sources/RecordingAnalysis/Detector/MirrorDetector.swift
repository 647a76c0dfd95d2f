/// Which way a sprite faces in one frame, relative to its canonical orientation.
public enum SpriteFacing: String, Sendable, Equatable {
    /// As in the template (template mode: facing right), or as first seen (auto mode: `initial`).
    case canonical
    /// The horizontal mirror of the canonical orientation.
    case mirrored
    /// The sprite could not be found in the frame.
    case absent
}

/// The detector's verdict on one decoded frame.
public struct FrameOrientation: Sendable, Equatable {
    /// Decoder-output index.
    public var index: Int
    public var facing: SpriteFacing
    /// Best NCC score of the canonical and of the mirrored template (nil before the sprite is known).
    public var canonicalScore: Float?
    public var mirroredScore: Float?
    /// Where the sprite was found, in working-resolution pixels.
    public var position: PixelRect?
    /// Whether facing was decided by matching (false: assumed, e.g. before the first mirror event).
    public var measured: Bool

    /// Score margin between the chosen orientation and the other one.
    public var confidence: Float? {
        guard let c = canonicalScore, let m = mirroredScore, facing != .absent else { return nil }
        return abs(c - m)
    }
}

/// Decides, frame by frame, whether a sprite faces its canonical way, is mirrored, or is absent.
///
/// Streaming: it keeps only the previous frame and the sprite template, so memory does not grow
/// with the recording. Template mode matches a given template and its mirror image in every frame
/// (searching a few scales first). Auto mode scans consecutive frames for a mirror event, cuts the
/// sprite out of the frame before the first one, and from then on matches it and its mirror image;
/// frames before the first mirror event face the initial way by definition.
public struct MirrorDetector: Sendable {
    /// Settings of one run.
    public struct Configuration: Sendable {
        /// Canonical-orientation template (facing right), at the recording's pixel scale; nil: auto mode.
        public var template: SpriteTemplate?
        /// Search only here (working-resolution pixels); whole frame when nil.
        public var roi: PixelRect?
        /// Template scales tried when the template is first located.
        public var scales: [Double] = [0.8, 0.9, 1.0, 1.1, 1.25]
        /// Below this NCC the sprite is absent.
        public var presenceThreshold: Float = 0.5
        public var finder = MirrorEventFinder.Parameters()

        public init(template: SpriteTemplate? = nil, roi: PixelRect? = nil) {
            self.template = template
            self.roi = roi
        }
    }

    public let configuration: Configuration
    /// The template in canonical orientation once known (at the scale found).
    public private(set) var template: SpriteTemplate?
    /// The scale at which a given template matched best.
    public private(set) var templateScale: Double?
    /// Mirror events seen between consecutive frames (auto mode).
    public private(set) var events: [(index: Int, event: MirrorEventFinder.Event)] = []
    /// Where the sprite was last found.
    public private(set) var lastPosition: PixelRect?
    private var previous: GrayImage?
    private var lastFacing: SpriteFacing = .canonical
    private var globalSearchCooldown = 0
    private var velocity: (dx: Int, dy: Int) = (0, 0)
    /// The sprite was not found in the last frame.
    private var lost = false
    private var matchers: (canonical: TemplateMatcher, mirrored: TemplateMatcher)?
    private let adaptive: Bool

    /// How much better the mirrored fit must be to toggle the facing without a mirror event in the same frame.
    public static let toggleMargin: Float = 0.1

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        adaptive = configuration.template == nil
    }

    /// The part of the next frame this detector will look at, in working pixels; nil means all of it.
    /// Once the sprite is known and was found in the last frame, only its neighbourhood matters,
    /// and converting only that part of each frame is most of the detector's cost saved. The region
    /// is aligned to a 32-pixel grid so that consecutive frames usually share it.
    public var regionForNextFrame: PixelRect? {
        guard template != nil, !lost, let p = lastPosition else { return nil }
        let grid = 32
        let x0 = ((p.x - p.width - 16) / grid - 1) * grid, y0 = ((p.y - p.height - 16) / grid - 1) * grid
        let x1 = ((p.maxX + p.width + 16) / grid + 2) * grid, y1 = ((p.maxY + p.height + 16) / grid + 2) * grid
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Classifies the next frame in presentation order. The image may hold only `regionForNextFrame`
    /// (the rest black).
    public mutating func feed(index: Int, image: GrayImage) -> FrameOrientation {
        defer { previous = image }
        let result = decide(index: index, image: image)
        lost = template != nil && result.facing == .absent
        return result
    }

    private mutating func decide(index: Int, image: GrayImage) -> FrameOrientation {
        if template == nil, let given = configuration.template {
            locateGivenTemplate(given, in: image)
        }
        if template == nil, let previous {
            if let event = MirrorEventFinder.find(old: previous, new: image, roi: configuration.roi, parameters: configuration.finder).first {
                events.append((index, event))
                let cut = SpriteTemplate(cutting: event.rect, from: previous)
                if cut.contrast >= 4 {
                    setTemplate(cut)
                    lastPosition = event.rect
                    lastFacing = .canonical
                }
            }
        } else if template != nil, let previous, adaptive, let near = lastPosition {
            // Keep recording events near the sprite: they corroborate the pairwise verdicts.
            let around = PixelRect(x: near.x - near.width, y: near.y - near.height, width: near.width * 3, height: near.height * 3)
            if let event = MirrorEventFinder.find(old: previous, new: image, roi: around, parameters: configuration.finder).first {
                events.append((index, event))
            }
        }
        guard template != nil else {
            return FrameOrientation(index: index, facing: .canonical, canonicalScore: nil, mirroredScore: nil, position: nil, measured: false)
        }
        return classify(index: index, image: image)
    }

    private mutating func setTemplate(_ t: SpriteTemplate) {
        template = t
        matchers = (TemplateMatcher(t), TemplateMatcher(t.mirrored))
    }

    /// Finds a given template in the first frame that shows it, choosing the scale.
    private mutating func locateGivenTemplate(_ given: SpriteTemplate, in image: GrayImage) {
        guard globalSearchCooldown <= 0 else { globalSearchCooldown -= 1; return }
        var best: (scale: Double, t: SpriteTemplate, match: TemplateMatcher.Match)?
        for scale in configuration.scales {
            let t = given.scaled(by: scale)
            guard t.width < image.width, t.height < image.height else { continue }
            for candidate in [t, t.mirrored] {
                if let m = globalSearch(candidate, in: image), m.score > (best?.match.score ?? -2) {
                    best = (scale, t, m)
                }
            }
        }
        guard let best, best.match.score >= configuration.presenceThreshold else {
            // Not in this frame; a full search is costly, so try again a little later.
            globalSearchCooldown = MirrorDetector.globalSearchInterval
            return
        }
        templateScale = best.scale
        setTemplate(best.t)
        lastPosition = PixelRect(x: best.match.x, y: best.match.y, width: best.t.width, height: best.t.height)
    }

    /// Frames skipped between two full-frame searches while the sprite is not found.
    public static let globalSearchInterval = 10

    /// Coarse-to-fine search over the whole region of interest: every position of a reduced image
    /// and template, then the best few candidates refined at full resolution.
    private func globalSearch(_ template: SpriteTemplate, in image: GrayImage) -> TemplateMatcher.Match? {
        let area = configuration.roi?.clipped(width: image.width, height: image.height) ?? PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let factor = max(1, min(template.width, template.height) / 12)
        let fine = TemplateMatcher(template)
        guard factor > 1 else { return fine.best(in: image, positions: area) }
        let small = image.downsampled(by: factor)
        let coarse = TemplateMatcher(template.scaled(by: 1 / Double(factor)))
        let smallArea = area.downscaled(by: factor)
        var candidates: [TemplateMatcher.Match] = []
        for y in smallArea.y..<smallArea.maxY {
            for x in smallArea.x..<smallArea.maxX {
                guard let s = coarse.score(in: small, x: x, y: y) else { continue }
                if candidates.count < 8 || s > candidates[candidates.count - 1].score {
                    candidates.append(TemplateMatcher.Match(x: x, y: y, score: s))
                    candidates.sort { $0.score > $1.score }
                    if candidates.count > 8 { candidates.removeLast() }
                }
            }
        }
        var best: TemplateMatcher.Match?
        for c in candidates {
            let window = PixelRect(x: c.x * factor - factor, y: c.y * factor - factor, width: 3 * factor + 1, height: 3 * factor + 1)
            if let m = fine.best(in: image, positions: window), m.score > (best?.score ?? -2) { best = m }
        }
        return best
    }

    private mutating func classify(index: Int, image: GrayImage) -> FrameOrientation {
        adaptive ? classifyAgainstPrevious(index: index, image: image) : classifyAgainstTemplate(index: index, image: image)
    }

    /// The search window around a position: as far as the sprite moved last time plus a margin,
    /// either way (a turn reverses the motion), and at least a quarter of its width (it may start
    /// walking quickly from rest).
    private func window(around r: PixelRect) -> PixelRect {
        let rx = min(max(max(6, r.width / 4), abs(velocity.dx) + 6), max(8, r.width / 2))
        let ry = min(max(4, abs(velocity.dy) + 4), max(4, r.height / 4))
        return PixelRect(x: r.x - rx, y: r.y - ry, width: 2 * rx + 1, height: 2 * ry + 1)
    }

    /// Moves the tracked position, remembering the displacement for the next search window.
    private mutating func track(to position: PixelRect) {
        if let last = lastPosition { velocity = (position.x - last.x, position.y - last.y) }
        lastPosition = position
    }

    /// Template mode: match the template and its mirror image; the better one decides.
    private mutating func classifyAgainstTemplate(index: Int, image: GrayImage) -> FrameOrientation {
        guard let matchers, let t = template else {
            return FrameOrientation(index: index, facing: .absent, canonicalScore: nil, mirroredScore: nil, position: nil, measured: true)
        }
        var c = lastPosition.flatMap { matchers.canonical.bestCoarseToFine(in: image, positions: window(around: $0)) }
        var m = lastPosition.flatMap { matchers.mirrored.bestCoarseToFine(in: image, positions: window(around: $0)) }
        if max(c?.score ?? -1, m?.score ?? -1) < configuration.presenceThreshold {
            if globalSearchCooldown > 0 {
                globalSearchCooldown -= 1
            } else {
                c = globalSearch(t, in: image)
                m = globalSearch(t.mirrored, in: image)
                if max(c?.score ?? -1, m?.score ?? -1) < configuration.presenceThreshold {
                    globalSearchCooldown = MirrorDetector.globalSearchInterval
                }
            }
        }
        let cs = c?.score ?? -1, ms = m?.score ?? -1
        guard max(cs, ms) >= configuration.presenceThreshold, let winner = cs >= ms ? c : m else {
            return FrameOrientation(index: index, facing: .absent, canonicalScore: c?.score, mirroredScore: m?.score, position: nil, measured: true)
        }
        let facing: SpriteFacing = cs >= ms ? .canonical : .mirrored
        let position = PixelRect(x: winner.x, y: winner.y, width: t.width, height: t.height)
        track(to: position)
        lastFacing = facing
        return FrameOrientation(index: index, facing: facing, canonicalScore: c?.score, mirroredScore: m?.score, position: position, measured: true)
    }

    /// Auto mode: compare the sprite's neighbourhood with the previous frame's, as it was and
    /// mirrored about the sprite's centre. The previous frame is the freshest template there is:
    /// the backdrop behind the sprite may crossfade or rain, but between two frames it barely changes.
    /// A better mirrored fit toggles the facing; the canonical template is still scored for the record.
    private mutating func classifyAgainstPrevious(index: Int, image: GrayImage) -> FrameOrientation {
        let eventHere = events.last?.index == index
        guard let previous, let r = lastPosition, let last = PixelRect(x: r.x, y: r.y, width: r.width, height: r.height)
                .clipped(width: previous.width, height: previous.height), last.width >= 4, last.height >= 4 else {
            return FrameOrientation(index: index, facing: .absent, canonicalScore: nil, mirroredScore: nil, position: nil, measured: true)
        }
        let before = SpriteTemplate(cutting: last, from: previous).weightedByAsymmetry
        let same = TemplateMatcher(before).bestCoarseToFine(in: image, positions: window(around: last))
        let flipped = TemplateMatcher(before.mirrored).bestCoarseToFine(in: image, positions: window(around: last))
        let ss = same?.score ?? -1, fs = flipped?.score ?? -1
        let toggles = fs > ss + MirrorDetector.toggleMargin || (eventHere && fs > ss)
        guard max(ss, fs) >= configuration.presenceThreshold, let winner = toggles ? flipped : same else {
            return FrameOrientation(index: index, facing: .absent, canonicalScore: nil, mirroredScore: nil, position: nil, measured: true)
        }
        if toggles {
            lastFacing = lastFacing == .canonical ? .mirrored : .canonical
        }
        let position = PixelRect(x: winner.x, y: winner.y, width: last.width, height: last.height)
        track(to: position)
        // Scores against the previous frame in its own orientation and mirrored, expressed as
        // canonical/mirrored for the facing now shown.
        let (cs, ms): (Float, Float) = lastFacing == .canonical ? (max(ss, fs), min(ss, fs)) : (min(ss, fs), max(ss, fs))
        return FrameOrientation(index: index, facing: lastFacing, canonicalScore: cs, mirroredScore: ms, position: position, measured: true)
    }
}
