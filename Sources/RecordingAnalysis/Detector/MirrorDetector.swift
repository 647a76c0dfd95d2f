import Foundation

/// Which way a sprite faces in one frame, relative to its canonical orientation.
public enum SpriteFacing: String, Sendable, Equatable {
    /// As in the template (template mode: facing right), or as first seen (auto mode: `initial`).
    case canonical
    /// The horizontal mirror of the canonical orientation.
    case mirrored
    /// The detector cannot tell (see `FrameOrientation.reason`).
    case unknown
}

/// Why a frame's facing is unknown.
public enum UnknownReason: String, Sendable, Equatable {
    /// Not found near where it was, nor anywhere else in the frame (or region of interest).
    case lost = "sprite lost"
    /// Last seen touching the frame's edge, then gone.
    case outOfView = "out of view"
    /// Found, but both orientations explain it about equally well.
    case ambiguous = "ambiguous"
    /// Found, but too faint to tell which way it faces: where it was found, the frame varies by less
    /// than `MirrorDetector.Configuration.lowContrast` gray levels (a sprite fading or dimmed away).
    case lowContrast = "low contrast"
    /// Template mode: the template has not been found in any frame so far.
    case notFound = "template not found"
    /// Found, but with an edge taller than it moving across its box (a page, a sheet or the
    /// keyboard sliding over it): the part in view does not tell its facing (`SlidingEdges`).
    case covered = "partly covered"
}

/// The detector's verdict on one decoded frame.
public struct FrameOrientation: Sendable, Equatable {
    /// Decoder-output index.
    public var index: Int
    public var facing: SpriteFacing
    /// Best asymmetry-weighted NCC of the canonical and of the mirrored appearance (nil when not scored).
    public var canonicalScore: Float?
    public var mirroredScore: Float?
    /// Where the sprite was found, in working-resolution pixels.
    public var position: PixelRect?
    /// Whether facing was decided by matching (false: assumed, e.g. before the first mirror event).
    public var measured: Bool
    /// How much better the chosen orientation explains the pixels than the other, relative to how
    /// well the better one fits at all: `(best − other) / ((best − other) + (1 − best))`, in 0…1.
    /// Nil when not measured.
    public var confidence: Float?
    /// Set when `facing` is `unknown`.
    public var reason: UnknownReason?
    /// Whether the frame shows, over `position`, the pixels of the frame before it
    /// (`UnchangedFrames.isUnchanged`): then it cannot face the other way from that frame.
    public var unchangedFromPrevious = false

    public init(
        index: Int, facing: SpriteFacing, canonicalScore: Float? = nil, mirroredScore: Float? = nil,
        position: PixelRect? = nil, measured: Bool, confidence: Float? = nil, reason: UnknownReason? = nil
    ) {
        self.index = index
        self.facing = facing
        self.canonicalScore = canonicalScore
        self.mirroredScore = mirroredScore
        self.position = position
        self.measured = measured
        self.confidence = confidence
        self.reason = reason
    }

    /// Makes the frame `unknown` because its sprite is partly behind something moving
    /// (`UnknownReason.covered`), keeping what was measured.
    public mutating func cover() {
        facing = .unknown
        reason = .covered
    }

    /// The confidence of a decision between two scores (see `confidence`).
    public static func confidence(best: Float, other: Float) -> Float {
        let margin = max(0, best - other)
        return margin / (margin + max(0.02, 1 - best))
    }
}

/// Decides, frame by frame, whether a sprite faces its canonical way, is mirrored, or cannot be told.
///
/// Streaming: it keeps the sprite's appearance and the last two frames, so memory does not grow with
/// the recording. Decisions about a frame may be revised while the next frame is fed (auto mode
/// confirms a track one frame late); read `orientations` when every frame has been fed.
///
/// - Template mode locates the given template (over pixel scales 0.25x–4x) and then matches it and
///   its mirror image in every frame.
/// - Auto mode starts a track only on an object that mirrors in place: a mirror event (see
///   `MirrorEventFinder`) whose old appearance stood still in the frame before and which is still
///   there, in either orientation, in the frame after. UI content that slides, scrolls or fades fails
///   one of these. From then on it matches that appearance and its mirror image, as template mode does,
///   and follows slow changes of light by blending in confidently classified frames.
///
/// Every measured frame carries a confidence; below `confidenceThreshold` the facing is `unknown`.
/// A sprite lost near its last position is searched for again over the whole frame (or region of
/// interest) in both orientations, so a jump (a re-armed walk) is followed in the same frame.
public struct MirrorDetector: Sendable {
    /// Settings of one run.
    public struct Configuration: Sendable {
        /// Canonical-orientation template (facing right), at the recording's pixel scale; nil: auto mode.
        public var template: SpriteTemplate?
        /// Template pixels per working-resolution pixel (the working factor): the template is resampled
        /// once, by scale ÷ this, so a small asset enlarged for a 3x capture keeps its detail.
        public var templateResolution: Double = 1
        /// Template mode: a template scaled to fewer pixels than this (its weights summed, in working
        /// pixels; a 12x12 opaque square) is not matched: on screens a snail of 18x13 pixels (129)
        /// correlates at 0.85 or more with a corner of a list icon, on real captures sprites of 10x8
        /// at 0.7–0.9 with parts of glyphs. The accuracy set's smallest sprites have 155 or more.
        public var minimumTemplatePixels: Float = 150
        /// Template mode: the template in `ColourChannel` (same size and weights). Where it has colour
        /// contrast, a place the template is first located at must agree with it in colour too: a gray
        /// card corner can correlate with an orange snail's luma, not with its colours.
        public var templateColour: SpriteTemplate?
        /// Template mode: the template's prevailing hue (`ColourChannel.HueAxis`), along which the
        /// frames' colour is also read where it is compared (`ColourChannel.Views.alongHue`); nil
        /// for a template without one.
        public var hueAxis: ColourChannel.HueAxis?
        /// Template mode: the template in `ColourChannel` along `hueAxis` (same size and weights). A
        /// place that agrees with `templateColour` must also show the template's hue, in at least
        /// `colourAgreement` of the template's strength: the distance from gray is blind to hue.
        public var templateHue: SpriteTemplate?
        /// The colour channel's correlation a located match needs (when the template has colour).
        public var colourAgreement: Float = 0.15
        /// Below this standard deviation (levels of the distance from gray) under the template, a
        /// place shows no colour pattern to correlate: a sprite dimmed to a third, its chroma halved
        /// in resolution and compressed, keeps 3–5 levels of its 23, mostly noise. There the hue
        /// alone decides (`templateHue`), which gray content still fails.
        public var colourPatternFloor: Float = 6
        /// Search only here (working-resolution pixels); whole frame when nil.
        public var roi: PixelRect?
        /// Template scales tried when the template is first located: 0.25x to 4x in steps of 2^(1/6),
        /// so an @1x asset on a 3x capture and an @3x asset on a 1x capture are both found.
        public var scales: [Double] = (-12...12).map { Double.pow2($0, over: 6) }
        /// Below this (asymmetry-weighted NCC) near its last position, the sprite is not there.
        public var presenceThreshold: Float = 0.6
        /// A sprite found anywhere else in the frame, or a template located for the first time, needs this.
        public var acquireThreshold: Float = 0.7
        /// Below this confidence a frame's facing is unknown: `givenTemplateConfidence` with a template
        /// given, `autoConfidence` in auto mode (and in the frames auto mode reads again).
        public var confidenceThreshold: Float
        /// Below this standard deviation (gray levels, under the template's weights) where the sprite
        /// was found, an undecided frame is `lowContrast` rather than `ambiguous`.
        public var lowContrast: Float = 6
        /// Auto mode: a mirror event is taken only where the content around it stood still in the
        /// frame before and at the event (`SurroundingMotion`).
        public var surroundings = SurroundingMotion.Parameters()
        /// Auto mode: the mirrored appearance must still be there (either way round) in the next frame.
        public var confirmThreshold: Float = 0.7
        /// Auto mode: the track's reading of its first event frame must explain it by the mirrored
        /// appearance better than by the unmirrored one by at least this much correlation. A shape
        /// that is nearly its own mirror image (a gear turning, a redrawn widget) reads "mirrored"
        /// by a hair; a sprite that turned reads it clearly. Measured (stop 58) over the seeded
        /// captures whose first event is a real flip: the smallest margin was 0.059, the next
        /// 0.187; the false first events on GTK 4's desktop demos had 0.018 or less.
        public var eventMargin: Float = 0.04
        /// A sprite lost for at most this many frames is also looked for near where it was last seen
        /// (the window widening with the frames lost), with the ordinary presence threshold: a flip
        /// the compression smeared, or a moment behind rain, must not lose it for good when a whole-frame
        /// search needs a clearer match than tracking does.
        public var nearbySearchFrames = 30
        /// Template mode: a template located, or tracked, at this correlation is surely in the right
        /// place; below it, the whole frame is searched again now and then (see `relocate`).
        public var sureThreshold: Float = 0.85
        /// A match at `sureThreshold` makes the place sure only where the sprite's pieces, each
        /// correlated on its own, match as these ask (`SpritePieces`): three of its four quarters
        /// at 0.55, and five of its nine pieces (3 x 3) at 0.45.
        ///
        /// The quarters (stop 50): over the 178 seeded captures whose sprite is confirmed, the
        /// first sure match had three quarters at 0.50 or more; on the real and UI-only captures
        /// where a template of a sprite not there reached 0.85, the third best quarter was 0.36 or
        /// less. The bar is above the midpoint because it is tried at every frame a match reaches
        /// 0.85: a circle tracked for 270 frames passed 0.45 once.
        ///
        /// The ninths: a heart icon and an orange card's corner with a white button on a UI-only
        /// capture passed the quarters (0.55–0.82) as a snail. Over the 177 seeded captures (seed
        /// 1) the first sure match had its fifth best ninth at 0.52 or more; on the UI-only and
        /// real captures every match at 0.85 or more of a template of a sprite not there had it at
        /// 0.36 or less. Each test alone lets through what the other stops: something sharing the
        /// sprite's bottom two thirds passes the ninths, not the quarters.
        public var wholeSprite: [SpritePieces.Requirement] = [
            .init(grid: 2, threshold: 0.55, needed: 3), .init(grid: 3, threshold: 0.45, needed: 5)
        ]
        /// A sprite read by the part in view, where no part matched at `sureThreshold`: a part whose
        /// cut lies at an occluder edge (`OccluderEdges`) is taken at this correlation, the bar of a
        /// whole sprite found over the whole frame (`acquireThreshold`). Cut there, a part is not a
        /// piece of something else lined up by chance, and a part of a dim sprite matches no better
        /// than its whole does.
        public var partAtEdgeThreshold: Float = 0.7
        /// Template mode: whether an unsure place is searched for again.
        public var relocateWhileUnsure = true
        /// Template mode: frames from locating to the first search again (then twice as many each time).
        public var relocateFrames = 15
        /// Template mode, reading again the frames before the template was located: where the
        /// sprite may be (working pixels), partly hidden. See `readVisiblePart`.
        public var partlyHiddenNear: PixelRect?
        /// Reading again an auto-mode track's frames before its first flip: the sprite is located
        /// only near `partlyHiddenNear`, and only there is it searched for (measured: searching the
        /// whole frame, at scale 1 and its four neighbours, took 65 % of a recording's time where a
        /// track started late).
        /// Template mode reads its frames again over the whole frame: a sprite found late may have
        /// been first located on something else.
        public var searchesOnlyNearLocated = false
        /// Template mode: how often the scale found is checked against its neighbours.
        public var scaleCheckFrames = 15
        /// A match near the last position this much worse than the last frame's is checked against
        /// the whole frame: a sprite that jumped as it flipped leaves a piece of itself (or of its
        /// mirror image) in the old window that still matches passably.
        public var scoreDrop: Float = 0.15
        /// `scoreDrop` in auto mode, whose appearance is cut with the ground around the sprite: a car
        /// that jumped back 20 px left that ground matching at 0.85 where the track had 0.98.
        public var autoScoreDrop: Float = 0.1
        /// A place found by a whole-frame search needs this plain NCC of the whole appearance (the
        /// template's own weights) as well; so does a sprite found again near where it was lost,
        /// and a near match below it gives way to a place in the window at it (`wholeSpritePlace`).
        public var wholeAppearance: Float = 0.6
        /// A place found by a whole-frame search away from the last one must match within this of
        /// how well the sprite has matched where it was tracked (`trackQuality`): a sprite that is
        /// back, or jumped, looks as it did; something else it passably resembles does not. On a
        /// real capture a snail matched at 0.99 was covered by a navigation push, and the search found
        /// an orange circle on the page sliding over it at 0.72. 0.2 until stop 36: a re-armed snail
        /// half beyond the card's edge was lost and a card corner 0.11 below the track was taken.
        public var jumpAllowance: Float = 0.1
        /// See `wholeSpritePlace`: how much better the whole appearance must be shown elsewhere in the window.
        public var wholeAppearanceMargin: Float = 0.2
        /// See `readAtOnePlace`: the two orientations' best matches farther apart than this (working
        /// pixels, either way) are at two places.
        public var apartPixels = 2
        /// See `readWhereTheWalkLeads`: below this confidence, a frame whose orientations' best
        /// matches are at two places is read again where the sprite's steady walk leads.
        public var walkReadingConfidence: Float = 0.5
        /// Whether `readWhereTheWalkLeads` is used: with a given template, not in auto mode, nor in
        /// the frames auto mode reads again with its appearance as the template.
        public var readsWhereTheWalkLeads = true
        /// Template mode: a sprite not found where it was is not searched for elsewhere while its
        /// surroundings there look unlike they did when it was last seen (see `isCovered`), for at
        /// most this many frames.
        public var coveredFrames = 300
        /// Template mode: a sprite found again after it was lost (once its place was sure), until it
        /// matches at `sureThreshold` again, is also looked for over the whole frame every this many
        /// frames (for at most `recheckFrames`): found again half behind an edge, a piece of its
        /// mirror image may line up with the piece in view and hold the track off the sprite while
        /// it comes into view.
        public var recheckEvery = 4
        public var recheckFrames = 60
        /// Auto mode: a track whose sprite cannot be read in any of this many frames after the event
        /// that started it, or is found in one of them only away from where it was, is given up.
        public var probationFrames = 12
        /// Auto mode: a track read without a break in this many frames from its event on, where it
        /// turned, and back the right way round among them, has passed its probation (`sawWholeFlip`).
        public var wholeFlipReadings = 8
        public var finder = MirrorEventFinder.Parameters()

        /// Auto mode's confidence threshold. It also decides whether a track survives its probation
        /// (`probationFrames`): on a real simctl capture, frames after a UI mirror event (calendar
        /// paging) were read at 0.28–0.35, and a lower bar kept that track as a sprite.
        public static let autoConfidence: Float = 0.35
        /// A given template's confidence threshold: that template is the sprite, located only with
        /// the acquire, sure and colour checks, so a visible sprite read the right way round at
        /// 0.28–0.35 is not left unknown (measured on the seeded, browser and real captures).
        public static let givenTemplateConfidence: Float = 0.28

        public init(template: SpriteTemplate? = nil, roi: PixelRect? = nil) {
            self.template = template
            self.roi = roi
            confidenceThreshold = template == nil ? Self.autoConfidence : Self.givenTemplateConfidence
        }
    }

    /// A mirror event waiting for the next frame to confirm it (auto mode).
    private struct Pending: Sendable {
        var index: Int
        var event: MirrorEventFinder.Event
        var appearance: SpriteTemplate
        /// Whether `old` showed the pixels of the frame before it over the event's place.
        var oldUnchanged = false
    }

    public let configuration: Configuration
    /// Every frame fed so far, by decoder-output index (the last one may still be revised).
    public private(set) var orientations: [FrameOrientation] = []
    /// The sprite's appearance in canonical orientation once known (at the scale found).
    public private(set) var template: SpriteTemplate?
    /// The scale at which a given template matched.
    public private(set) var templateScale: Double?
    /// Template mode, while not located: the best plain NCC seen and its scale, and, when a match
    /// good enough in luma was turned down because its colours disagree with the template's, the
    /// best colour correlation of those (`colourAgreement` is what a match needs).
    public private(set) var bestMiss: (score: Float, scale: Double, colour: Float?)?
    /// The mirror event that started the track (auto mode), by the frame it happened in.
    public private(set) var firstEvent: (index: Int, event: MirrorEventFinder.Event)?
    /// Where the sprite was last found.
    public private(set) var lastPosition: PixelRect?
    /// Auto mode: the appearance that started the track, in canonical orientation at working scale.
    public private(set) var trackAppearance: SpriteTemplate?
    /// Auto mode: which pixels of `trackAppearance` are the sprite rather than the ground cut with it.
    private var groundMask: GroundMask?
    private var previous: GrayImage?
    /// The part of `previous` that was decoded (nil: all of it).
    private var previousRegion: PixelRect?
    /// Auto mode, while no track is held: the previous frame as mirror events are looked for in it.
    private var previousSearch: SearchImages?
    private var beforePrevious: GrayImage?
    /// Auto mode, while looking for the first event: the last frame in `ColourChannel`.
    private var previousColour: GrayImage?
    private var pending: Pending?
    private var velocity: (dx: Int, dy: Int) = (0, 0)
    /// Whether `velocity` is the step between two frames in which the sprite was found one after the other.
    private var stepIsKnown = false
    /// Whether the last two such steps were the same: a steady walk, whose next place can be told.
    private var walkIsSteady = false
    /// The best correlation where the sprite was found in the last frame (nil: not found).
    private var lastScore: Float?
    /// How well the sprite matches where it is tracked: an average of the winning correlation over
    /// confidently classified frames found near their last place (nil: none yet). See `jumpAllowance`.
    private var trackQuality: Float?
    /// Auto mode: `trackQuality` when the sprite was found away from its last place, until it
    /// matches within 0.05 of that again; meanwhile its appearance learns from no frame.
    private var qualityBeforeJump: Float?
    /// Where the sprite was last found near its last place, confidently, and the frame's pixels in a
    /// ring around it then (see `isCovered`).
    private var surroundings: (box: PixelRect, ring: PixelRect, pixels: [UInt8])?
    /// The sprite was not found in the last frame.
    private var lost = false
    /// Frames in a row in which the sprite was not found.
    private var framesLost = 0
    /// The sprite walked beyond the frame's edge (`readAtTheFramesEdge`) and has not been found
    /// whole since: meanwhile it is not read by a part placed anywhere it fits (`readVisiblePart`).
    private var wentBeyondTheFrame = false
    private var framesSinceScaleCheck = 0
    /// Template mode: the template has matched at `sureThreshold` where it is tracked (else its
    /// place is provisional, and a run that ends so has not found the sprite).
    public private(set) var confirmed = false
    /// Template mode: the best correlation of either orientation where the template is tracked.
    public private(set) var bestTrackedScore: Float?
    /// Template mode: the best match that reached `sureThreshold` but not in enough of its pieces
    /// to make the place sure (`wholeSprite`): the requirement it missed, and how many pieces met it.
    public private(set) var bestMatchNotWhole: (score: Float, requirement: SpritePieces.Requirement, pieces: Int)?
    private var relocateIn = 0
    private var relocateEvery = 0
    /// Template mode: how many frames (from the first) were read before the scale was last corrected.
    private var framesBeforeRescale: Int?
    /// Template mode: the frame the template was first located in. Where it was last located (auto
    /// mode: where the track started).
    private var firstLocatedIndex: Int?
    private var locatedAt: PixelRect?
    /// Whether the last frame classified found the sprite's place covered (see `isCovered`): then no
    /// part of it is looked for either.
    private var placeLooksCovered = false
    /// The facing of the last frame read by the whole sprite (not by a part of it in view).
    private var lastWholeFacing: SpriteFacing?
    /// Reading partly hidden frames (`readVisiblePart`): where the part was last found, and how many
    /// frames ago.
    private var part: (box: PixelRect, misses: Int)?
    /// Where the sprite was before a whole-frame search found it somewhere else, and how many frames
    /// ago (see `returnIfBetterBehind`).
    private var leftBehind: (box: PixelRect, frames: Int)?
    private var searchCooldown = 0
    private var searchBackoff = 1
    /// Frames since the sprite was found again after it was lost, while that place is unsure (see
    /// `recheckEvery`); nil otherwise.
    private var sinceFoundAgain: Int?
    private var matchers: (canonical: TemplateMatcher, mirrored: TemplateMatcher)?
    /// The appearance with its own weights (every pixel of the sprite, not only those that tell the
    /// orientations apart), to check a place found by a whole-frame search.
    private var wholeMatchers: (canonical: TemplateMatcher, mirrored: TemplateMatcher)?
    private let adaptive: Bool

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        adaptive = configuration.template == nil
    }

    /// The part of the next frame this detector will look at, in working pixels; nil means all of it.
    /// Once the sprite is tracked and was found in the last frame, only its neighbourhood matters
    /// (if it is not there, `feed` asks for the whole frame). The region is aligned to a 32-pixel grid
    /// so that consecutive frames usually share it.
    public var regionForNextFrame: PixelRect? {
        guard template != nil, pending == nil, let p = lastPosition else { return nil }
        // Lost and waiting before the next whole-frame search: no pixels are needed at all.
        if lost {
            if searchCooldown == 0 { return nil }
            if framesLost > configuration.nearbySearchFrames { return PixelRect(x: 0, y: 0, width: 1, height: 1) }
        }
        let grid = 32
        var w = lost ? nearbyWindow(around: p) : p
        if let behind = leftBehind { w = w.union(window(around: behind.box, after: behind.frames + 1)) }
        let x0 = ((w.x - p.width - 16) / grid - 1) * grid, y0 = ((w.y - p.height - 16) / grid - 1) * grid
        let x1 = ((w.maxX + p.width + 16) / grid + 2) * grid, y1 = ((w.maxY + p.height + 16) / grid + 2) * grid
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Classifies the next frame in presentation order (`index` counts from 0 without gaps). The
    /// image may hold only `regionForNextFrame` (the rest black); `fullFrame` supplies all of it when
    /// the sprite has to be searched for elsewhere.
    public mutating func feed(index: Int, image: GrayImage, fullFrame: () throws -> GrayImage) rethrows {
        try feed(index: index, image: image, colourFrame: { nil }, fullFrame: fullFrame)
    }

    /// As `feed(index:image:fullFrame:)`; while auto mode looks for its first mirror event,
    /// `colourFrame` supplies the whole frame in `ColourChannel` (nil: not available), where an event
    /// that luma does not show (colour contrast only) is looked for as a second chance.
    public mutating func feed(
        index: Int, image: GrayImage, colourFrame: () throws -> ColourChannel.Views?, fullFrame: () throws -> GrayImage
    ) rethrows {
        var image = image
        let decoded = regionForNextFrame
        let partial = decoded != nil
        var readByPart = false
        var result: FrameOrientation
        if let given = configuration.template {
            if template == nil {
                if partial { image = try fullFrame() }
                try locate(given, in: image, colourFrame: colourFrame)
            }
            if template != nil {
                result = try classify(index: index, image: &image, partial: partial, colourFrame: colourFrame, fullFrame: fullFrame)
                // A sprite partly beyond the frame's edge says nothing of its scale: there its shell
                // alone, at half the scale, matched better than the whole of it did.
                if let position = result.position, !wentBeyondTheFrame,
                    PixelRect(x: 0, y: 0, width: image.width, height: image.height).intersection(position) == position,
                    try recheckScale(given, at: position, image: &image, partial: partial, fullFrame: fullFrame)
                {
                    result = FrameOrientation(index: index, facing: .unknown, measured: true, reason: .notFound)
                } else if try relocate(
                    given, tracked: result, image: &image, partial: partial, colourFrame: colourFrame, fullFrame: fullFrame)
                {
                    result = FrameOrientation(index: index, facing: .unknown, measured: true, reason: .notFound)
                } else if result.position == nil, result.reason == .lost || result.reason == .outOfView, confirmed, !placeLooksCovered,
                    !wentBeyondTheFrame, let near = partlyHiddenWhileLost
                {
                    if partial { image = try fullFrame() }
                    let read = readVisiblePart(of: template ?? given, index: index, in: image, near: near, following: false)
                    // Both ways round about equally well is no sign the sprite is there at all (on a
                    // real capture, halves of list glyphs matched a snail's either way at 0.85); and a
                    // part found is held to the colour test of a place found away from the track.
                    if read.orientation.facing != .unknown, let piece = read.piece, let box = read.orientation.position,
                        let t = template, let scale = templateScale,
                        colourAgrees(
                            (scale, t, TemplateMatcher.Match(x: box.x, y: box.y, score: 0), read.orientation.facing == .mirrored),
                            columns: piece, colour: configuration.templateColour == nil ? nil : try colourFrame())
                    {
                        result = read.orientation
                        readByPart = true
                    }
                }
            } else if let near = configuration.partlyHiddenNear {
                if partial { image = try fullFrame() }
                result = readVisiblePart(of: given, index: index, in: image, near: near, following: true).orientation
            } else {
                result = FrameOrientation(index: index, facing: .unknown, measured: true, reason: .notFound)
            }
        } else if template != nil {
            let before = lastPosition
            result = try classify(index: index, image: &image, partial: partial, colourFrame: colourFrame, fullFrame: fullFrame)
            // On probation the thing that mirrored must stay readable where it is: found away from
            // its last place, it was one of several lookalikes (calendar dates, list glyphs).
            let jumped = result.position.map { p in before.map { !p.overlaps($0) } ?? false } ?? false
            if result.facing == .unknown || jumped, let first = firstEvent, index - first.index <= configuration.probationFrames,
                !sawWholeFlip(since: first.index)
            {
                retractTrack(since: first.index - 1)
                result = FrameOrientation(index: index, facing: .canonical, measured: false)
            } else if result.position == nil, result.reason == .lost || result.reason == .outOfView, !wentBeyondTheFrame,
                let near = partlyHiddenWhileLost, let appearance = template
            {
                // As in template mode, a sprite lost is read by the part of its appearance in view: a
                // re-armed walk sends it back to where it began, and that may be beyond the card's edge.
                if partial { image = try fullFrame() }
                let read = readVisiblePart(of: appearance, index: index, in: image, near: near, following: false)
                if read.orientation.facing != .unknown {
                    result = read.orientation
                    readByPart = true
                }
            }
        } else {
            result = FrameOrientation(index: index, facing: .canonical, measured: false)
            if let p = pending, let previous {
                pending = nil
                if confirm(p, in: image) {
                    startTrack(p, eventFrame: previous)
                    let event = orientations[p.index]
                    let margin = (event.mirroredScore ?? -1) - (event.canonicalScore ?? -1)
                    if event.facing == .canonical || margin < configuration.eventMargin {
                        // The track's own reading does not explain the event frame clearly by the mirrored
                        // appearance: nothing mirrored in place (a pointer's notch in a coloured key made a
                        // colour-channel event that luma shows as a plain move), or a shape nearly its own
                        // mirror image turned or redrawn (gears).
                        retractTrack(since: p.index - 1)
                    } else {
                        result = try classify(
                            index: index, image: &image, partial: false, colourFrame: colourFrame, fullFrame: fullFrame)
                    }
                }
            }
            let colour = template == nil ? try colourFrame()?.distance : nil
            // A frame repeated (a recorder capturing at a fixed rate while nothing moves) has no
            // luma event and the search images of the one before.
            let repeated = template == nil && previous.map { image.hasSamePixels(as: $0) } == true
            // The appearance is still cut from the frame as it is.
            let search = template == nil ? (repeated ? previousSearch : nil) ?? SearchImages(image) : nil
            if template == nil, let previous, let search {
                if !repeated {
                    let before = previousSearch ?? SearchImages(previous)
                    var tested: Set<MirrorEventFinder.Component.Bounds> = []
                    pending = candidate(
                        index: index, old: previous, new: image, lookingIn: (before.sharp, search.sharp),
                        measuredIn: (before.smoothed, search.smoothed), atHalfThreshold: true, tested: &tested)
                    if pending == nil {
                        // Counted in the blurred frames too: a small sprite's turn under heavy coding
                        // noise may change no block enough in the sharp ones (its change scattered among
                        // the noise), while a turn that only its eyes show is seen only there. Without a
                        // look at half the threshold, which would double this look's cost on every
                        // frame of a capture without a sprite and found nothing more; and a group with
                        // the bounds of one tested in the sharp frames (tested there in these) is not
                        // tested again.
                        pending = candidate(
                            index: index, old: previous, new: image, lookingIn: (before.smoothed, search.smoothed),
                            measuredIn: nil, atHalfThreshold: false, tested: &tested)
                    }
                }
                if pending == nil, let colour, let previousColour {
                    // The colour channel's threshold is low already (its contrast is), and a lower one
                    // there took the edge of a snail half behind the card's edge for its appearance.
                    var colourTested: Set<MirrorEventFinder.Component.Bounds> = []
                    pending = candidate(
                        index: index, old: previous, new: image, lookingIn: (previousColour, colour), measuredIn: nil,
                        atHalfThreshold: false, tested: &colourTested)
                }
            }
            previousColour = template == nil ? colour : nil
            previousSearch = search
        }
        if let rect = result.position, let previous {
            result.unchangedFromPrevious = UnchangedFrames.isUnchanged(image, from: previous, in: rect)
        }
        // A frame partly decoded and then read whole still holds the part first decoded.
        if let previous {
            markCovered(&result, in: image, region: decoded, previous: previous)
        }
        orientations.append(result)
        previousRegion = decoded
        // A frame read by the part in view does not give the track a place: the whole sprite is
        // still searched for as while lost.
        lost = template != nil && (result.position == nil || readByPart)
        if !readByPart, result.facing != .unknown { lastWholeFacing = result.facing }
        framesLost = lost ? framesLost + 1 : 0
        beforePrevious = previous
        previous = image
    }

    /// Makes `result` unknown (`UnknownReason.covered`) when an edge moves across its sprite's box
    /// between the frame before and this one (`SlidingEdges`), and so the frame before (already
    /// recorded) when one moves across its box: each is read with the frame's own place, where
    /// both images hold the pixels (a partly decoded frame holds only `region`; nil: all of it).
    private mutating func markCovered(_ result: inout FrameOrientation, in image: GrayImage, region: PixelRect?, previous: GrayImage) {
        let both: PixelRect?
        switch (region, previousRegion) {
        case (nil, nil): both = nil
        case (let r?, nil), (nil, let r?): both = r
        case (let r?, let p?):
            guard let common = r.intersection(p) else { return }
            both = common
        }
        if result.facing != .unknown, let box = result.position,
            SlidingEdges.crossesBox(box, in: image, notIn: previous, within: both)
        {
            result.cover()
        }
        if let k = orientations.indices.last, orientations[k].index == result.index - 1, orientations[k].facing != .unknown,
            let box = orientations[k].position, SlidingEdges.crossesBox(box, in: previous, notIn: image, within: both)
        {
            orientations[k].cover()
        }
    }

    // MARK: Looking back

    /// After the last frame: a template-mode detector for the frames to read again, with the
    /// sprite's appearance at working scale, and how many frames (from the first) it must read.
    /// - Auto mode: the frames before the track started, with the appearance that started it. A first
    ///   flip too faint to start a track is then read like any later one: the track starts at the
    ///   first mirror event it can confirm, which may be a later flip.
    /// - Template mode: the frames read before the template's scale was last corrected (all unknown,
    ///   "template not found"), with the template at the corrected scale.
    ///
    /// Nil when there is nothing to read again.
    public var lookBack: (detector: MirrorDetector, frames: Int)? {
        guard let frames = lookBackFrames, let appearance = adaptive ? trackAppearance : template else { return nil }
        var c = Configuration(template: appearance, roi: configuration.roi)
        c.scales = [1]
        // The run's own bar: auto mode's frames before its track are read as strictly as the track.
        c.confidenceThreshold = configuration.confidenceThreshold
        // Template mode: read again like any template-mode pass, except that the place is searched
        // for again sooner (it has fewer frames to find the sprite in): a sprite partly hidden at the
        // start may be located on something else again.
        c.relocateWhileUnsure = !adaptive
        c.searchesOnlyNearLocated = adaptive
        c.readsWhereTheWalkLeads = !adaptive
        c.relocateFrames = 4
        // The colour template at the scale found, in working pixels, as the appearance is.
        if !adaptive, let scale = templateScale {
            c.templateColour = configuration.templateColour?.scaled(by: scale / configuration.templateResolution)
        }
        if !adaptive, let scale = templateScale {
            c.hueAxis = configuration.hueAxis
            c.templateHue = configuration.templateHue?.scaled(by: scale / configuration.templateResolution)
        }
        // In the frames before, the sprite is near where it was located (auto mode: where it first
        // mirrored). Elsewhere the appearance can match something else passably, as an appearance
        // cut with its backdrop does a patch of the same clouds.
        c.partlyHiddenNear = locatedAt.map(Self.walkRegion(around:))
        return (MirrorDetector(c), frames)
    }

    private var lookBackFrames: Int? {
        if adaptive {
            guard let first = firstEvent, first.index - 1 > 0 else { return nil }
            return first.index - 1
        }
        // Frames before the template was first located, when it was not located in the first one:
        // the sprite may have been there partly hidden (not when this is itself such a reading).
        let beforeLocated = configuration.partlyHiddenNear == nil ? firstLocatedIndex.flatMap { $0 > 0 ? $0 : nil } : nil
        return [framesBeforeRescale, beforeLocated].compactMap { $0 }.max()
    }

    /// Adopts what a `lookBack` detector read (its `orientations`, indexed as this detector's are):
    /// measured facings (or unknown, with its reason) instead
    /// of "no mirror event seen" (auto mode) or "template not found" (template mode).
    public mutating func adoptLookBack(_ readings: [FrameOrientation]) {
        guard let frames = lookBackFrames else { return }
        for o in readings where o.index < frames && orientations.indices.contains(o.index) {
            orientations[o.index] = o
        }
    }

    /// Makes every frame whose evidence leans toward the other orientation unknown
    /// (`LeaningFrames`): the last step, once every frame is read (a look-back adopted included).
    public mutating func markLeaningFrames() {
        orientations = LeaningFrames.marked(orientations)
    }

    /// Makes both frames of every change of facing across an unchanged frame unknown
    /// (`UnchangedFrames`): with `markLeaningFrames`, the last step.
    public mutating func markUnchangedFrames() {
        orientations = UnchangedFrames.marked(orientations)
    }

    // MARK: Auto mode: starting a track

    /// A frame as mirror events are looked for in it. Rain streaks redrawn beside a turning sprite
    /// join its changed blocks, leave its box sparse and add to the mirror's error as much as to the
    /// change's: both images are without their thin bright lines. Changed pixels are counted in
    /// `sharp`; a group of them is tested in `smoothed` (see `MirrorEventFinder.find`).
    struct SearchImages {
        let sharp: GrayImage
        let smoothed: GrayImage
        init(_ frame: GrayImage) {
            sharp = frame.withoutThinBrightLines()
            smoothed = sharp.boxBlurred()
        }
    }

    /// The first mirror event between `old` and `new` that could be a sprite turning in place: its
    /// old appearance is not mirror-symmetric and stood still, either way round, in the frame before `old`.
    /// `pair`: the images in which to look for the event (the two frames without their thin bright
    /// lines, blurred or not, or their colour channel); `smoothed`: those blurred, in which each
    /// group of changed pixels is tested (nil: in `pair`); `atHalfThreshold`: whether a pair in which
    /// nothing is found is looked at again with half the change threshold. Groups whose bounds are in
    /// `tested` are not tested again, and those tested are added to it.
    private func candidate(
        index: Int, old: GrayImage, new: GrayImage, lookingIn pair: MirrorEventFinder.Pair, measuredIn smoothed: MirrorEventFinder.Pair?,
        atHalfThreshold: Bool, tested: inout Set<MirrorEventFinder.Component.Bounds>
    ) -> Pending? {
        var parameters = configuration.finder
        parameters.looksAgainAtHalfThreshold = parameters.looksAgainAtHalfThreshold && atHalfThreshold
        let found = MirrorEventFinder.find(
            old: pair.old, new: pair.new, measuredIn: smoothed, roi: configuration.roi, parameters: parameters, skipping: tested)
        tested.formUnion(found.tested)
        for event in found.events {
            guard let rect = event.rect.clipped(width: old.width, height: old.height), rect.width >= 6, rect.height >= 6 else { continue }
            let appearance = SpriteTemplate(cutting: rect, from: old)
            guard appearance.contrast >= 4 else { continue }
            var oldUnchanged = false
            if let before = beforePrevious {
                oldUnchanged = UnchangedFrames.isUnchanged(old, from: before, in: rect)
                // Either way round: at the end of a one-frame flip the frame before `old` shows the
                // sprite unmirrored, `old` mirrored.
                let area = window(around: rect, reach: 4)
                let still = max(
                    TemplateMatcher(appearance).bestCoarseToFine(in: before, positions: area)?.score ?? -1,
                    TemplateMatcher(appearance.mirrored).bestCoarseToFine(in: before, positions: area)?.score ?? -1)
                guard still >= configuration.confirmThreshold else { continue }
                // Rain streaks fall past a turning sprite: the ring is compared without them.
                guard !surroundingsMoved(around: rect, frames: [before, old, new]) else { continue }
            }
            return Pending(index: index, event: event, appearance: appearance, oldUnchanged: oldUnchanged)
        }
        return nil
    }

    /// Whether the content around `rect` moved between any two consecutive `frames`
    /// (`SurroundingMotion`), each compared without its thin bright lines.
    private func surroundingsMoved(around rect: PixelRect, frames: [GrayImage]) -> Bool {
        let sharp = frames.map { $0.withoutThinBrightLines() }
        return zip(sharp, sharp.dropFirst()).contains {
            SurroundingMotion.moved(around: rect, from: $0, to: $1, parameters: configuration.surroundings)
        }
    }

    /// Whether the appearance is still near the event's place, either way round, in the next frame.
    private func confirm(_ p: Pending, in image: GrayImage) -> Bool {
        let rect = PixelRect(x: p.event.rect.x, y: p.event.rect.y, width: p.appearance.width, height: p.appearance.height)
        let area = window(around: rect, reach: max(6, rect.width / 4))
        let same = TemplateMatcher(p.appearance).bestCoarseToFine(in: image, positions: area)?.score ?? -1
        let flipped = TemplateMatcher(p.appearance.mirrored).bestCoarseToFine(in: image, positions: area)?.score ?? -1
        return max(same, flipped) >= configuration.confirmThreshold
    }

    /// Starts tracking at a confirmed event: the frame before it shows the canonical appearance by
    /// definition, and the event's frame is classified against it.
    private mutating func startTrack(_ p: Pending, eventFrame: GrayImage) {
        firstEvent = (p.index, p.event)
        trackAppearance = p.appearance
        groundMask = GroundMask(first: p.appearance)
        setTemplate(p.appearance)
        let rect = PixelRect(x: p.event.rect.x, y: p.event.rect.y, width: p.appearance.width, height: p.appearance.height)
        place(at: rect)
        locatedAt = rect
        if orientations.indices.contains(p.index - 1) {
            orientations[p.index - 1] = FrameOrientation(
                index: p.index - 1, facing: .canonical, canonicalScore: 1, mirroredScore: nil,
                position: rect, measured: true, confidence: 1)
            orientations[p.index - 1].unchangedFromPrevious = p.oldUnchanged
        }
        var image = eventFrame
        if orientations.indices.contains(p.index) {
            orientations[p.index] = classify(
                index: p.index, image: &image, partial: false, colourFrame: { nil }, fullFrame: { eventFrame })
        }
    }

    /// Whether the track read, from its first event on, the sprite mirrored and then the right way
    /// round again, in an unbroken run of at least `wholeFlipReadings` confident readings, each
    /// where the one before it was: a whole flip in place, the event's and its return, and the
    /// sprite still there after it. That ends the probation. A UI lookalike's track is read at one
    /// place, then another, or not at all: on a real capture, a calendar date read mirrored for two
    /// frames and back once, and was lost in the next.
    private func sawWholeFlip(since first: Int) -> Bool {
        guard let start = firstEvent?.event.rect, orientations.indices.contains(first) else { return false }
        var place = start, mirrored = false, returned = false, readings = 0
        for o in orientations[first...] {
            guard o.measured, o.facing != .unknown, let position = o.position, position.overlaps(place) else { return false }
            place = position
            readings += 1
            if o.facing == .mirrored { mirrored = true } else if mirrored { returned = true }
            if returned && readings >= configuration.wholeFlipReadings { return true }
        }
        return false
    }

    /// Gives up a track that did not hold through its probation: what started it was not a sprite
    /// (a sprite that just turned is still there, readable, in the frames after). Its frames go back
    /// to "no mirror event seen", and the search for one goes on.
    private mutating func retractTrack(since first: Int) {
        for i in max(0, first)..<orientations.count {
            orientations[i] = FrameOrientation(index: i, facing: .canonical, measured: false)
        }
        template = nil
        matchers = nil
        firstEvent = nil
        trackAppearance = nil
        groundMask = nil
        place(at: nil)
        searchCooldown = 0
        searchBackoff = 1
    }

    /// Puts the sprite at `box` (nil: nowhere) as a new start: no motion, no last score, no track
    /// quality and no surroundings carried over.
    private mutating func place(at box: PixelRect?) {
        lastPosition = box
        velocity = (0, 0)
        stepIsKnown = false
        walkIsSteady = false
        lastScore = nil
        trackQuality = nil
        qualityBeforeJump = nil
        surroundings = nil
        wentBeyondTheFrame = false
    }

    private mutating func setTemplate(_ t: SpriteTemplate) {
        template = t
        let weighted = t.weightedByAsymmetry
        matchers = (TemplateMatcher(weighted), TemplateMatcher(weighted.mirrored))
        wholeMatchers = (TemplateMatcher(t), TemplateMatcher(t.mirrored))
    }

    // MARK: Template mode: locating the template

    /// A place and scale the given template was found at.
    private typealias Location = (scale: Double, t: SpriteTemplate, match: TemplateMatcher.Match, mirrored: Bool)

    /// Finds a given template in a frame that shows it, choosing the scale; remembers the best miss.
    private mutating func locate(_ given: SpriteTemplate, in image: GrayImage, colourFrame: () throws -> ColourChannel.Views?) rethrows {
        guard searchCooldown <= 0 else {
            searchCooldown -= 1
            return
        }
        let (best, top, colour) = try bestLocation(of: given, in: image, colourFrame: colourFrame)
        guard let best else {
            if let top, top.match.score > (bestMiss?.score ?? -2) { bestMiss = (top.match.score, top.scale, bestMiss?.colour) }
            if let colour, colour > (bestMiss?.colour ?? -2) { bestMiss?.colour = colour }
            backOff()
            return
        }
        adopt(best, in: image)
        searchBackoff = 1
    }

    /// Over every scale, each scale's and orientation's best match; of those good enough
    /// (`acquireThreshold`), the best that agrees in colour (`colourAgrees`). Also the best match of
    /// all, good enough or not, and the best colour correlation of those turned down for their colour.
    private func bestLocation(
        of given: SpriteTemplate, in image: GrayImage, colourFrame: () throws -> ColourChannel.Views?
    ) rethrows -> (located: Location?, top: Location?, rejectedColour: Float?) {
        var found = locations(of: given, at: configuration.scales, in: image)
        if let coarse = found.max(by: { $0.match.score < $1.match.score })?.scale {
            found += locations(of: given, at: [-2, -1, 1, 2].map { coarse * Double.pow2($0, over: 24) }, in: image)
        }
        // Best first; of equal scores the one found first (smaller scale, canonical before mirrored).
        let ranked = found.enumerated().sorted { ($0.element.match.score, -$0.offset) > ($1.element.match.score, -$1.offset) }
            .map(\.element)
        // The colour frame is read once, and only when a candidate needs it.
        var colour: ColourChannel.Views?, colourRead = false, rejected: Float?
        for candidate in ranked where candidate.match.score >= configuration.acquireThreshold && isNearWhereLocated(candidate) {
            if !colourRead, configuration.templateColour != nil {
                colour = try colourFrame()
                colourRead = true
            }
            guard let agreement = colourAgreement(of: candidate, colour: colour), agreement < configuration.colourAgreement else {
                return (candidate, ranked.first, nil)
            }
            rejected = max(rejected ?? -1, agreement)
        }
        return (nil, ranked.first, rejected)
    }

    /// Each scale's and orientation's best matches over the whole frame, in the order of `scales`
    /// (canonical before mirrored). The searches are independent and run on all cores: the
    /// smallest scales are matched at every position of the frame, and a frame takes a second here.
    private func locations(of given: SpriteTemplate, at scales: [Double], in image: GrayImage) -> [Location] {
        let count = configuration.templateColour == nil ? 1 : 3
        let templates = scales.map { scaledTemplate(given, scale: $0, fitting: image) }
        var searches = [[Location]](repeating: [], count: 2 * scales.count)
        searches.withUnsafeMutableBufferPointer { results in
            nonisolated(unsafe) let results = results
            DispatchQueue.concurrentPerform(iterations: results.count) { k in
                guard let t = templates[k / 2] else { return }
                let mirrored = k % 2 == 1
                let corners = configuration.searchesOnlyNearLocated ? cornersNearWhereLocated(for: t) : nil
                results[k] = globalMatches(mirrored ? t.mirrored : t, in: image, count: count, within: corners)
                    .map { (scales[k / 2], t, $0, mirrored) }
            }
        }
        return searches.flatMap { $0 }
    }

    /// Tracks the template at a location from now on; a match below `sureThreshold` is provisional.
    private mutating func adopt(_ location: Location, in image: GrayImage) {
        templateScale = location.scale
        setTemplate(location.t)
        place(at: location.match.box(of: location.t))
        locatedAt = lastPosition
        if firstLocatedIndex == nil { firstLocatedIndex = orientations.count }
        confirmed = isSure(
            location.match.score, of: location.mirrored ? location.t.mirrored : location.t, at: location.match.box(of: location.t),
            in: image)
        bestTrackedScore = location.match.score
        relocateIn = configuration.relocateFrames
        relocateEvery = configuration.relocateFrames
    }

    /// Whether a match of `t` (at its scale and way round) at `box` makes its place sure: it reaches
    /// `sureThreshold`, and enough of the sprite's pieces match on their own (`SpritePieces`).
    /// A match that reaches the threshold without them is remembered (`bestMatchNotWhole`).
    private mutating func isSure(_ score: Float, of t: SpriteTemplate, at box: PixelRect, in image: GrayImage) -> Bool {
        guard score >= configuration.sureThreshold else { return false }
        guard let unmet = SpritePieces.unmet(configuration.wholeSprite, by: t, in: image, x: box.x, y: box.y) else { return true }
        if score > (bestMatchNotWhole?.score ?? -2) { bestMatchNotWhole = (score, unmet.requirement, unmet.matching) }
        return false
    }

    /// Template mode, while the template's place is provisional (never matched at `sureThreshold`):
    /// every 15, 30, 60 … frames the whole frame is searched again at every scale, and a match clearly
    /// better (by 0.05) than the tracked one's, elsewhere or at another scale, takes over. A sprite
    /// that started partly hidden beyond an edge is often first located on something else (a card
    /// corner, a cloud, a list icon), or on a part of it at a smaller scale; once in view, it is
    /// found. Then every frame read so far becomes unknown and is read again (`lookBack`), as after a
    /// scale correction.
    private mutating func relocate(
        _ given: SpriteTemplate, tracked: FrameOrientation, image: inout GrayImage, partial: Bool,
        colourFrame: () throws -> ColourChannel.Views?, fullFrame: () throws -> GrayImage
    ) rethrows -> Bool {
        let trackedScore = tracked.position == nil ? -1 : max(tracked.canonicalScore ?? -1, tracked.mirroredScore ?? -1)
        if tracked.position != nil {
            bestTrackedScore = max(bestTrackedScore ?? -1, trackedScore)
            if !confirmed, let t = template, let box = tracked.position {
                let mirrored = (tracked.mirroredScore ?? -1) > (tracked.canonicalScore ?? -1)
                confirmed = isSure(trackedScore, of: mirrored ? t.mirrored : t, at: box, in: image)
            }
        }
        guard !confirmed, configuration.relocateWhileUnsure else { return false }
        relocateIn -= 1
        guard relocateIn <= 0 else { return false }
        relocateEvery *= 2
        relocateIn = relocateEvery
        if partial { image = try fullFrame() }
        guard let found = try bestLocation(of: given, in: image, colourFrame: colourFrame).located,
            found.match.score >= trackedScore + 0.05
        else { return false }
        let box = found.match.box(of: found.t)
        if let here = tracked.position, let scale = templateScale, box.overlaps(here), abs(log2(found.scale / scale)) < 1.0 / 6 {
            return false
        }
        adopt(found, in: image)
        for i in orientations.indices where orientations[i].measured {
            orientations[i] = FrameOrientation(index: orientations[i].index, facing: .unknown, measured: true, reason: .notFound)
        }
        lastWholeFacing = nil
        framesBeforeRescale = orientations.count + 1
        return true
    }

    /// Where the whole of the template (auto mode: the track's appearance) matched nowhere (reading
    /// again a frame before it was located, or a frame in which a track is lost): a sprite partly hidden beyond an
    /// edge (the card's, a view's) is read by the part of it in view. Each orientation's left or
    /// right 50–100 % is searched for in `near`; the best part decides, as a whole sprite does, but
    /// only at the sure threshold (a part of a template matches more things than the whole of it),
    /// or at `partAtEdgeThreshold` for parts cut at an occluder edge, and the other orientation's
    /// best part is what it must beat. The box reported is the whole sprite's.
    /// - Parameter following: once a part is found, the next frames look for it near where it was
    ///   (reading again the frames before the template was located, where a part of another sprite
    ///   in the region can match as well). A lost track is searched for over all of `near` in every
    ///   frame: a part followed there confines the other orientation to where a wrong piece matched.
    private mutating func readVisiblePart(
        of given: SpriteTemplate, index: Int, in image: GrayImage, near: PixelRect, following: Bool
    ) -> (orientation: FrameOrientation, piece: Range<Int>?) {
        let weighted = given.weightedByAsymmetry
        // Where the whole sprite's box may start.
        let region =
            (following ? part : nil).map { last in
                let rx = max(6, last.box.width / 8) + 2 * last.misses, ry = max(4, last.box.height / 4) + last.misses
                return PixelRect(x: last.box.x - rx, y: last.box.y - ry, width: 2 * rx + 1, height: 2 * ry + 1)
            } ?? near
        // Found once, only for a frame that needs them.
        var found: OccluderEdges?
        func edges() -> OccluderEdges {
            let e =
                found
                ?? OccluderEdges(
                    in: image, rows: region.y..<(region.maxY + weighted.height), columns: region.x..<(region.maxX + weighted.width))
            found = e
            return e
        }
        var best = bestParts(of: weighted, in: image, region: region, at: nil)
        if let c = best[0]?.score, let m = best[1]?.score, max(c, m) >= configuration.sureThreshold,
            FrameOrientation.confidence(best: max(c, m), other: min(c, m)) < configuration.confidenceThreshold
        {
            // Both ways round about equally well: read again with each part's cut at an edge the rest
            // of the sprite can be hidden beyond. A car's rear half lines up on its mirror image's
            // rear half, one half-length on, where the front would be in plain view.
            best = bestParts(of: weighted, in: image, region: region, at: edges())
        }
        var threshold = configuration.sureThreshold
        if max(best[0]?.score ?? -1, best[1]?.score ?? -1) < threshold {
            let atEdges = bestParts(of: weighted, in: image, region: region, at: edges(), sure: configuration.partAtEdgeThreshold)
            if max(atEdges[0]?.score ?? -1, atEdges[1]?.score ?? -1) >= configuration.partAtEdgeThreshold {
                best = atEdges
                threshold = configuration.partAtEdgeThreshold
            }
        }
        let cs = best[0]?.score ?? -1, ms = best[1]?.score ?? -1
        guard max(cs, ms) >= threshold, let winner = cs >= ms ? best[0] : best[1] else {
            if following, let last = part { part = last.misses < configuration.nearbySearchFrames ? (last.box, last.misses + 1) : nil }
            return (FrameOrientation(index: index, facing: .unknown, measured: true, reason: .notFound), nil)
        }
        if following { part = (winner.box, 0) }
        let confidence = FrameOrientation.confidence(best: max(cs, ms), other: min(cs, ms))
        guard confidence >= configuration.confidenceThreshold else {
            return (
                FrameOrientation(
                    index: index, facing: .unknown, canonicalScore: cs, mirroredScore: ms, position: winner.box,
                    measured: true, confidence: confidence, reason: .ambiguous), winner.columns
            )
        }
        return (
            FrameOrientation(
                index: index, facing: cs >= ms ? .canonical : .mirrored, canonicalScore: cs, mirroredScore: ms, position: winner.box,
                measured: true, confidence: confidence), winner.columns
        )
    }

    /// For each orientation of `weighted` (canonical, mirrored), its best-matching left or right part
    /// whose box starts in `region`: at the widest of the part widths tried (100 % down to 50 % in
    /// eighths) at which either orientation matches at `sure` (default `sureThreshold`), else at the narrowest. Both
    /// are compared at that width: a narrower part of the wrong orientation often matches as well (a
    /// near-symmetric half). With `edges`, a part narrower than the sprite is placed only where its
    /// cut lies at one of them.
    private func bestParts(
        of weighted: SpriteTemplate, in image: GrayImage, region: PixelRect, at edges: OccluderEdges?, sure: Float? = nil
    )
        -> [(score: Float, box: PixelRect, columns: Range<Int>)?]
    {
        let orientations = [weighted, weighted.mirrored]
        var best: [(score: Float, box: PixelRect, columns: Range<Int>)?] = [nil, nil]
        let eighth = weighted.width / 8
        for keep in (0...4).map({ weighted.width - $0 * weighted.width / 8 }) where keep >= 4 {
            best = [nil, nil]
            for (o, t) in orientations.enumerated() {
                for columns in Set([0..<keep, (t.width - keep)..<t.width]) {
                    let piece = t.columns(columns)
                    guard piece.contrast >= 2 else { continue }
                    let starts = PixelRect(x: region.x + columns.lowerBound, y: region.y, width: region.width, height: region.height)
                    let areas =
                        edges.flatMap { edges in
                            keep < t.width
                                ? edges.partStarts(part: columns, slack: eighth + 2).compactMap {
                                    starts.intersection(PixelRect(x: $0.lowerBound, y: starts.y, width: $0.count, height: starts.height))
                                } : nil
                        } ?? [starts]
                    for area in areas {
                        guard let m = TemplateMatcher(piece).bestCoarseToFine(in: image, positions: area) else { continue }
                        if m.score > (best[o]?.score ?? -2) {
                            best[o] = (m.score, PixelRect(x: m.x - columns.lowerBound, y: m.y, width: t.width, height: t.height), columns)
                        }
                    }
                }
            }
            if max(best[0]?.score ?? -1, best[1]?.score ?? -1) >= (sure ?? configuration.sureThreshold) { break }
        }
        return best
    }

    /// A track lost (in template mode a sure one; in auto mode one past its probation): where the
    /// sprite's box may start while part of it is hidden
    /// (`readVisiblePart`), near its last place and near where the template was located. A re-armed
    /// walk jumps back to where it began, and a walk that began beyond the card's edge is partly
    /// hidden there again: the whole appearance matches nowhere, though half of it is plain to see.
    ///
    /// Near its last place only for `nearbySearchFrames` frames, as the whole sprite is: that window
    /// widens with every frame lost, and a track lost for good (a large thing tracked on a UI capture,
    /// then gone) had every later frame searched part by part over all of it (lab4 read at 1x: over
    /// ten minutes).
    private var partlyHiddenWhileLost: PixelRect? {
        guard let last = lastPosition else { return nil }
        let nearLast = framesLost <= configuration.nearbySearchFrames ? nearbyWindow(around: last) : nil
        let nearStart = locatedAt.map(Self.walkRegion(around:))
        guard let either = nearLast ?? nearStart else { return nil }
        return nearStart.map(either.union) ?? either
    }

    /// Where a sprite's box may start near `box`: sideways up to twice its width (a walk), up and down
    /// a quarter of its height (a bounce).
    private static func walkRegion(around box: PixelRect) -> PixelRect {
        let dy = max(4, box.height / 4)
        return PixelRect(x: box.x - 2 * box.width, y: box.y - dy, width: 4 * box.width + 1, height: 2 * dy + 1)
    }

    /// Reading again the frames before the template was located (`partlyHiddenNear`): the sprite is
    /// near where it was located then, so a place elsewhere is not it (a sprite partly hidden there
    /// is read by the part in view instead).
    private func isNearWhereLocated(_ candidate: Location) -> Bool {
        guard let corners = cornersNearWhereLocated(for: candidate.t) else { return true }
        return corners.overlaps(PixelRect(x: candidate.match.x, y: candidate.match.y, width: 1, height: 1))
    }

    /// The top-left corners of a `template`-sized box that overlaps, by at least a pixel, the region
    /// `partlyHiddenNear` spans with the template's size added; nil when there is no such region.
    /// With `searchesOnlyNearLocated` the only corners searched (a match elsewhere is turned down
    /// whatever its score).
    private func cornersNearWhereLocated(for template: SpriteTemplate) -> PixelRect? {
        guard let near = configuration.partlyHiddenNear else { return nil }
        return PixelRect(
            x: near.x - template.width + 1, y: near.y - template.height + 1,
            width: near.width + 2 * template.width - 1, height: near.height + 2 * template.height - 1)
    }

    /// Whether a located match agrees with the template in colour: true when there is nothing to
    /// compare (no colour template, no colour frame, a template without colour contrast).
    /// - Parameter columns: only these columns of the template, the way round it was matched (the part
    ///   of a sprite in view, `readVisiblePart`); all of them when nil.
    private func colourAgrees(_ candidate: Location, columns: Range<Int>? = nil, colour: ColourChannel.Views?) -> Bool {
        colourAgreement(of: candidate, columns: columns, colour: colour).map { $0 >= configuration.colourAgreement } ?? true
    }

    /// The colour channel's correlation with the template's at a located match (or with `columns` of
    /// it); nil when there is nothing to compare. Read along the template's hue (`hueAxis`), the
    /// place must also show that hue: the share of the template's level it reaches (a sprite dimmed
    /// to a third keeps a third; gray content has none, a green button under a brown snail less than
    /// none), and the lower of the two counts. Where the place shows no colour pattern to correlate
    /// (`colourPatternFloor`), the hue alone counts.
    private func colourAgreement(of candidate: Location, columns: Range<Int>? = nil, colour: ColourChannel.Views?) -> Float? {
        guard let colour else { return nil }
        let x = candidate.match.x + (columns?.lowerBound ?? 0), y = candidate.match.y
        let hue = colour.alongHue.flatMap { alongHue -> Float? in
            guard let t = placed(configuration.templateHue, as: candidate, columns: columns),
                let levels = t.hueLevels(in: alongHue, x: x, y: y), levels.template >= 4
            else { return nil }
            return levels.frame / levels.template
        }
        let pattern = placed(configuration.templateColour, as: candidate, columns: columns).flatMap { t -> Float? in
            guard t.contrast >= 8 else { return nil }
            if hue != nil,
                t.contrast(of: colour.distance, at: PixelRect(x: x, y: y, width: 1, height: 1)) < configuration.colourPatternFloor
            {
                return nil
            }
            return TemplateMatcher(t).score(in: colour.distance, x: x, y: y) ?? -1
        }
        guard let hue else { return pattern }
        return min(pattern ?? hue, hue)
    }

    /// A colour template (`templateColour`, `templateHue`) at a located match's scale and way round,
    /// or `columns` of it; nil when there is none or its size is not the match's.
    private func placed(_ given: SpriteTemplate?, as candidate: Location, columns: Range<Int>?) -> SpriteTemplate? {
        guard let given else { return nil }
        var t = given.scaled(by: candidate.scale / configuration.templateResolution)
        guard t.width == candidate.t.width, t.height == candidate.t.height else { return nil }
        if candidate.mirrored { t = t.mirrored }
        if let columns { t = t.columns(columns) }
        return t
    }

    /// Template mode, every `scaleCheckFrames` frames: whether another scale (from 2^(−1) to 2^(+1) of
    /// the one found) matches the sprite where it is clearly better (by 0.05), as when the template
    /// was first located on a part of a sprite that was coming into view from beyond an edge. Then
    /// the template changes scale, and every frame read so far becomes unknown ("template not
    /// found"): read with a template of the wrong size, none of them is trusted. After the last
    /// frame they are read again at the corrected scale (`lookBack`).
    private mutating func recheckScale(
        _ given: SpriteTemplate, at position: PixelRect, image: inout GrayImage, partial: Bool, fullFrame: () throws -> GrayImage
    ) rethrows -> Bool {
        framesSinceScaleCheck += 1
        guard framesSinceScaleCheck >= configuration.scaleCheckFrames, let scale = templateScale else { return false }
        framesSinceScaleCheck = 0
        if partial { image = try fullFrame() }
        let cx = position.x + position.width / 2, cy = position.y + position.height / 2
        let smallest = configuration.scales.min() ?? 1, largest = configuration.scales.max() ?? 1
        func best(at s: Double) -> (score: Float, template: SpriteTemplate, match: TemplateMatcher.Match)? {
            guard let t = scaledTemplate(given, scale: s, fitting: image) else { return nil }
            let reach = max(6, t.width / 3)
            let area = PixelRect(x: cx - t.width / 2 - reach, y: cy - t.height / 2 - reach, width: 2 * reach + 1, height: 2 * reach + 1)
            var found: (score: Float, template: SpriteTemplate, match: TemplateMatcher.Match)?
            for candidate in [t, t.mirrored] {
                if let m = TemplateMatcher(candidate).bestCoarseToFine(in: image, positions: area), m.score > (found?.score ?? -2) {
                    found = (m.score, t, m)
                }
            }
            return found
        }
        guard let now = best(at: scale) else { return false }
        var winner: (scale: Double, found: (score: Float, template: SpriteTemplate, match: TemplateMatcher.Match))?
        for k in [-6, -4, -2, 2, 4, 6] {
            let s = scale * Double.pow2(k, over: 6)
            guard s >= smallest * 0.99, s <= largest * 1.01, let found = best(at: s), found.score > (winner?.found.score ?? now.score)
            else { continue }
            winner = (s, found)
        }
        guard let winner, winner.found.score >= configuration.acquireThreshold, winner.found.score >= now.score + 0.05 else { return false }
        templateScale = winner.scale
        setTemplate(winner.found.template)
        place(at: winner.found.match.box(of: winner.found.template))
        for i in orientations.indices where orientations[i].measured {
            orientations[i] = FrameOrientation(index: orientations[i].index, facing: .unknown, measured: true, reason: .notFound)
        }
        lastWholeFacing = nil
        // This frame too: the caller records it as unknown.
        framesBeforeRescale = orientations.count + 1
        return true
    }

    /// The given template at `scale` (in capture pixels) resampled to working pixels, when it can be
    /// matched in `image`: at least 6 pixels each way and `minimumTemplatePixels` in all, smaller
    /// than the image, with some contrast.
    private func scaledTemplate(_ given: SpriteTemplate, scale: Double, fitting image: GrayImage) -> SpriteTemplate? {
        let t = given.scaled(by: scale / configuration.templateResolution)
        guard t.width >= 6, t.height >= 6, t.width < image.width, t.height < image.height, t.contrast >= 2,
            t.weights.reduce(0, +) >= configuration.minimumTemplatePixels
        else { return nil }
        return t
    }

    /// After a failed whole-frame search, wait 1, 2, 4 … 128 frames before the next one: a sprite that
    /// is not there costs little, and one that comes back soon is found soon.
    private mutating func backOff() {
        searchCooldown = searchBackoff
        searchBackoff = min(128, searchBackoff * 2)
    }

    /// Coarse-to-fine search over the whole region of interest (every position of a reduced image
    /// and template, then the best few candidates refined at full resolution): the best `count`
    /// matches whose boxes do not overlap by half, best first (of equal scores the one found first),
    /// places a template could be at, for a test beyond the score (colour, the whole appearance).
    private func globalMatches(
        _ template: SpriteTemplate, in image: GrayImage, count: Int, within corners: PixelRect? = nil
    ) -> [TemplateMatcher.Match] {
        let whole =
            configuration.roi?.clipped(width: image.width, height: image.height)
            ?? PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        guard let area = corners.map({ whole.intersection($0) }) ?? whole else { return [] }
        var top: [TemplateMatcher.Match] = []
        func keep(_ m: TemplateMatcher.Match) {
            guard top.count < count || m.score > top[top.count - 1].score else { return }
            if let near = top.firstIndex(where: { abs($0.x - m.x) * 2 < template.width && abs($0.y - m.y) * 2 < template.height }) {
                guard m.score > top[near].score else { return }
                top.remove(at: near)
            }
            top.insert(m, at: top.firstIndex { $0.score < m.score } ?? top.count)
            if top.count > count { top.removeLast() }
        }
        let factor = max(1, min(template.width, template.height) / 12)
        let fine = TemplateMatcher(template)
        guard factor > 1 else {
            fine.forEachScore(in: image, positions: area) { x, y, s in keep(TemplateMatcher.Match(x: x, y: y, score: s)) }
            return top
        }
        let small = image.downsampled(by: factor)
        let coarse = TemplateMatcher(template.scaled(by: 1 / Double(factor)))
        let smallArea = area.downscaled(by: factor)
        var candidates: [TemplateMatcher.Match] = []
        coarse.forEachScore(in: small, positions: smallArea) { x, y, s in
            if candidates.count < 8 || s > candidates[candidates.count - 1].score {
                candidates.append(TemplateMatcher.Match(x: x, y: y, score: s))
                candidates.sort { $0.score > $1.score }
                if candidates.count > 8 { candidates.removeLast() }
            }
        }
        for c in candidates {
            let window = PixelRect(x: c.x * factor - factor, y: c.y * factor - factor, width: 3 * factor + 1, height: 3 * factor + 1)
            if let m = fine.best(in: image, positions: window) { keep(m) }
        }
        return top
    }

    /// Both orientations searched over the whole frame (or region of interest): for each, the best of
    /// its few best places where the whole appearance is there too (`wholeAppearance`). The tracking
    /// score weighs the pixels that tell the orientations apart; on a small sprite these are a
    /// handful (a car's window edge, its headlight), and somewhere in a frame a rain streak beside a
    /// dark blob, or a card's corner, puts bright and dark pixels where they fall.
    private func searchEverywhere(
        _ matchers: (canonical: TemplateMatcher, mirrored: TemplateMatcher),
        in image: GrayImage
    ) -> (canonical: TemplateMatcher.Match?, mirrored: TemplateMatcher.Match?) {
        func best(_ matcher: TemplateMatcher, mirrored: Bool) -> TemplateMatcher.Match? {
            globalMatches(matcher.template, in: image, count: 3).first {
                isLikeTheTrackedSprite($0) && wholeAppearance(at: $0, mirrored: mirrored, in: image) >= configuration.wholeAppearance
            }
        }
        return (best(matchers.canonical, mirrored: false), best(matchers.mirrored, mirrored: true))
    }

    /// Whether a whole-frame match could be the tracked sprite: at its last place, or matching about
    /// as well as it did there (`jumpAllowance`).
    private func isLikeTheTrackedSprite(_ match: TemplateMatcher.Match) -> Bool {
        guard let quality = trackQuality, let t = template else { return true }
        if let last = lastPosition, match.box(of: t).overlaps(last) { return true }
        return match.score >= quality - configuration.jumpAllowance
    }

    /// The plain NCC of the whole appearance (the template's own weights, every pixel of the sprite)
    /// at a match of one orientation; 1 when there is no appearance to check.
    private func wholeAppearance(at match: TemplateMatcher.Match, mirrored: Bool, in image: GrayImage) -> Float {
        guard let whole = mirrored ? wholeMatchers?.mirrored : wholeMatchers?.canonical else { return 1 }
        return whole.score(in: image, x: match.x, y: match.y) ?? -1
    }

    /// `wholeAppearance` at the better of a canonical and a mirrored match (canonical when they tie);
    /// nil when there is neither.
    private func wholeAppearanceOfBetter(_ c: TemplateMatcher.Match?, _ m: TemplateMatcher.Match?, in image: GrayImage) -> Float? {
        let mirrored = (m?.score ?? -1) > (c?.score ?? -1)
        return (mirrored ? m : c).map { wholeAppearance(at: $0, mirrored: mirrored, in: image) }
    }

    /// Template mode: whole-frame matches away from where the sprite was last seen dropped when
    /// their colour disagrees with the template's. Found elsewhere, a match is held to the standard of
    /// locating the template (`colourAgrees`): on real screens a sprite's luma correlates with text
    /// and icons. A match overlapping the last place is the tracked sprite, whatever its colour reads.
    private func agreeingInColour(
        _ found: (canonical: TemplateMatcher.Match?, mirrored: TemplateMatcher.Match?), colourFrame: () throws -> ColourChannel.Views?
    ) rethrows -> (canonical: TemplateMatcher.Match?, mirrored: TemplateMatcher.Match?) {
        guard configuration.templateColour != nil, let scale = templateScale, let t = template else { return found }
        func elsewhere(_ m: TemplateMatcher.Match?) -> Bool {
            guard let m else { return false }
            guard let last = lastPosition else { return true }
            return !m.box(of: t).overlaps(last)
        }
        guard elsewhere(found.canonical) || elsewhere(found.mirrored) else { return found }
        let colour = try colourFrame()
        func agrees(_ m: TemplateMatcher.Match?, mirrored: Bool) -> TemplateMatcher.Match? {
            guard let m else { return nil }
            return !elsewhere(m) || colourAgrees((scale, t, m, mirrored), colour: colour) ? m : nil
        }
        return (agrees(found.canonical, mirrored: false), agrees(found.mirrored, mirrored: true))
    }

    // MARK: Tracking

    /// The search window around a position: as far as the sprite moved last time plus a margin,
    /// either way (a turn reverses the motion), and at least a quarter of its width (it may start
    /// walking quickly from rest).
    private func window(around r: PixelRect) -> PixelRect {
        let rx = min(max(max(6, r.width / 4), abs(velocity.dx) + 6), max(8, r.width / 2))
        let ry = min(max(4, abs(velocity.dy) + 4), max(4, r.height / 4))
        return PixelRect(x: r.x - rx, y: r.y - ry, width: 2 * rx + 1, height: 2 * ry + 1)
    }

    /// Where a sprite lost `framesLost` frames ago may be now: its last place, moved on at its last
    /// speed, and a margin that grows with the frames lost.
    private func nearbyWindow(around r: PixelRect) -> PixelRect {
        let n = framesLost + 1
        return window(around: PixelRect(x: r.x + velocity.dx * n, y: r.y + velocity.dy * n, width: r.width, height: r.height), after: n)
    }

    /// Around a place the sprite was `frames` frames ago: a quarter of its size, and more each frame.
    private func window(around r: PixelRect, after frames: Int) -> PixelRect {
        let rx = max(6, r.width / 4) + 2 * frames, ry = max(4, r.height / 4) + frames
        return PixelRect(x: r.x - rx, y: r.y - ry, width: 2 * rx + 1, height: 2 * ry + 1)
    }

    /// For `nearbySearchFrames` frames after a whole-frame search moved the sprite away from where it
    /// was, that place is matched again too, and if the sprite is found there (at `acquireThreshold`)
    /// and its whole appearance matches better there, it is taken back; returns whether it was. A
    /// frame the compression smeared (both orientations ghosted over each other as a flip is
    /// encoded) loses the sprite for one frame; the search then finds a card's corner that correlates
    /// passably and would follow that still thing to the end.
    private mutating func returnIfBetterBehind(
        image: GrayImage, matchers: (canonical: TemplateMatcher, mirrored: TemplateMatcher),
        c: inout TemplateMatcher.Match?, m: inout TemplateMatcher.Match?
    ) -> Bool {
        guard let behind = leftBehind else { return false }
        guard behind.frames < configuration.nearbySearchFrames else {
            leftBehind = nil
            return false
        }
        let area = window(around: behind.box, after: behind.frames + 1)
        let bc = matchers.canonical.bestCoarseToFine(in: image, positions: area)
        let bm = matchers.mirrored.bestCoarseToFine(in: image, positions: area)
        // Which place shows the sprite is decided by the whole appearance: a corner can match the
        // pixels that tell the orientations apart as well as a dim sprite does, not all of it.
        let back = max(bc?.score ?? -1, bm?.score ?? -1)
        if back >= configuration.acquireThreshold,
            (wholeAppearanceOfBetter(bc, bm, in: image) ?? -1) > (wholeAppearanceOfBetter(c, m, in: image) ?? -1)
        {
            (c, m) = (bc, bm)
            leftBehind = nil
            return true
        }
        leftBehind = (behind.box, behind.frames + 1)
        return false
    }

    /// Where in the window the sprite's whole appearance is, when the better match near the last
    /// place shows little of it and another place in the window shows it markedly better; nil
    /// otherwise. The template is matched with weights on the pixels that tell the orientations
    /// apart, and on a small sprite those can line up on a piece of it (a car's headlight one
    /// car-length on, the rest of the box on sky), which tracking would then follow; both
    /// orientations are then read at the place that shows the whole sprite. A sprite partly behind
    /// an edge shows its whole appearance nowhere, and is read as before.
    private func wholeSpritePlace(c: TemplateMatcher.Match?, m: TemplateMatcher.Match?, area: PixelRect, in image: GrayImage)
        -> (x: Int, y: Int)?
    {
        guard let wholeMatchers, let here = wholeAppearanceOfBetter(c, m, in: image), here < configuration.wholeAppearance else {
            return nil
        }
        let candidates = [
            wholeMatchers.canonical.bestCoarseToFine(in: image, positions: area),
            wholeMatchers.mirrored.bestCoarseToFine(in: image, positions: area)
        ]
        guard let there = candidates.compactMap({ $0 }).max(by: { $0.score < $1.score }), there.score >= configuration.wholeAppearance,
            there.score - here >= configuration.wholeAppearanceMargin
        else { return nil }
        return (there.x, there.y)
    }

    /// The two orientations read at one place, when their best matches in the window lie apart
    /// (`apartPixels`) and one of those places shows its orientation's whole appearance markedly
    /// better (`wholeAppearanceMargin`): the sprite is there, and the other orientation is matched
    /// within `apartPixels` of it. A sprite is at one place; the template weighted by asymmetry, a
    /// few pixels off, lines up with its mirror image too (a car's rear on a mirrored car's front at
    /// 0.88, while the mirrored car matched at 0.91 where it was, its whole appearance 0.93 against
    /// 0.34), and the frame came out ambiguous. Nil when the matches agree on the place or neither
    /// place stands out.
    private func readAtOnePlace(
        c: TemplateMatcher.Match?, m: TemplateMatcher.Match?, matchers: (canonical: TemplateMatcher, mirrored: TemplateMatcher),
        in image: GrayImage
    ) -> (canonical: TemplateMatcher.Match?, mirrored: TemplateMatcher.Match?)? {
        let apart = configuration.apartPixels
        guard let c, let m, abs(c.x - m.x) > apart || abs(c.y - m.y) > apart else { return nil }
        let wc = wholeAppearance(at: c, mirrored: false, in: image), wm = wholeAppearance(at: m, mirrored: true, in: image)
        guard abs(wc - wm) >= configuration.wholeAppearanceMargin, max(wc, wm) >= configuration.wholeAppearance else { return nil }
        let (place, other) = wc > wm ? (c, matchers.mirrored) : (m, matchers.canonical)
        let near = other.bestCoarseToFine(
            in: image, positions: window(around: PixelRect(x: place.x, y: place.y, width: 1, height: 1), reach: apart))
        return wc > wm ? (c, near) : (near, m)
    }

    /// The two orientations read at one place, where the sprite's walk leads (its last place plus
    /// its last step), when the walk is steady (the last two steps the same), the place is sure
    /// (`confirmed`), the frame is otherwise read with less than `walkReadingConfidence`, and only
    /// one of their best matches lies there (within a pixel). Nil otherwise.
    ///
    /// A near-symmetric sprite mirrored is nearly its unmirrored self a few pixels over: a drop's
    /// one mirrored frame in a B-frame at crf 33 matched its template 2 px behind the walk at 0.83,
    /// and its mirror image where the walk led at 0.73; read there, the template matched at −0.21.
    /// Why each condition (measured, docs/decisions.md): with a single step, the frame after a
    /// snail's flip (case 46), its step thrown off by the blended frame before, was read mirrored;
    /// on a provisional track, the reading moved the track until the snail's template was made sure
    /// on a ringed circle of a real capture; in auto mode, whose appearance is cut with the ground
    /// around the sprite, a frame blended halfway between the facings (case 133) was read at 0.64.
    private func readWhereTheWalkLeads(
        c: TemplateMatcher.Match?, m: TemplateMatcher.Match?, last: PixelRect,
        matchers: (canonical: TemplateMatcher, mirrored: TemplateMatcher), in image: GrayImage
    ) -> (canonical: TemplateMatcher.Match?, mirrored: TemplateMatcher.Match?)? {
        guard configuration.readsWhereTheWalkLeads, !adaptive, confirmed, walkIsSteady, let c, let m,
            FrameOrientation.confidence(best: max(c.score, m.score), other: min(c.score, m.score))
                < configuration.walkReadingConfidence
        else { return nil }
        let x = last.x + velocity.dx, y = last.y + velocity.dy
        func isThere(_ match: TemplateMatcher.Match) -> Bool { abs(match.x - x) <= 1 && abs(match.y - y) <= 1 }
        guard isThere(c) != isThere(m) else { return nil }
        let (place, other) = isThere(c) ? (c, matchers.mirrored) : (m, matchers.canonical)
        guard place.score >= configuration.presenceThreshold else { return nil }
        let there = other.bestCoarseToFine(
            in: image, positions: window(around: PixelRect(x: place.x, y: place.y, width: 1, height: 1), reach: 1))
        return isThere(c) ? (c, there) : (there, m)
    }

    private func window(around r: PixelRect, reach: Int) -> PixelRect {
        PixelRect(x: r.x - reach, y: r.y - reach, width: 2 * reach + 1, height: 2 * reach + 1)
    }

    /// Matches the appearance and its mirror image near the last position, then, if neither is
    /// there, over the whole frame; decides the facing and its confidence.
    private mutating func classify(
        index: Int, image: inout GrayImage, partial: Bool, colourFrame: () throws -> ColourChannel.Views?,
        fullFrame: () throws -> GrayImage
    ) rethrows -> FrameOrientation {
        guard let matchers, let t = template else {
            return FrameOrientation(index: index, facing: .unknown, measured: true, reason: .lost)
        }
        var c: TemplateMatcher.Match?, m: TemplateMatcher.Match?
        if let last = lastPosition, !lost, let read = readAtTheFramesEdge(index: index, last: last, matchers: matchers, in: image) {
            return read
        }
        if let last = lastPosition, !lost {
            let area = window(around: last)
            c = matchers.canonical.bestCoarseToFine(in: image, positions: area)
            m = matchers.mirrored.bestCoarseToFine(in: image, positions: area)
            if let place = wholeSpritePlace(c: c, m: m, area: area, in: image) {
                c = matchers.canonical.score(in: image, x: place.x, y: place.y).map {
                    TemplateMatcher.Match(x: place.x, y: place.y, score: $0)
                }
                m = matchers.mirrored.score(in: image, x: place.x, y: place.y).map {
                    TemplateMatcher.Match(x: place.x, y: place.y, score: $0)
                }
            } else if let (canonical, mirrored) = readAtOnePlace(c: c, m: m, matchers: matchers, in: image) {
                (c, m) = (canonical, mirrored)
            }
        } else if let last = lastPosition, framesLost <= configuration.nearbySearchFrames {
            // The window grows with the frames lost; beyond the last place, a match is held to the
            // standard of a whole-frame one (a page sliding back brings lookalikes past it).
            c = matchers.canonical.bestCoarseToFine(in: image, positions: nearbyWindow(around: last)).flatMap {
                isLikeTheTrackedSprite($0) ? $0 : nil
            }
            m = matchers.mirrored.bestCoarseToFine(in: image, positions: nearbyWindow(around: last)).flatMap {
                isLikeTheTrackedSprite($0) ? $0 : nil
            }
            // Lost, the sprite is found again only where its whole appearance is: near its old place
            // a piece of the backdrop can line up with the pixels that tell its orientations apart.
            if let whole = wholeAppearanceOfBetter(c, m, in: image), whole < configuration.wholeAppearance {
                c = nil
                m = nil
            }
            // A sprite that jumped away: the other way round, a piece of it lines up with its old
            // place (a car's headlight with its mirror image's), so that match must agree in colour.
            if configuration.templateColour != nil, let scale = templateScale,
                let facing = lastWholeFacing
            {
                let colour = try colourFrame()
                if facing == .canonical, let found = m, !colourAgrees((scale, t, found, true), colour: colour) { m = nil }
                if facing == .mirrored, let found = c, !colourAgrees((scale, t, found, false), colour: colour) { c = nil }
            }
        }
        var threshold = configuration.presenceThreshold
        let nearBest = max(c?.score ?? -1, m?.score ?? -1), nearOther = min(c?.score ?? -1, m?.score ?? -1)
        let drop = adaptive ? configuration.autoScoreDrop : configuration.scoreDrop
        let dropped = lastScore.map { nearBest < $0 - drop } ?? false
        // Something slid over the sprite's place (a page, the keyboard): it is hidden there, and
        // whatever the frame shows elsewhere that resembles it is not it.
        // Worked out only when a search elsewhere would follow, not on every tracked frame.
        let recheck = sinceFoundAgain.map { $0 > 0 && $0 % configuration.recheckEvery == 0 } ?? false
        let poor =
            nearBest < configuration.acquireThreshold || dropped || recheck
            || FrameOrientation.confidence(best: nearBest, other: nearOther) < configuration.confidenceThreshold
        let covered =
            (nearBest < threshold || (searchCooldown == 0 && poor)) && framesLost <= configuration.coveredFrames
            && isCovered(in: image)
        placeLooksCovered = covered
        if nearBest >= threshold, searchCooldown == 0 || recheck, !covered, poor {
            // Found, but poorly, ambiguously or clearly worse than in the last frame: after a jump or a
            // gap in the recording the sprite may be beyond the window, and the window holds only a
            // piece of it (or of its mirror image). Look everywhere too.
            if partial { image = try fullFrame() }
            // Each orientation keeps its better match, near or anywhere: after a jump the window may
            // hold a piece of the sprite one way round while the whole of it is elsewhere the other way.
            let anywhere = try agreeingInColour(searchEverywhere(matchers, in: image), colourFrame: colourFrame)
            if (anywhere.canonical?.score ?? -1) > (c?.score ?? -1) { c = anywhere.canonical }
            if (anywhere.mirrored?.score ?? -1) > (m?.score ?? -1) { m = anywhere.mirrored }
        }
        if max(c?.score ?? -1, m?.score ?? -1) < threshold {
            threshold = configuration.acquireThreshold
            if searchCooldown > 0 || covered {
                searchCooldown = max(0, searchCooldown - 1)
                c = nil
                m = nil
            } else {
                if partial { image = try fullFrame() }
                (c, m) = try agreeingInColour(searchEverywhere(matchers, in: image), colourFrame: colourFrame)
                if max(c?.score ?? -1, m?.score ?? -1) < threshold { backOff() } else { searchBackoff = 1 }
            }
        }
        let returned = returnIfBetterBehind(image: image, matchers: matchers, c: &c, m: &m)
        // A sprite is at one place: an orientation no search kept (its matches elsewhere failed the
        // whole-appearance or colour tests) is read where the other one was found. Read against
        // nothing, a frame is as sure as any: a drop next to the card's edge just after its flip
        // was read mirrored at 0.83 with nothing unmirrored to compare.
        if (c == nil) != (m == nil), let found = c ?? m {
            let area = window(around: PixelRect(x: found.x, y: found.y, width: 1, height: 1), reach: configuration.apartPixels)
            if c == nil {
                c = matchers.canonical.bestCoarseToFine(in: image, positions: area)
            } else {
                m = matchers.mirrored.bestCoarseToFine(in: image, positions: area)
            }
        }
        if !lost, !returned, let last = lastPosition,
            let (canonical, mirrored) = readWhereTheWalkLeads(c: c, m: m, last: last, matchers: matchers, in: image)
        {
            (c, m) = (canonical, mirrored)
        }
        // A sprite that walked beyond the frame's edge is found again only wholly inside it: a match
        // against the edge is where a template that must fit whole is pinned while the sprite is
        // still partly beyond, and its mirror image, shifted back, explains the part in view better.
        if wentBeyondTheFrame {
            func againstTheEdge(_ match: TemplateMatcher.Match?) -> Bool {
                guard let box = match?.box(of: t) else { return false }
                return box.x <= 0 || box.y <= 0 || box.maxX >= image.width || box.maxY >= image.height
            }
            if againstTheEdge(c) { c = nil }
            if againstTheEdge(m) { m = nil }
        }
        let cs = c?.score ?? -1, ms = m?.score ?? -1
        // Matched clearly worse than in the frame before: something covers part of the sprite, or
        // what was found is not it (see `autoScoreDrop`).
        let fellFromTheFrameBefore = lastScore.map { max(cs, ms) < $0 - drop } ?? false
        lastScore = max(cs, ms) >= threshold ? max(cs, ms) : nil
        guard max(cs, ms) >= threshold, let winner = cs >= ms ? c : m else {
            let atEdge = lastPosition.map { $0.x <= 1 || $0.y <= 1 || $0.maxX >= image.width - 1 || $0.maxY >= image.height - 1 } ?? false
            return FrameOrientation(
                index: index, facing: .unknown, canonicalScore: c?.score, mirroredScore: m?.score,
                measured: true, reason: atEdge ? .outOfView : .lost)
        }
        let position = winner.box(of: t)
        wentBeyondTheFrame = false
        if lost {
            // Only a place once sure: before that, searching again is `relocate`'s (it may move the
            // template, and reads every frame before again).
            sinceFoundAgain = confirmed ? 0 : nil
        } else if let n = sinceFoundAgain {
            sinceFoundAgain = max(cs, ms) >= configuration.sureThreshold || n >= configuration.recheckFrames ? nil : n + 1
        }
        let nearLast = lastPosition.map { !lost && !returned && position.overlaps($0) } ?? false
        // Found somewhere new: what was around its old place says nothing about it now.
        if !nearLast { surroundings = nil }
        if let last = lastPosition, !returned, !position.overlaps(last) { leftBehind = (last, 0) }
        if let last = lastPosition, !lost, !returned {
            let step = (dx: position.x - last.x, dy: position.y - last.y)
            walkIsSteady = stepIsKnown && step == velocity
            velocity = step
            stepIsKnown = true
        } else {
            velocity = (0, 0)
            stepIsKnown = false
            walkIsSteady = false
        }
        lastPosition = position
        let facing: SpriteFacing = cs >= ms ? .canonical : .mirrored
        let confidence = FrameOrientation.confidence(best: max(cs, ms), other: min(cs, ms))
        guard confidence >= configuration.confidenceThreshold else {
            let faint = t.contrast(of: image, at: position) < configuration.lowContrast
            return FrameOrientation(
                index: index, facing: .unknown, canonicalScore: cs, mirroredScore: ms, position: position,
                measured: true, confidence: confidence, reason: faint ? .lowContrast : .ambiguous)
        }
        let best = max(cs, ms)
        let asWellAsTracked = nearLast && best >= (trackQuality ?? best) - 0.05
        // Whether the track holds the sprite: no longer once it jumps, again once it matches as well
        // as it was tracked before the jump (what it follows meanwhile lowers `trackQuality`).
        if !nearLast {
            if qualityBeforeJump == nil { qualityBeforeJump = trackQuality }
        } else if let before = qualityBeforeJump, best >= before - 0.05 {
            qualityBeforeJump = nil
        }
        if nearLast {
            // The surroundings are kept from a frame that shows the sprite as well as it is tracked (a
            // page sliding over it first covers a part of it, and the match falls), in template mode
            // only: there the box is the whole sprite, while auto mode's appearance may be the part of
            // it a flip changes (a drop's eyes), whose ring holds the rest of the sprite.
            if !adaptive, asWellAsTracked { surroundings = Self.surroundings(of: position, in: image) }
            trackQuality = trackQuality.map { 0.9 * $0 + 0.1 * best } ?? best
        }
        if adaptive {
            // Learnt only once the track has passed its probation, and where it was: a UI lookalike's
            // track, with the pixels that disagree with it weighed out, kept matching and survived.
            // And not from a frame that matched clearly worse than the one before, nor from what a
            // track that jumped follows until it matches as it did: beside a page's sliding edge a
            // track took in the part of a drop beside it and things on the page, and then read the
            // drop itself mirrored, confidently, once the page was gone.
            let settled = firstEvent.map { index - $0.index > configuration.probationFrames } ?? false
            if nearLast, qualityBeforeJump == nil, !fellFromTheFrameBefore {
                adapt(to: image, at: position, facing: facing, learningTheGround: settled)
            }
        }
        return FrameOrientation(
            index: index, facing: facing, canonicalScore: cs, mirroredScore: ms, position: position,
            measured: true, confidence: confidence)
    }

    /// A tracked sprite whose walk (its last step, under a quarter of its size: not a re-armed jump
    /// back) leads beyond the frame's edge: each orientation's part
    /// that lies inside the frame, both at the same place, where the walk leads (within 2 pixels);
    /// nil when the walk does not lead there. Matched only where the whole of it fits, a sprite
    /// walking out of the frame is pinned against the edge while it slides beyond, and its mirror
    /// image shifted back explains the part in view better: on real captures with a snail laid over
    /// them, its near-symmetric shell read mirrored at 0.65–0.73 made false flips and turns as it
    /// left. Under half of it in view, the frame is out of view, and the sprite is not read by a
    /// part (`readVisiblePart`) until it is found whole again (`wentBeyondTheFrame`).
    private mutating func readAtTheFramesEdge(
        index: Int, last: PixelRect, matchers: (canonical: TemplateMatcher, mirrored: TemplateMatcher), in image: GrayImage
    ) -> FrameOrientation? {
        // In template mode only on a place made sure: a provisional place may be something else at
        // the edge (a month header's chevron), which `relocate` and `recheckScale` must still replace.
        guard stepIsKnown, adaptive || confirmed, abs(velocity.dx) <= last.width / 4, abs(velocity.dy) <= last.height / 4 else {
            return nil
        }
        let box = PixelRect(x: last.x + velocity.dx, y: last.y + velocity.dy, width: last.width, height: last.height)
        guard box.x < 0 || box.y < 0 || box.maxX > image.width || box.maxY > image.height else { return nil }
        let left = max(0, -box.x), right = min(box.width, image.width - box.x)
        let top = max(0, -box.y), bottom = min(box.height, image.height - box.y)
        let columns = left..<max(left, right), rows = top..<max(top, bottom)
        let weighted = matchers.canonical.template
        let total = weighted.weights.reduce(0, +)
        let parts = (
            canonical: weighted.columns(columns).rows(rows), mirrored: matchers.mirrored.template.columns(columns).rows(rows)
        )
        func outOfView(_ c: Float? = nil, _ m: Float? = nil) -> FrameOrientation {
            wentBeyondTheFrame = true
            lastScore = nil
            lastPosition = box
            return FrameOrientation(index: index, facing: .unknown, canonicalScore: c, mirroredScore: m, measured: true, reason: .outOfView)
        }
        guard !columns.isEmpty, !rows.isEmpty, parts.canonical.weights.reduce(0, +) >= total / 2 else { return outOfView() }
        let starts = PixelRect(x: box.x + columns.lowerBound - 2, y: box.y + rows.lowerBound - 2, width: 5, height: 5)
        let canonical = TemplateMatcher(parts.canonical), mirrored = TemplateMatcher(parts.mirrored)
        guard let bc = canonical.best(in: image, positions: starts), let bm = mirrored.best(in: image, positions: starts) else {
            return outOfView()
        }
        // Both at the better one's place: the sprite is at one place.
        let at = bc.score >= bm.score ? bc : bm
        let cs = canonical.score(in: image, x: at.x, y: at.y) ?? -1, ms = mirrored.score(in: image, x: at.x, y: at.y) ?? -1
        guard max(cs, ms) >= configuration.presenceThreshold else { return outOfView(cs, ms) }
        let position = PixelRect(
            x: at.x - columns.lowerBound, y: at.y - rows.lowerBound, width: box.width, height: box.height)
        lastPosition = position
        lastScore = nil
        surroundings = nil
        let confidence = FrameOrientation.confidence(best: max(cs, ms), other: min(cs, ms))
        guard confidence >= configuration.confidenceThreshold else {
            return FrameOrientation(
                index: index, facing: .unknown, canonicalScore: cs, mirroredScore: ms, position: position, measured: true,
                confidence: confidence, reason: .ambiguous)
        }
        return FrameOrientation(
            index: index, facing: cs >= ms ? .canonical : .mirrored, canonicalScore: cs, mirroredScore: ms, position: position,
            measured: true, confidence: confidence)
    }

    /// The pixels in a ring around `box` (a third of its size each way), clipped to the image.
    private static func surroundings(of box: PixelRect, in image: GrayImage) -> (box: PixelRect, ring: PixelRect, pixels: [UInt8])? {
        let rx = max(4, box.width / 3), ry = max(4, box.height / 3)
        guard
            let ring = PixelRect(x: box.x - rx, y: box.y - ry, width: box.width + 2 * rx, height: box.height + 2 * ry)
                .clipped(width: image.width, height: image.height)
        else { return nil }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(ring.width * ring.height)
        for y in ring.y..<ring.maxY { pixels += image.pixels[(y * image.width + ring.x)..<(y * image.width + ring.maxX)] }
        return (box, ring, pixels)
    }

    /// Whether the sprite's surroundings, where it was last seen, now look unlike they did then: what
    /// lies around its box differs by more than 20 gray levels on average, or by more than 12 and no
    /// longer correlates (NCC under 0.5) with what was there. Rain or a crawling backdrop differs by a
    /// level or two; a page, the keyboard or a sheet sliding over the place (half of the ring white
    /// over a dark card: 50 levels, and still NCC 0.57 along the page's edge) does not. A sprite that jumped (a re-armed walk)
    /// or walked off leaves its surroundings as they were.
    private func isCovered(in image: GrayImage) -> Bool {
        guard let s = surroundings, image.width >= s.ring.maxX, image.height >= s.ring.maxY else { return false }
        var n = 0.0, sa = 0.0, sb = 0.0, saa = 0.0, sbb = 0.0, sab = 0.0, sd = 0.0
        for y in s.ring.y..<s.ring.maxY {
            let inBoxRows = y >= s.box.y && y < s.box.maxY
            for x in s.ring.x..<s.ring.maxX where !(inBoxRows && x >= s.box.x && x < s.box.maxX) {
                let a = Double(s.pixels[(y - s.ring.y) * s.ring.width + (x - s.ring.x)]), b = Double(image[x, y])
                n += 1
                sa += a
                sb += b
                saa += a * a
                sbb += b * b
                sab += a * b
                sd += abs(a - b)
            }
        }
        guard n > 0, sd / n > 12 else { return false }
        if sd / n > 20 { return true }
        let va = saa - sa * sa / n, vb = sbb - sb * sb / n, cov = sab - sa * sb / n
        guard va > n, vb > n else { return true }
        return cov / (va * vb).squareRoot() < 0.5
    }

    /// Makes the template half the appearance that started the track and half this confidently
    /// classified frame's (turned canonical), so that a backdrop that crossfades or darkens behind
    /// the sprite is followed. Always blending with the start, never with the last blend: a chain of
    /// blends drifts (each frame is cut where the last template matched best, a pixel or two off on
    /// a near-symmetric sprite) until the sprite sits off-centre in its template, its mirror image
    /// matches only far from it, and a flip reads as the same facing.
    /// `learningTheGround`: whether the frame also teaches `groundMask` which pixels are the sprite's.
    private mutating func adapt(to image: GrayImage, at position: PixelRect, facing: SpriteFacing, learningTheGround: Bool) {
        guard let start = trackAppearance, start.width == position.width, start.height == position.height,
            position.x >= 0, position.y >= 0, position.maxX <= image.width, position.maxY <= image.height
        else { return }
        var seen = SpriteTemplate(cutting: position, from: image)
        if facing == .mirrored { seen = seen.mirrored }
        guard seen.contrast >= 4 else { return }
        if learningTheGround { groundMask?.learn(seen: seen) }
        let sprite = groundMask?.weights.map { start.weighted(by: $0) } ?? start
        setTemplate(sprite.blended(with: seen, weight: 0.5))
    }
}

extension Double {
    /// 2^(k/n), exactly 1 for k = 0.
    static func pow2(_ k: Int, over n: Int) -> Double {
        k == 0 ? 1 : exp2(Double(k) / Double(n))
    }
}
