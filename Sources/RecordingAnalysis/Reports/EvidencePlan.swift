/// What an evidence folder shows, decided before any frame is decoded: a filmstrip of each flip
/// (two slots before it to two after), one of every slot of each predicted flip's window, the tile
/// size of each strip, which tiles are framed in red, and the sprite's close-up box.
public struct EvidencePlan: Sendable, Equatable {
    /// A tile's size in pixels.
    public struct TileSize: Hashable, Sendable {
        public let width: Int
        public let height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// One filmstrip: consecutive grid slots, left to right.
    public struct Strip: Sendable, Equatable {
        /// The PNG's name inside the folder.
        public let file: String
        public let slots: [Int64]
        public let caption: String
        /// Per slot: whether the timeline has the sprite mirrored there (the tile is framed in red).
        public let mirrored: [Bool]
        public let tileSize: TileSize
    }

    /// The most tiles in a flip's strip: a longer flip shows its first and last twelve slots.
    public static let flipTiles = 24
    /// The most tiles in a predicted window's strip: longer windows are split into parts.
    public static let windowTiles = 30

    public let strips: [Strip]
    /// The sprite's neighbourhood (its box grown by its own size on each side), for close-up strips.
    public let closeUp: PixelRect?
    /// How much the close-up is enlarged: to about 160 pixels wide, at most 4x.
    public let closeUpZoom: Int
    /// Every tile size each source frame is needed at: what to keep of it while decoding.
    public let tileSizes: [Int: Set<TileSize>]

    /// - Parameters:
    ///   - width, height: the recording's frame size.
    ///   - spriteRect: the sprite's last known box, in recording pixels.
    public init(
        timeline: OrientationTimeline, predictedMoments: [PredictedMoment], wallClock: WallClockMapping?,
        spriteRect: PixelRect?, width: Int, height: Int
    ) {
        let map = timeline.map
        var planned: [(file: String, slots: [Int64], caption: String)] = []
        for (n, flip) in timeline.flips.enumerated() {
            var slots = Array(max(0, flip.startSlot - 2)...min(map.slotCount - 1, flip.startSlot + flip.slots + 1))
            if slots.count > Self.flipTiles {
                slots = Array(slots.prefix(Self.flipTiles / 2)) + Array(slots.suffix(Self.flipTiles / 2))
            }
            let caption =
                "Flip \(n + 1): slots \(slots.first ?? 0)–\(slots.last ?? 0) at \(map.rate.compactDescription) fps "
                + "(\(Format.seconds(map.seconds(ofSlot: slots.first ?? 0)))–\(Format.seconds(map.seconds(ofSlot: (slots.last ?? 0) + 1)))); "
                + "mirrored tiles framed in red"
            planned.append(("flip-\(n + 1).png", slots, caption))
        }
        // Each predicted flip, whether or not the video shows it: every slot of the window the
        // mapping's uncertainty leaves, so that an absence is shown, not assumed.
        for (n, moment) in predictedMoments.enumerated() {
            let all = Array(moment.firstSlot...moment.lastSlot)
            let chunks = stride(from: 0, to: all.count, by: Self.windowTiles).map { Array(all[$0..<min(all.count, $0 + Self.windowTiles)]) }
            for (k, slots) in chunks.enumerated() {
                let name = moment.formula == .old ? "legacy" : "clamped"
                let caption =
                    "The \(name) formula predicts a \(Format.milliseconds(moment.durationMS)) flip at wall \(moment.wall.iso8601) → \(Format.seconds(moment.seconds)) "
                    + "(\(wallClock?.uncertaintyText ?? "")); slots \(slots.first ?? 0)–\(slots.last ?? 0)"
                    + (chunks.count > 1 ? " (part \(k + 1) of \(chunks.count))" : "") + "; timeline facing: \(moment.seenText)"
                planned.append(("predicted-\(moment.formula.rawValue)-\(n + 1)\(chunks.count > 1 ? "-\(k + 1)" : "").png", slots, caption))
            }
        }
        var strips: [Strip] = []
        var tileSizes: [Int: Set<TileSize>] = [:]
        for plan in planned {
            let size = Filmstrip.tileSize(width: width, height: height, count: plan.slots.count)
            let tile = TileSize(width: size.width, height: size.height)
            let mirrored = plan.slots.map { slot in timeline.flips.contains { slot >= $0.startSlot && slot < $0.startSlot + $0.slots } }
            strips.append(Strip(file: plan.file, slots: plan.slots, caption: plan.caption, mirrored: mirrored, tileSize: tile))
            for slot in plan.slots {
                if let source = map.source(atSlot: slot) { tileSizes[source, default: []].insert(tile) }
            }
        }
        self.strips = strips
        self.tileSizes = tileSizes
        closeUp = spriteRect.map { r in PixelRect(x: r.x - r.width / 2, y: r.y - r.height / 2, width: r.width * 2, height: r.height * 2) }
        closeUpZoom = closeUp.map { max(1, min(4, 160 / max(1, $0.width))) } ?? 1
    }
}
