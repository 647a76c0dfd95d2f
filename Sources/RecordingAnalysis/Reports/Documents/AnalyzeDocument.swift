import Foundation

/// `analyze --json` read back: the members `batch` and the tests rely on, decoded by name from the
/// document `ReportDocument.analyze` writes. A renamed or removed member fails to decode here.
public struct AnalyzeDocument: Decodable, Sendable {
    public let schemaVersion: Int
    public let recording: Recording
    public let timestamps: Timestamps
    public let cfr: Grid
    public let orientation: Orientation
    public let flips: [Flip]
    public let turns: [Turn]
    public let unknown: [Unknown]
    public let undecided: [Undecided]
    public let crossCheck: CrossCheckSection?
    public let wallClock: WallClock?
    public let predictedMoments: [Moment]
    public let verdict: Verdict
    public let exitCode: Int32

    /// The `recording` section.
    public struct Recording: Decodable, Sendable {
        public let path: String
        public let codec: String
        public let width: Int
        public let height: Int
        public let timeBase: String
        public let frames: Int
        public let creationTime: String?
    }

    /// The `timestamps` section: the audit and whether the capture is intact.
    public struct Timestamps: Decodable, Sendable {
        public let vfr: Bool
        public let corruptPackets: Int
        public let readError: String?
        public let integrity: Integrity

        /// Whether every promised frame decoded, and where the timing came from.
        public struct Integrity: Decodable, Sendable {
            public let intact: Bool
            public let timingSource: String
            public let summary: String?
            public let packets: Int
            public let promisedFrames: Int?
        }
    }

    /// The `cfr` section (without the per-slot map).
    public struct Grid: Decodable, Sendable {
        public let fps: Double
        public let fpsSource: String
        public let frames: Int64
        public let duplicated: Int64
        public let originSlot: Int64
        public let sameSlotsAsFfmpeg: Bool
    }

    /// The `orientation` section.
    public struct Orientation: Decodable, Sendable {
        public let mode: String
        public let templateScale: Double?
        public let workingScale: Int
        public let firstMirrorEventFrame: Int?
    }

    /// One transient mirror flip: grid slots and seconds.
    public struct Flip: Decodable, Sendable {
        public let startSlot: Int64
        public let startS: Double
        public let endSlot: Int64
        public let endS: Double
        public let durationMs: Double
        public let cfrFrames: Int64
        public let facing: String
        public let sources: [Int]
    }

    /// One lasting change of facing.
    public struct Turn: Decodable, Sendable {
        public let slot: Int64
        public let atS: Double
        public let facing: String
    }

    /// A stretch whose facing is not established.
    public struct Unknown: Decodable, Sendable {
        public let startSlot: Int64
        public let startS: Double
        public let endSlot: Int64
        public let durationMs: Double
        public let reason: String
    }

    /// A short change of facing next to unknown frames.
    public struct Undecided: Decodable, Sendable {
        public let startSlot: Int64
        public let startS: Double
        public let durationMs: Double
        public let facing: String
    }

    /// The `cross_check` section.
    public struct CrossCheckSection: Decodable, Sendable {
        public let verdict: String
        /// Undetermined because the video's unknown frames could hide a predicted flip.
        public let hiddenByUnknown: Bool
        public let toleranceMs: Double
        public let pairs: [Pair]
        public let disagreements: [String]
        /// The video's turns the probe log's sprite does not make: the video follows another sprite.
        public let unloggedTurns: [UnloggedTurn]

        /// A turn of the sprite in view that neither formula makes.
        public struct UnloggedTurn: Decodable, Sendable {
            public let slot: Int64
            public let atS: Double
        }

        /// A video flip paired with a formula's prediction.
        public struct Pair: Decodable, Sendable {
            public let formula: String
            public let videoMs: Double?
            public let videoStartS: Double?
            public let logMs: Double?
            public let agrees: Bool
            /// The video does not show this predicted flip but could, where its facing is unknown.
            public let hidden: Bool
        }
    }

    /// The `wall_clock` section.
    public struct WallClock: Decodable, Sendable {
        public let source: String
        public let wallAtZero: Double
        public let uncertaintyBeforeMs: Double
        public let uncertaintyAfterMs: Double
    }

    /// One entry of `predicted_moments`.
    public struct Moment: Decodable, Sendable {
        public let formula: String
        public let wall: Double
        public let durationMs: Double
        public let recordingS: Double
        public let firstSlot: Int64
        public let lastSlot: Int64
    }

    /// The `verdict` section.
    public struct Verdict: Decodable, Sendable {
        public let passed: Bool
        public let undetermined: Bool
        public let expect: String?
        public let crossCheck: String?
        /// What ties the followed sprite to the sprite under test (`SpriteIdentity`).
        public let spriteIdentity: String
        public let summary: String
    }

    /// Decodes a document `analyze --json` wrote.
    public static func decode(_ data: Data) throws -> AnalyzeDocument {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(AnalyzeDocument.self, from: data)
    }
}
