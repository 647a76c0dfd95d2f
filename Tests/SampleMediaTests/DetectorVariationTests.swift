import Foundation
import Testing
import MediaIO
import RecordingAnalysis
import SampleScene
import TestSupport

/// The sprite's @1x asset as a PNG in `dir`, as a user would pass it to `--template`.
private func assetPNG(_ kind: SpriteKind, in dir: URL) throws -> String {
    let asset = kind.render()
    let path = dir.appendingPathComponent("\(kind.rawValue).png").path
    try OutputFile.writeAtomically(
        try PNGEncoder.encodeRGBA(width: asset.width, height: asset.height, pixels: asset.rgbaBytes()), to: path)
    return path
}

/// As `assetPNG`, with transparent margins around the sprite, as exported assets often have.
private func paddedAssetPNG(_ kind: SpriteKind, left: Int, top: Int, right: Int, bottom: Int, in dir: URL) throws -> String {
    let asset = kind.render()
    let bytes = asset.rgbaBytes()
    let width = asset.width + left + right, height = asset.height + top + bottom
    var padded = [UInt8](repeating: 0, count: width * height * 4)
    for y in 0..<asset.height {
        let from = y * asset.width * 4, to = ((y + top) * width + left) * 4
        padded[to..<(to + asset.width * 4)] = bytes[from..<(from + asset.width * 4)]
    }
    let path = dir.appendingPathComponent("\(kind.rawValue)-padded.png").path
    try OutputFile.writeAtomically(try PNGEncoder.encodeRGBA(width: width, height: height, pixels: padded), to: path)
    return path
}

/// Case `n` of `make accuracy`'s seed 1, as `make-sample-media --accuracy` draws it.
private func accuracyCase(_ n: Int) -> AccuracyCase {
    var rng = SplitMix64(seed: 1)
    for _ in 0..<n { _ = AccuracyCase.random(&rng) }
    return AccuracyCase.random(&rng)
}

/// A capture made by the ffmpeg CLI: `kind`'s asset scaled to `width` pixels and laid over the
/// lavfi `backdrop` (filtered by `ground`, e.g. "drawbox=…,"), walking along `walk` (an overlay
/// position) for `seconds` at 60 fps, mirrored in frames 90-91 and 180-185; H.264 at crf 23.
/// Returns the capture's and the asset's paths.
private func compositeWalk(
    _ kind: SpriteKind, width: Int, over backdrop: String, ground: String = "", walk: String, seconds: Int, in dir: URL
) throws -> (capture: String, asset: String) {
    let asset = try assetPNG(kind, in: dir)
    let path = dir.appendingPathComponent("walk.mov").path
    let mirrored = "between(t,1.495,1.525)+between(t,2.995,3.09)"
    try TestSupport.ffmpegRun([
        "-f", "lavfi", "-i", backdrop, "-loop", "1", "-framerate", "60", "-i", asset,
        "-filter_complex",
        "[0:v]\(ground)format=yuv420p[bg];[1:v]scale=\(width):-1,split[a][b];[b]hflip[m];"
            + "[bg][a]overlay=\(walk):enable='not(\(mirrored))'[v1];[v1][m]overlay=\(walk):enable='\(mirrored)'[v]",
        "-map", "[v]", "-t", "\(seconds)", "-c:v", "libx264", "-crf", "23", path
    ])
    return (path, asset)
}

/// The reported flips of a 60 fps capture as [first frame, frames].
private func flipFrames(_ json: [String: Any]) -> [[Double]] {
    (json["flips"] as? [[String: Any]] ?? []).map {
        [($0["start_s"] as? Double ?? -1) * 60, ($0["duration_ms"] as? Double ?? -1) * 0.06].map { $0.rounded() }
    }
}

/// The ordinary variation a capture nobody here made brings: a re-armed walk, a dark compressed
/// capture, a template at another pixel scale (or of another sprite), a 120 Hz display. Each clip is
/// rendered from a `WalkScenario`, whose truth is known tick by tick.
@Suite struct DetectorVariationTests {
    private static let snailPNG = TestSupport.sampleMedia.appendingPathComponent("snail.png").path

    private func write(_ scenario: WalkScenario, quality: Int = 20, to path: String) throws {
        let scene = scenario.makeScene()
        let writer = try VideoWriter(
            path: path,
            settings: VideoWriter.Settings(
                codec: .h264, width: scenario.width, height: scenario.height, timeBase: Rational(1, scenario.timeScale),
                frameRate: Rational(Int64(scenario.refreshRate), 1), quality: quality, threads: 0))
        for n in 0..<scenario.ticks {
            try writer.append(
                RGBImage(width: scenario.width, height: scenario.height, pixels: scenario.render(n, scene: scene)),
                pts: Int64(n) * scenario.ticksPerRefresh, duration: scenario.ticksPerRefresh)
        }
        try writer.finish()
        // To look at a clip: ANALYZE_RECORDING_KEEP_CLIPS=DIR keeps a copy.
        if let keep = ProcessInfo.processInfo.environment["ANALYZE_RECORDING_KEEP_CLIPS"] {
            let copy = URL(fileURLWithPath: keep).appendingPathComponent((path as NSString).lastPathComponent).path
            try? FileManager.default.removeItem(atPath: copy)
            try? FileManager.default.copyItem(atPath: path, toPath: copy)
        }
    }

    private func orientation(_ path: String, _ extra: [String] = []) throws -> (RunResult, [String: Any]) {
        let r = try TestSupport.tool(["orientation", path, "--json", "-"] + extra)
        return (r, r.status <= 1 ? try TestSupport.parseJSON(r.stdout) : [:])
    }

    /// Encodes accuracy case `c` into a temporary folder and runs `orientation` on it, with
    /// `--template` the @1x asset of `template` when it is given.
    private func orientation(of c: AccuracyCase, template: SpriteKind? = nil, _ extra: [String] = []) throws -> (
        RunResult, [String: Any]
    ) {
        let dir = TestSupport.temporaryDirectory("accuracy-case")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("case.mov").path
        try c.encode(to: path)
        let templateArguments = try template.map { ["--template", try assetPNG($0, in: dir)] } ?? []
        return try orientation(path, templateArguments + extra)
    }

    /// Expects the run on accuracy case `c` to report exactly its flips (a finding, status 1) on a
    /// grid at the case's refresh rate; what it read, for further checks.
    private func expectExactFlips(of c: AccuracyCase, _ r: RunResult, _ json: [String: Any]) throws -> (
        rate: Int, flips: [(Int, Int)], turns: Int
    ) {
        #expect(r.status == 1, "flips are findings: \(r.stderr)")
        let got = flips(json)
        try #require(got.rate == c.scenario.refreshRate, "grid \(got.rate) fps")
        #expect(got.flips.map(\.0) == c.flips.map(\.start) && got.flips.map(\.1) == c.flips.map(\.ticks), "\(got.flips), truth \(c.flips)")
        return got
    }

    /// Expects the run on accuracy case `c` to report exactly its lasting turns, at their slots.
    private func expectExactTurns(of c: AccuracyCase, _ json: [String: Any]) {
        let turns = (json["turns"] as? [[String: Any]] ?? []).map { $0["slot"] as? Int ?? -1 }
        #expect(turns == c.turns, "turns at \(turns), truth \(c.turns)")
    }

    /// Flips as (start slot, slots) on the grid the tool chose, and its rate.
    private func flips(_ json: [String: Any]) -> (rate: Int, flips: [(Int, Int)], turns: Int) {
        let rate = (json["cfr"] as? [String: Any])?["fps"] as? Int ?? 60
        let f = (json["flips"] as? [[String: Any]] ?? []).map {
            (Int((($0["start_s"] as? Double ?? -1) * Double(rate)).rounded()), $0["cfr_frames"] as? Int ?? -1)
        }
        return (rate, f, (json["turns"] as? [Any])?.count ?? -1)
    }

    private func expectTruth(_ scenario: WalkScenario, _ json: [String: Any], _ label: String) {
        let got = flips(json)
        let want = scenario.flips.map { ($0.start * got.rate / scenario.refreshRate, $0.ticks * got.rate / scenario.refreshRate) }
        #expect(got.flips.map(\.0) == want.map(\.0), "\(label): flips at slots \(got.flips), truth \(want)")
        #expect(got.flips.map(\.1) == want.map(\.1), "\(label): flip lengths \(got.flips), truth \(want)")
        #expect(got.turns == 0, "\(label): \(got.turns) turns")
    }

    @Test func aReArmedWalkFlipsAgainAtTheJump() throws {
        let dir = TestSupport.temporaryDirectory("rearm")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A cold-start flip, a walk, then a second tap: back to the start, mirrored for one evaluation.
        let scenario = WalkScenario(ticks: 150, speed: 40, mirroredTicks: [20, 100], rearmTicks: [100])
        let path = dir.appendingPathComponent("rearm.mov").path
        try write(scenario, to: path)
        for (label, extra) in [("auto", [String]()), ("template", ["--template", Self.snailPNG])] {
            let (r, json) = try orientation(path, extra)
            #expect(r.status == 1, "\(label): flips are findings: \(r.stderr)")
            expectTruth(scenario, json, "re-armed \(label)")
        }
    }

    @Test func aDarkDimmedHeavilyCompressedCapture() throws {
        let dir = TestSupport.temporaryDirectory("dark")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = WalkScenario(ticks: 120, brightness: 1.0 / 3, mirroredTicks: [30, 80, 81, 82])
        let path = dir.appendingPathComponent("dark.mov").path
        try write(scenario, quality: 32, to: path)
        for (label, extra) in [("auto", [String]()), ("template", ["--template", Self.snailPNG])] {
            let (r, json) = try orientation(path, extra)
            #expect(r.status == 1, "\(label): flips are findings: \(r.stderr)")
            expectTruth(scenario, json, "dark \(label)")
        }
    }

    @Test func aSpriteOfColourOnlyContrastIsFoundInAutoMode() throws {
        // The red car on the blue-gray sky, dimmed: nearly the sky's luma, so luma shows its windows
        // and wheels only; a 2-frame flip and a 6-frame one.
        var scenario = WalkScenario(ticks: 120, brightness: 1.0 / 3, mirroredTicks: [20, 21, 70, 71, 72, 73, 74, 75])
        scenario.sprite = .car
        scenario.spriteSize = 2
        try expectAutoModeTruth(scenario, quality: 18, label: "colour-only car")
    }

    @Test func aSpriteWhoseLumaLooksSymmetricOnOneSideOfTheFlipIsStillFound() throws {
        // The dimmed red car again, at 2x its size: in luma mostly its window and wheels, and mirrored
        // it is nearly its own mirror image about the window's axis. Only an appearance symmetric
        // before and after (an icon sliding sideways) says nothing about facing.
        var scenario = WalkScenario(ticks: 120, brightness: 1.0 / 3, mirroredTicks: Set(20...27))
        scenario.sprite = .car
        scenario.spriteSize = 2
        try expectAutoModeTruth(scenario, quality: 27, label: "dim car")
    }

    @Test func aNearSymmetricSpriteKeepsItsFacingOverALongTrack() throws {
        // A bouncing bird at 2x on a 120 Hz screen, re-armed at its second and third flips: its body
        // is nearly its own mirror image, so a template that adapted by blending frame after frame
        // drifted off it until a flip read as the same facing and a flip-back as a lasting turn.
        var scenario = WalkScenario(
            refreshRate: 120, ticks: 240, pixelScale: 2,
            mirroredTicks: Set([47, 48, 49, 50, 51, 132, 133, 134, 173, 174, 175, 176]), rearmTicks: [132, 173])
        scenario.sprite = .bird
        scenario.spriteSize = 2
        scenario.bounce = 6
        try expectAutoModeTruth(scenario, label: "bird")
    }

    @Test func aSpriteThatJumpsBackAsItFlipsIsReadWhereItLands() throws {
        // A car re-armed mid-walk: back to the start, mirrored for six evaluations. Where it was, a
        // piece of the mirrored car still matched the unmirrored one passably (0.73, then 0.90 as the
        // search followed it): the previous build read those six frames as unmirrored, no flip.
        var scenario = WalkScenario(refreshRate: 30, ticks: 60, mirroredTicks: Set([9, 10] + Array(23...28)), rearmTicks: [23])
        scenario.sprite = .car
        try expectAutoModeTruth(scenario, quality: 19, label: "car re-armed")
    }

    @Test func aSpriteWithLittleLumaContrastInRainStartsATrack() throws {
        // A blue bird on a blue-gray sky: in luma only its belly, eye, beak and wing stand out, and the
        // rain streaks crossing it are a large part of what differs between the frames. Compared
        // with its mirror image the new frame still differed by 44 % of the change (the previous
        // build accepted at most 40 %), so no mirror event started a track: both flips missed.
        var scenario = WalkScenario(speed: 40, mirroredTicks: Set(27...35).union(72...77))
        scenario.sprite = .bird
        scenario.spriteSize = 0.75
        try expectAutoModeTruth(scenario, quality: 25, label: "bird in rain")
    }

    /// Encodes `scenario` and expects auto mode to report exactly its flips (a finding, status 1).
    private func expectAutoModeTruth(_ scenario: WalkScenario, quality: Int = 20, label: String) throws {
        let dir = TestSupport.temporaryDirectory("auto")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("capture.mov").path
        try write(scenario, quality: quality, to: path)
        let (r, json) = try orientation(path)
        #expect(r.status == 1, "\(label): flips are findings: \(r.stderr)")
        expectTruth(scenario, json, label)
    }

    @Test func aTemplateAtAnotherPixelScaleIsFoundAndAnotherSpriteIsRefused() throws {
        let dir = TestSupport.temporaryDirectory("scale")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 3x screen (1170x2532) and the snail's @1x asset.
        let scenario = WalkScenario(ticks: 60, pixelScale: 3, mirroredTicks: [20, 40, 41])
        let path = dir.appendingPathComponent("3x.mov").path
        try write(scenario, to: path)
        let (r, json) = try orientation(path, ["--template", Self.snailPNG])
        #expect(r.status == 1, "\(r.stderr)")
        expectTruth(scenario, json, "@1x template on 3x")
        let scale = (json["orientation"] as? [String: Any])?["template_scale"] as? Double ?? 0
        #expect(abs(scale - 3) < 0.3, "template scale \(scale), truth 3")
        let (auto, autoJSON) = try orientation(path)
        #expect(auto.status == 1, "\(auto.stderr)")
        expectTruth(scenario, autoJSON, "3x auto")

        // A bird at the right scale is not this recording's sprite: refused, never flips.
        var bird = Canvas(width: 150, height: 105)
        bird.fillEllipse(cx: 70, cy: 60, rx: 48, ry: 30, .rgb(40, 90, 200))
        bird.fillCircle(cx: 118, cy: 38, radius: 20, .rgb(40, 90, 200))
        bird.fillCircle(cx: 124, cy: 33, radius: 5, .rgb(255, 255, 255))
        bird.fill(.rgb(250, 180, 40), minX: 136, minY: 30, maxX: 150, maxY: 46) { x, y in max(136 - x, abs(y - 38) - (150 - x) * 0.5) }
        bird.fillEllipse(cx: 55, cy: 48, rx: 26, ry: 12, .rgb(20, 50, 140))
        let birdPNG = dir.appendingPathComponent("bird.png").path
        try OutputFile.writeAtomically(
            try PNGEncoder.encodeRGBA(width: bird.width, height: bird.height, pixels: bird.rgbaBytes()), to: birdPNG)
        let refused = try TestSupport.tool(["orientation", path, "--template", birdPNG])
        #expect(refused.status == 65, "\(refused.stdout)")
        #expect(refused.stderr.hasPrefix("analyze-recording: template not found in \(path): best match "), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
    }

    @Test func aSpriteThatStartsPartlyHiddenIsReadAgainAtTheScaleItTurnsOutToHave() throws {
        let dir = TestSupport.temporaryDirectory("hidden")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 3x screen at 30 Hz; the snail starts 20 points beyond the card's left edge, and the @1x
        // template is first located on something else (a cloud, a list icon, a part of the snail at
        // too small a scale). The flips come while the snail is partly hidden. Every frame is read
        // again once the snail is found, by the part of it in view where the whole template matches
        // nowhere: every facing the tool states is the true one, and both flips are found (before
        // the part reading, the first one was undecided).
        var scenario = WalkScenario(refreshRate: 30, ticks: 60, pixelScale: 3, speed: 39.5, mirroredTicks: [13, 14, 15, 16, 33])
        scenario.startX = -20.5
        let path = dir.appendingPathComponent("hidden.mov").path
        try write(scenario, quality: 30, to: path)
        let (r, json) = try orientation(path, ["--template", Self.snailPNG])
        #expect(r.status == 1, "flips are findings: \(r.stderr)")
        expectEveryStatedFacingTrue(scenario, json)
        expectTruth(scenario, json, "partly hidden snail")
    }

    /// Every frame whose facing the tool states (right or left) faces that way in the scenario (one
    /// frame per tick).
    private func expectEveryStatedFacingTrue(_ scenario: WalkScenario, _ json: [String: Any]) {
        let frames = (json["orientation"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
        #expect(frames.count == scenario.ticks)
        for f in frames {
            guard let i = f["index"] as? Int, let facing = f["facing"] as? String, facing != "unknown" else { continue }
            let truth = scenario.mirroredTicks.contains(i) ? "left" : "right"
            #expect(facing == truth, "frame #\(i): \(facing), truth \(truth)")
        }
    }

    @Test func aTemplateFirstLocatedOnSomethingElseMovesToTheSpriteOnceItIsInView() throws {
        let dir = TestSupport.temporaryDirectory("elsewhere")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A dimmed 1x screen; the snail starts 40 % beyond the card's left edge. What is in view of it
        // matches less well than other things in the frame, so the template is first located
        // elsewhere; searched for again while no match is sure, it is found once the snail is in
        // view, and the frames before are read again there. Both flips come after it is in view.
        var scenario = WalkScenario(ticks: 120, brightness: 0.6, speed: 30, mirroredTicks: Set(54...59).union(90...97))
        scenario.startX = -24
        scenario.bounce = 4
        let path = dir.appendingPathComponent("elsewhere.mov").path
        try write(scenario, quality: 31, to: path)
        let (r, json) = try orientation(path, ["--template", Self.snailPNG])
        #expect(r.status == 1, "flips are findings: \(r.stderr)")
        expectTruth(scenario, json, "located elsewhere first")
        let scale = (json["orientation"] as? [String: Any])?["template_scale"] as? Double ?? 0
        #expect(abs(scale - 1) < 0.15, "template scale \(scale), truth 1 (within a step of the search, 2^(1/6))")
        expectEveryStatedFacingTrue(scenario, json)
    }

    @Test func aSpriteComingOutFromBehindAnEdgeIsReadByThePartInView() throws {
        let dir = TestSupport.temporaryDirectory("part")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A dimmed car at twice its asset's size starts a third beyond the card's left edge and
        // flips for six frames before it is wholly in view. No scale of the whole template matches
        // it before then; once located, the frames before are read again by the part of it in view
        // (the previous build left them unknown, "template not found", and the flip undecided).
        var scenario = WalkScenario(ticks: 120, brightness: 1.0 / 3, speed: 24, mirroredTicks: Set(40...45))
        scenario.sprite = .car
        scenario.spriteSize = 2
        scenario.startX = -0.33 * Double(scenario.spriteAssetWidth) * scenario.spriteSize
        let path = dir.appendingPathComponent("part.mov").path
        try write(scenario, quality: 23, to: path)
        let carPNG = try assetPNG(.car, in: dir)
        let (r, json) = try orientation(path, ["--template", carPNG])
        #expect(r.status == 1, "flips are findings: \(r.stderr)")
        expectTruth(scenario, json, "partly hidden car")
        expectEveryStatedFacingTrue(scenario, json)
    }

    @Test func aMirroredCarSentBackHalfBehindTheCardsEdgeIsReadByTheHalfInView() throws {
        // Case 20 again: the second flip lasts the one frame in which the car is back at its start,
        // mirrored, its front beyond the card's edge. Read by its half in view, the mirrored rear
        // half matched there (0.89) and the unmirrored rear half as well (0.88) half a car-length
        // on, where the front would have been in plain view: the build before left the frame
        // ambiguous, the flip missed. Each part is now placed with its cut at an edge.
        let c = accuracyCase(20)
        try #require(c.scenario.sprite == .car && c.rearmed && c.occluded && c.flips.count == 3, "the generator changed: \(c.scenario)")
        let (r, json) = try orientation(of: c, template: .car)
        _ = try expectExactFlips(of: c, r, json)
        expectEveryStatedFacingTrue(c.scenario, json)
    }

    @Test func aFrameWhoseOtherOrientationNoSearchKeptIsNotReadAgainstNothing() throws {
        // Case 111 (seed 1): an 18 px drop at 120 Hz, a frame every third refresh, HEVC with
        // B-frames, re-armed back to its start beside the card's edge. Two frames after its second
        // flip, a whole-frame search kept only the mirrored match (0.67; no unmirrored one passed
        // the whole-appearance and colour tests), and the build before read the drop mirrored there
        // against nothing, at confidence 0.83. Both orientations are now read at that one place:
        // 0.62 against 0.67, ambiguous.
        let c = accuracyCase(111)
        let s = c.scenario
        try #require(s.sprite == .drop && c.rearmed && c.occluded && c.bodyEvery == 3 && c.flips.count == 3, "the generator changed: \(s)")
        let (_, json) = try orientation(of: c, template: .drop)
        let frames = (json["orientation"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
        #expect(frames.count == (s.ticks + c.bodyEvery - 1) / c.bodyEvery)
        // Still read the wrong way round (not asserted here): the first flip's two frames, where
        // the drop is half beyond the edge and its unmirrored part matches better.
        let first = try #require(c.flips.first)
        var wrong: [Int] = []
        for f in frames {
            guard let i = f["index"] as? Int, let facing = f["facing"] as? String, facing == "left" || facing == "right" else { continue }
            let tick = i * c.bodyEvery
            if (first.start..<(first.start + first.ticks)).contains(tick) { continue }
            if (facing == "left") != s.mirroredTicks.contains(tick) { wrong.append(i) }
        }
        #expect(wrong.isEmpty, "frames read the wrong way round: \(wrong)")
    }

    @Test func aSnailsTemplateOnAScreenWithoutASnailIsRefusedWhereOnlyPartOfItMatches() throws {
        // UI-only captures (seed 1): list rows, icons and pages, no sprite. The snail's template at
        // half scale reached the sure correlation (0.85–0.88) on a pulsing heart icon and on an
        // orange card's corner with a white button. Stop 49's build took cases 33 and 38 for the
        // snail (their quarters did not match), stop 51's cases 84, 101 and 162 (three quarters
        // matched at 0.55–0.82; fewer than five of the nine pieces at 0.45): it read frames left
        // and right, left "undecided" findings, and in case 101 reported a one-frame flip.
        for n in [33, 38, 84, 101, 162] {
            let c = accuracyCase(n)
            try #require(c.uiOnly, "the generator changed: case \(n) is not UI-only")
            let (r, _) = try orientation(of: c, template: .snail)
            #expect(r.status == 65, "case \(n): \(r.stdout)")
            #expect(r.stderr.hasPrefix("analyze-recording: template not found in "), "case \(n): \(r.stderr)")
            #expect(r.stderr.contains(" pieces match there on their own ("), "case \(n): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "case \(n): \(r.stderr)")
        }
    }

    @Test func aSpriteWalkingOutOfTheFrameIsNotReadAsTurning() throws {
        // The snail's asset laid by the ffmpeg CLI over a plain light screen (390x844, 60 fps, 80 px
        // wide), walking right 1.2 px a frame from x = 40, mirrored in frames 90-91 and 180-185; from
        // frame 225 on it slides out of the frame at the right edge. Matched only where the whole of
        // it fits, it was pinned against the edge while its mirror image, shifted back, explained
        // the half in view: stop 52's build before the fix reported a false turn at 3.8 s in both modes.
        let dir = TestSupport.temporaryDirectory("walking-out")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, template) = try compositeWalk(
            .snail, width: 80, over: "color=c=0xf5f5f7:s=390x844:r=60", walk: "x='40+1.2*t*60':y=380", seconds: 5, in: dir)
        for extra in [[], ["--template", template]] {
            let (r, json) = try orientation(path, extra)
            #expect(r.status == 1, "\(extra): \(r.stderr)")
            let flips = flipFrames(json)
            #expect(flips == [[90, 2], [180, 6]], "\(extra): \(flips)")
            #expect((json["turns"] as? [Any])?.isEmpty == true, "\(extra): \(json["turns"] ?? "none")")
        }
    }

    @Test func aSpriteWalkingOffABusyCardOntoAnotherGroundIsStillReadInAutoMode() throws {
        // The snail's asset laid by the ffmpeg CLI (48 px wide, 1 px a frame from x = 20, mirrored
        // in frames 90-91 and 180-185) over a card with a gradient and a grid of lines, which gives
        // way at x = 240 to a light stripe and then black. Auto mode's appearance is cut with the
        // card behind the snail; stop 52's build read the second flip's frames as ambiguous, as the
        // stripe entered the snail's box, and lost the snail to the stripe's edge after it.
        let dir = TestSupport.temporaryDirectory("ground-change")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (path, _) = try compositeWalk(
            .snail, width: 48, over: "gradients=s=390x844:r=60:c0=0x1a1d24:c1=0x8a8d94:x0=0:y0=300:x1=390:y1=500:speed=0.00001",
            ground: "drawgrid=w=37:h=23:t=2:c=white@0.6,drawbox=x=240:y=0:w=35:h=844:c=0xf0f0f0:t=fill,"
                + "drawbox=x=275:y=0:w=115:h=844:c=black:t=fill,",
            walk: "x='20+1.0*t*60':y=380", seconds: 5, in: dir)
        let (r, json) = try orientation(path, [])
        #expect(r.status == 1, "\(r.stderr)")
        let flips = flipFrames(json)
        #expect(flips == [[90, 2], [180, 6]], "\(flips)")
        #expect((json["turns"] as? [Any])?.isEmpty == true, "\(json["turns"] ?? "none")")
        // Followed to the end: in the last frame the snail is at x = 319.
        let frames = (json["orientation"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
        let last = try #require(frames.last)
        #expect(abs((last["x"] as? Int ?? -100) - 319) <= 3, "last frame: \(last)")
    }

    @Test func anAssetWithTransparentMarginsIsFoundAsTheSpriteItHolds() throws {
        // Case 9 (seed 1): a 45 px snail at a third of the light, H.264 at crf 31, and a second
        // sprite. With 20 transparent columns either side of the asset and 30 rows above it, the
        // quarters of the canvas were mostly margin: a match at 0.93 had two of them, and a build
        // that cut the canvas (not the sprite) into quarters refused the template.
        let c = accuracyCase(9)
        try #require(c.scenario.sprite == .snail && c.flips.count == 3, "the generator changed: \(c.scenario)")
        let dir = TestSupport.temporaryDirectory("padded-asset")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("case.mov").path
        try c.encode(to: path)
        let template = try paddedAssetPNG(.snail, left: 20, top: 30, right: 20, bottom: 0, in: dir)
        let (r, json) = try orientation(path, ["--template", template])
        _ = try expectExactFlips(of: c, r, json)
        // The scale is the sprite's, as with the asset without margins: drawn at 0.75 of the asset.
        let scale = (json["orientation"] as? [String: Any])?["template_scale"] as? Double ?? 0
        let truth = c.scenario.spriteSize * Double(c.scenario.pixelScale)
        #expect(abs(scale - truth) < 0.05 * truth, "template scale \(scale), truth \(truth)")
    }

    @Test func aDimSnailFlippedHalfBeyondTheEdgeIsReadByAPartCutAtTheEdge() throws {
        // Case 29 (seed 1): a 60 px snail at a third of the light, H.264 at crf 34, a frame every
        // third refresh, starting half beyond the card's left edge. Its first flip is one frame there,
        // mirrored: the best part in view matched at 0.846 (the sure threshold 0.85), so the build
        // before left the frame "template not found" and missed the flip; the second, at a re-armed
        // jump back there, matched at 0.76 and was "sprite lost". Cut at the card's edge, a part is
        // taken at 0.7, the bar of a whole sprite found anywhere in the frame.
        let c = accuracyCase(29)
        let s = c.scenario
        try #require(s.sprite == .snail && c.occluded && c.bodyEvery == 3 && c.flips.count == 2, "the generator changed: \(s)")
        let (r, json) = try orientation(of: c, template: .snail)
        #expect(r.status == 1, "the flip is a finding: \(r.stderr)")
        let got = flips(json)
        #expect(got.flips.map(\.0) == c.flips.map(\.start) && got.flips.map(\.1) == c.flips.map(\.ticks), "\(got.flips), truth \(c.flips)")
        #expect(got.turns == 0)
        let frames = (json["orientation"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
        #expect(frames.count == (s.ticks + c.bodyEvery - 1) / c.bodyEvery)
        for f in frames {
            guard let i = f["index"] as? Int, let facing = f["facing"] as? String, facing != "unknown" else { continue }
            let truth = s.mirroredTicks.contains(i * c.bodyEvery) ? "left" : "right"
            #expect(facing == truth, "frame #\(i): \(facing), truth \(truth)")
        }
    }

    @Test func aSpriteFoundAgainHalfBehindAnEdgeIsNotHeldOffItByAPieceOfItsMirrorImage() throws {
        // The accuracy set's case 20 (seed 1): a car at three quarters of its asset's size whose
        // second tap sends it back to its start, partly beyond the card's left edge, mirrored for one
        // evaluation. Found again there, the mirrored template's front lines up with the front in
        // view and matches passably (0.7–0.8) a car's length from the sprite: the build before
        // followed that piece and read the car backwards for the rest of the capture (a false turn,
        // and the last flip missed).
        let c = accuracyCase(20)
        try #require(c.scenario.sprite == .car && c.rearmed && c.occluded && c.flips.count == 3, "the generator changed: \(c.scenario)")
        let (r, json) = try orientation(of: c, template: .car)
        #expect(r.status == 1, "flips are findings: \(r.stderr)")
        let got = flips(json)
        let last = try #require(c.flips.last)
        #expect(got.turns == 0, "\(got.turns) turns")
        #expect(got.flips.contains { $0 == (last.start, last.ticks) }, "the last flip \(last): \(got.flips)")
        #expect(got.flips.allSatisfy { f in c.flips.contains { $0.start == f.0 && $0.ticks == f.1 } }, "\(got.flips), truth \(c.flips)")
        // In view again, the car is read the right way round from a few frames before its last flip.
        let frames = (json["orientation"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
        let before = frames.filter { ((last.start - 6)..<last.start).contains($0["index"] as? Int ?? -1) }.map {
            $0["facing"] as? String ?? ""
        }
        #expect(before == Array(repeating: "right", count: 6), "\(before)")
        // Lost after the jump, it is not found again at its old place, where the backdrop lined up
        // with the mirrored template's telling pixels for nine frames (the build before read them
        // as the car facing left there).
        expectEveryStatedFacingTrue(c.scenario, json)
    }

    @Test func aReArmedWalkThatBeganBeyondTheEdgeIsReadByThePartInViewWhenItJumpsBack() throws {
        // The accuracy set's case 194 (seed 1): a 45 px snail that starts a quarter to a half beyond
        // the card's left edge, a frame every third refresh. Its second and third taps send it back
        // to its start, mirrored: there the whole template matches nowhere, so the build before
        // lost it for five frames and missed both flips. The part in view (its shell, its head) is
        // plain to see, and read, the whole of it still searched for as while lost.
        let c = accuracyCase(194)
        try #require(
            c.scenario.sprite == .snail && c.rearmed && c.occluded && c.bodyEvery == 3 && c.flips.count == 3 && c.turns.isEmpty,
            "the generator changed: \(c.scenario)")
        let (r, json) = try orientation(of: c, ["--template", Self.snailPNG])
        #expect(r.status == 1, "flips are findings: \(r.stderr)")
        let got = flips(json)
        #expect(got.rate == c.scenario.refreshRate)
        #expect(got.flips.map(\.0) == c.flips.map(\.start), "flips at slots \(got.flips), truth \(c.flips)")
        #expect(got.flips.map(\.1) == c.flips.map(\.ticks), "flip lengths \(got.flips), truth \(c.flips)")
        #expect(got.turns == 0, "\(got.turns) turns")
        let frames = (json["orientation"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
        #expect(frames.count == c.ticks / c.bodyEvery)
        for f in frames {
            guard let i = f["index"] as? Int, let facing = f["facing"] as? String, facing != "unknown" else { continue }
            let truth = c.scenario.mirroredTicks.contains(i * c.bodyEvery) ? "left" : "right"
            #expect(facing == truth, "frame #\(i): \(facing), truth \(truth)")
        }
    }

    @Test func aSmallSpriteIsNotReadOnAStreakOrACornerThatLooksLikeItsTellingPixels() throws {
        let dir = TestSupport.temporaryDirectory("small")
        defer { try? FileManager.default.removeItem(at: dir) }
        // A car of 28x15 pixels in rain, compressed hard (crf 32), mirrored for five frames. What tells
        // its orientations apart is a few pixels (the window's edge, the headlight); while the facing
        // was in doubt, a whole-frame search found them better matched 20 pixels away, by a rain
        // streak beside the car's dark body, and the previous build followed that place, reading the
        // car as mirrored to the end (a false lasting turn). A place found away from the sprite must
        // show its whole appearance too.
        var scenario = WalkScenario(ticks: 120, mirroredTicks: Set(18...22))
        scenario.sprite = .car
        scenario.spriteSize = 0.5
        let path = dir.appendingPathComponent("small.mov").path
        try write(scenario, quality: 32, to: path)
        let carPNG = try assetPNG(.car, in: dir)
        for (mode, extra) in [("template", ["--template", carPNG]), ("auto", [])] {
            let (r, json) = try orientation(path, extra)
            #expect(r.status <= 1, "\(mode): \(r.stderr)")
            #expect(flips(json).turns == 0, "\(mode): a turn that never happened")
            if mode == "template" { expectEveryStatedFacingTrue(scenario, json) }
        }
    }

    @Test func aSmallSpritesTellingPixelsLinedUpOnAPieceOfItDoNotCarryTheTrackOff() throws {
        // The accuracy set's case 23 (seed 1): a car 28 pixels wide at crf 32 flips for five frames,
        // then turns for real. As the flip ended, the best match near the last place was one
        // car-length off, where the template's telling pixels (the headlight) lined up with the car's
        // and the rest of the box lay on sky; the build before tracked on from there and read 56
        // frames the wrong way round, the real turn included. Near matches that show little of the
        // sprite's whole appearance give way to the place in the window that shows it.
        let c = accuracyCase(23)
        try #require(
            c.scenario.sprite == .car && c.flips.count == 1 && c.turns.count == 1 && !c.occluded, "the generator changed: \(c.scenario)")
        let (r, json) = try orientation(of: c, template: .car)
        #expect(r.status == 1, "the flip is a finding: \(r.stderr)")
        let got = flips(json)
        let flip = try #require(c.flips.first), turn = try #require(c.turns.first)
        #expect(got.flips.map(\.0) == [flip.start] && got.flips.allSatisfy { abs($0.1 - flip.ticks) <= 1 }, "\(got.flips), truth \(flip)")
        let turns = ((json["turns"] as? [[String: Any]]) ?? []).map { Int((($0["at_s"] as? Double ?? -1) * Double(got.rate)).rounded()) }
        #expect(turns.count == 1 && turns.allSatisfy { abs($0 - turn) <= 1 }, "turns at \(turns), truth \(turn)")
        // Every stated facing is the true one (frames at a change, and the one before, left out).
        let frames = (json["orientation"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
        let changes = [flip.start, flip.start + flip.ticks, turn]
        var wrong: [Int] = []
        for f in frames {
            guard let i = f["index"] as? Int, let facing = f["facing"] as? String, facing != "unknown",
                !changes.contains(where: { i == $0 || i == $0 - 1 })
            else { continue }
            let left = (i >= turn) != (flip.start..<(flip.start + flip.ticks)).contains(i)
            if facing != (left ? "left" : "right") { wrong.append(i) }
        }
        #expect(wrong.isEmpty, "frames read the wrong way round: \(wrong)")
    }

    @Test func autoModeReadsTheFramesBeforeItsFirstEventWhereTheSpriteWas() throws {
        // The snail starts half beyond the card's edge and flips there, too little of it in view for
        // a mirror event; the track starts at the second flip. The frames before are read again with
        // the appearance that started it, which (cut with its backdrop of clouds and rain) also
        // matches passably elsewhere: the previous build located it there and read those frames on
        // something else.
        var scenario = WalkScenario(ticks: 120, speed: 40, mirroredTicks: Set(24...27).union(80...86))
        scenario.startX = -0.5 * Double(scenario.spriteAssetWidth)
        try expectAutoModeTruth(scenario, quality: 30, label: "partly hidden, auto")
    }

    @Test func aSpriteLostForASmearedFrameIsTakenBackFromACornerThatMatchedPassably() throws {
        // Case 46 of the accuracy benchmark's seed 1: a snail of 30x22 pixels on a card dimmed to a
        // third, 120 Hz, HEVC at crf 27. The frame in which its second flip starts is smeared by the
        // compression (both orientations over each other), so it is lost there; the whole-frame
        // search finds the card's bottom-left corner (0.88; the dim snail itself matches 0.87), and
        // the previous build followed that still corner to the end: a lasting turn that never
        // happened. The place left behind is matched again, and the whole appearance decides.
        let c = accuracyCase(46)
        let s = c.scenario
        #expect(
            s.sprite == .snail && s.refreshRate == 120 && c.bodyEvery == 1 && c.turns.isEmpty, "the case drawn is not the one described")
        let (r, json) = try orientation(of: c, ["--template", Self.snailPNG])
        #expect(r.status <= 1, "\(r.stderr)")
        #expect(flips(json).turns == 0, "a turn that never happened")
        expectEveryStatedFacingTrue(s, json)
    }

    @Test func aOneFrameFlipIsReadWhereTheSpriteIsNotWhereAShiftedTemplateLinesUp() throws {
        // Case 37 of the accuracy benchmark's seed 1: a car of 28 pixels on a card dimmed to a
        // third, 30 Hz, HEVC, flipped for one frame. In that frame the mirrored template matched
        // where the car was (0.91, its whole appearance 0.93), and the canonical one eight pixels
        // behind it (0.88, its whole appearance 0.34): read at two places, the frame was ambiguous
        // and the flip missed. Read at the place that shows the sprite, it is mirrored.
        let c = accuracyCase(37)
        let s = c.scenario
        try #require(s.sprite == .car && s.refreshRate == 30 && c.flips.count == 1, "the case drawn is not the one described")
        let (r, json) = try orientation(of: c, template: .car)
        #expect(r.status == 1, "a flip is a finding: \(r.stderr)")
        let got = flips(json)
        #expect(
            got.flips.count == 1 && got.flips.allSatisfy { f in c.flips.contains { $0.start == f.0 && $0.ticks == f.1 } },
            "\(got.flips), truth \(c.flips)")
        expectEveryStatedFacingTrue(s, json)
    }

    @Test func aNearSymmetricSpritesOneFrameFlipIsReadWhereItsWalkLeads() throws {
        // Case 176 of the accuracy benchmark's seed 1: a drop of 36 pixels on a card dimmed to a
        // third, 60 Hz, H.264 at crf 33 with B-frames, mirrored for one frame. A drop mirrored is
        // nearly itself a few pixels over: in that frame the template matched 2 px behind the walk
        // (0.83) and its mirror image where the walk led (0.70), and the frame was left ambiguous
        // (the flip missed). Read both ways where the walk leads (template mode), it is mirrored.
        let c = accuracyCase(176)
        let s = c.scenario
        try #require(
            s.sprite == .drop && s.refreshRate == 60 && c.bFrames == 2 && c.flips.count == 1 && c.flips[0].ticks == 1,
            "the case drawn is not the one described")
        let (r, json) = try orientation(of: c, template: .drop)
        _ = try expectExactFlips(of: c, r, json)
        expectEveryStatedFacingTrue(s, json)
    }

    @Test func aDimDropThatJumpsBackMirroredIsFoundByItsHueAndItsFlipsCounted() throws {
        // Case 93 of the accuracy benchmark's seed 1: a drop of 36 pixels (18 at working scale) on a
        // card dimmed to a third, 120 Hz, re-armed: each tap sends it back to its start, mirrored.
        // Found again there, its colour pattern (a third of its strength, its chroma halved and
        // compressed) was noise that correlated with nothing, and the place was refused for its
        // colour: the sprite was lost through every flip. The hue alone decides there now. The second
        // flip ends in a frame where the sprite is lost, with the facing before confidently after it:
        // a flip, that frame named, not an undecided change.
        let c = accuracyCase(93)
        let s = c.scenario
        try #require(
            s.sprite == .drop && s.refreshRate == 120 && c.rearmed && c.flips.count == 3, "the case drawn is not the one described")
        let (r, json) = try orientation(of: c, template: .drop)
        #expect(r.status == 1, "flips are findings: \(r.stderr)")
        let got = flips(json)
        for flip in c.flips.dropFirst() {
            #expect(got.flips.contains { $0 == (flip.start, flip.ticks) }, "flip \(flip): \(got.flips)")
        }
        #expect(got.flips.allSatisfy { f in c.flips.contains { $0.start == f.0 && $0.ticks == f.1 } }, "\(got.flips), truth \(c.flips)")
        #expect(got.turns == 0)
        expectEveryStatedFacingTrue(s, json)
    }

    @Test func aDimBirdWhoseLumaBarelyLeavesTheCardIsFoundByAHalfThresholdLook() throws {
        // Case 184 of the accuracy benchmark's seed 1: a blue bird of 36 pixels on a dark card at
        // 0.6 of the light, 1x, HEVC, its body redrawn every third refresh, re-armed. The frame's
        // contrast (the light bezel against the dark card) set the change threshold at 23 levels;
        // the bird's luma differs from the card's by less, so no component formed where it flipped
        // and auto mode never located it. Looked at again with half the threshold, it is found.
        let c = accuracyCase(184)
        let s = c.scenario
        try #require(
            s.sprite == .bird && s.brightness == 0.6 && c.rearmed && c.flips.count == 2 && c.turns.count == 1,
            "the case drawn is not the one described")
        let (r, json) = try orientation(of: c)
        _ = try expectExactFlips(of: c, r, json)
        expectExactTurns(of: c, json)
    }

    @Test func aOneFrameFlipAtAJumpBackIsReadWhereTheCarLandedInAutoMode() throws {
        // Case 180 of the accuracy benchmark's seed 1: a car of 56 pixels, 1x, 60 Hz, re-armed; its
        // third flip is one frame, at the jump back. Auto mode read that frame at the old place,
        // where its appearance (cut with the ground around the car) still matched at 0.85, the
        // wrong way round at confidence 0.86. The match fell by more than 0.1: the whole frame is
        // searched, and the mirrored car is read where it landed.
        let c = accuracyCase(180)
        let s = c.scenario
        try #require(
            s.sprite == .car && s.refreshRate == 60 && c.rearmed && c.flips.count == 3 && c.flips[2].ticks == 1,
            "the case drawn is not the one described")
        let (r, json) = try orientation(of: c)
        let got = try expectExactFlips(of: c, r, json)
        #expect(got.turns == 0)
    }

    @Test func aFlipWhoseChangedBoxRainWidenedOnOneSideIsAMirrorEvent() throws {
        // Case 110 of the accuracy benchmark's seed 1: a bird of 36 pixels, 1x, HEVC at crf 30, in
        // heavy rain. Streaks redrawn beside it as it turned widened the changed box on one side:
        // its axis lay 3 to 5 pixels off the box's centre, beyond the axes tried, and auto mode saw
        // no mirror event in the whole capture.
        let c = accuracyCase(110)
        let s = c.scenario
        try #require(s.sprite == .bird && c.flips.count == 2 && !c.rearmed && c.turns.isEmpty, "the case drawn is not the one described")
        try expectAutoModeReadsExactly(c)
    }

    @Test func aDimDropTurningInRainIsFoundWithoutTheStreaks() throws {
        // Case 21 of the accuracy benchmark's seed 1: a drop of 27 pixels on a card at a third of
        // the light, H.264 with B-frames, in rain; only its eyes tell its facings apart. The streaks
        // falling beside it as it turned joined its changed blocks: no group was dense enough, or
        // explained by a mirror, and auto mode saw no mirror event. Without the thin bright lines
        // the turn is plain, and both flips and the lasting turn are read.
        let c = accuracyCase(21)
        let s = c.scenario
        try #require(
            s.sprite == .drop && s.brightness < 0.4 && c.flips.count == 2 && c.turns == [103], "the case drawn is not the one described")
        try expectAutoModeReadsExactly(c)
    }

    @Test func aOneFrameFlipSeenOnlyAtItsEndStartsATrack() throws {
        // Case 37 of the accuracy benchmark's seed 1: a car of 28 pixels at a third of the light,
        // mirrored for one frame (#13). Without its thin bright lines (the headlight), the turn into
        // the flip shows no event; the turn back does, but the appearance it cuts, mirrored, was
        // looked for in the frame before the flip only the same way round, and refused.
        let c = accuracyCase(37)
        let s = c.scenario
        try #require(
            s.sprite == .car && s.brightness < 0.4 && c.flips.count == 1 && c.flips[0].ticks == 1 && c.turns.isEmpty,
            "the case drawn is not the one described")
        try expectAutoModeReadsExactly(c)
    }

    @Test func aTurnBlurredByCompressionIsTestedWithoutTheCodingNoise() throws {
        // Case 133 of the accuracy benchmark's seed 1: a drop of 27 pixels, HEVC at crf 27, its body
        // drawn every third refresh. Each turn changed enough blocks, but with the coding noise the
        // mirror's error was just over half a shift's of a pixel or two (6.3 against 12.3), which
        // is taken for crawling, and auto mode saw no mirror event in the whole capture. In the
        // frames blurred over 3 x 3 pixels the noise falls more than the shift's error does.
        let c = accuracyCase(133)
        let s = c.scenario
        try #require(s.sprite == .drop && c.bodyEvery == 3 && c.flips.count == 2, "the case drawn is not the one described")
        try expectAutoModeReadsExactly(c)
    }

    @Test func aSmallCarAtCrf32IsFoundInAutoModeToo() throws {
        // Case 23 again (see the template test above), without a template: the car's mirror error
        // at its flip's end was 0.507 of the change's (0.5 accepted), and the capture had no mirror
        // event. Blurred and with the axis placed to a quarter pixel, the flip's end is one.
        let c = accuracyCase(23)
        try #require(c.scenario.sprite == .car && c.flips.count == 1 && c.turns.count == 1, "the generator changed: \(c.scenario)")
        try expectAutoModeReadsExactly(c)
    }

    @Test func aSmallSnailRearmedUnderHeavyCompressionIsFoundByItsBlurredChange() throws {
        // Case 69 of the accuracy benchmark's seed 1: a snail of 30 pixels, 120 Hz, HEVC at crf 33,
        // drawn every third refresh, re-armed by each tap. In the sharp frames its turns' changes
        // were scattered among coding noise: groups too sparse, or whose mirror explained too
        // little of the change, or no more than a small shift did. Counted in the frames blurred
        // over 3 x 3 pixels, a turn is one group, and a mirror.
        let c = accuracyCase(69)
        let s = c.scenario
        try #require(
            s.sprite == .snail && s.refreshRate == 120 && c.bodyEvery == 3 && c.rearmed && c.flips.count == 3,
            "the case drawn is not the one described")
        try expectAutoModeReadsExactly(c)
    }

    @Test func aTrackThatSawAWholeFlipInPlaceOutlivesAnAmbiguousFrameOnProbation() throws {
        // Case 193 of the accuracy benchmark's seed 1: a car of 42 pixels, bouncing, HEVC at crf 34,
        // drawn every third refresh (20 frames a second). Its track started at the flip's first
        // frame, read it mirrored for five frames and back for four, then met one ambiguous frame
        // within its 12 frames of probation, and was given up: no flip. A track read without a break,
        // where it turned, through the turn and back, has shown what no UI lookalike did.
        let c = accuracyCase(193)
        let s = c.scenario
        try #require(
            s.sprite == .car && c.bodyEvery == 3 && s.bounce > 0 && c.flips.count == 1 && c.turns.isEmpty,
            "the case drawn is not the one described")
        try expectAutoModeReadsExactly(c)
    }

    @Test func aNearSymmetricDropWhoseTurnChangesTwoBlocksIsFound() throws {
        // Case 197 of the accuracy benchmark's seed 1: a drop of 54 pixels on a 3x capture (18 at
        // the working resolution), HEVC at crf 24, mirrored for three frames. Only its highlight and
        // its pupils change when it turns: a strip a few pixels high in two blocks, which no group of
        // three blocks held, and auto mode never found the sprite.
        let c = accuracyCase(197)
        let s = c.scenario
        try #require(
            s.sprite == .drop && s.pixelScale == 3 && c.flips.count == 1 && c.turns.isEmpty,
            "the case drawn is not the one described")
        try expectAutoModeReadsExactly(c)
    }

    @Test func autoModeReadsAReArmedSnailBackBeyondTheEdgeByThePartInView() throws {
        // Case 194 again, without a template: the track its first flip started lost the snail when
        // the second and third taps sent it back to its start, half beyond the card's edge, where the
        // appearance matches nowhere whole (the build before: both flips missed, those frames
        // unknown). The part in view is read, as template mode reads it.
        let c = accuracyCase(194)
        try #require(c.rearmed && c.occluded && c.flips.count == 3 && c.turns.isEmpty, "the generator changed: \(c.scenario)")
        try expectAutoModeReadsExactly(c)
    }

    /// Runs auto mode on accuracy case `c` and expects exactly its flips and lasting turns, and
    /// every facing it states true.
    private func expectAutoModeReadsExactly(_ c: AccuracyCase) throws {
        let (r, json) = try orientation(of: c)
        _ = try expectExactFlips(of: c, r, json)
        expectExactTurns(of: c, json)
        expectEveryStatedAutoFacingTrue(c.scenario, json, bodyEvery: c.bodyEvery)
    }

    /// Auto mode names facings by the one its track began with ("initial", "mirrored"): every frame
    /// it names "initial" faces the same way in the scenario, and every "mirrored" frame the other
    /// way (one frame per tick).
    private func expectEveryStatedAutoFacingTrue(_ scenario: WalkScenario, _ json: [String: Any], bodyEvery: Int = 1) {
        let frames = (json["orientation"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
        #expect(frames.count == (scenario.ticks + bodyEvery - 1) / bodyEvery)
        var initialFacesRight: Bool?
        for f in frames {
            guard let frame = f["index"] as? Int, let facing = f["facing"] as? String, facing != "unknown" else { continue }
            let i = frame * bodyEvery
            let right = scenario.state(at: i).facingRight
            let initialIsRight = facing == "initial" ? right : !right
            if initialFacesRight == nil { initialFacesRight = initialIsRight }
            #expect(initialIsRight == initialFacesRight, "frame #\(i): \(facing), truth facing \(right ? "right" : "left")")
        }
    }

    @Test func aOneFrameFlipBlendedByCompressionIsNeverReadAsNoFlip() throws {
        // Case 176 of the accuracy benchmark's seed 1: a dim drop (a third of the light) at crf 33
        // with B-frames, mirrored for one frame (#20). The encoder blended that frame with its
        // neighbours: the unmirrored template still matched it better (0.83 against 0.70), and the
        // build before read every frame facing right, a capture with a flip passed. Its evidence
        // leans toward the mirror against both neighbours: it is unknown, and nothing passes on it.
        let c = accuracyCase(176)
        let s = c.scenario
        try #require(
            s.sprite == .drop && s.brightness < 0.4 && c.flips.count == 1 && c.flips[0].start == 20 && c.flips[0].ticks == 1,
            "the case drawn is not the one described")
        let (r, json) = try orientation(of: c, template: .drop)
        #expect(r.status <= 1, "\(r.stderr)")
        let frames = (json["orientation"] as? [String: Any])?["frames"] as? [[String: Any]] ?? []
        let flipped = frames.first { $0["index"] as? Int == 20 }
        #expect(flipped?["facing"] as? String != "right", "frame #20: \(flipped ?? [:])")
        let got = flips(json)
        let unknown = (json["unknown"] as? [Any])?.count ?? 0
        #expect(!got.flips.isEmpty || unknown > 0, "no flip and nothing unknown: the capture would pass")
        expectEveryStatedFacingTrue(s, json)
    }

    @Test func a120HzCaptureMeasuresRefreshesOf8Point3Ms() throws {
        let dir = TestSupport.temporaryDirectory("120")
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = WalkScenario(refreshRate: 120, ticks: 240, speed: 40, mirroredTicks: [60, 150, 151, 152])
        let path = dir.appendingPathComponent("120.mov").path
        try write(scenario, to: path)
        let (r, json) = try orientation(path)
        #expect(r.status == 1, "\(r.stderr)")
        let cfr = json["cfr"] as? [String: Any]
        #expect(cfr?["fps"] as? Int == 120)
        #expect(cfr?["fps_source"] as? String == "detected")
        expectTruth(scenario, json, "120 Hz")
        let durations = (json["flips"] as? [[String: Any]] ?? []).map { $0["source_duration_ms"] as? Double ?? -1 }
        #expect(durations.count == 2 && abs(durations[0] - 8.333) < 0.01 && abs(durations[1] - 25.0) < 0.01, "\(durations)")
    }
}

/// A screen with no sprite, doing what UI does: nothing may start a track, flip or turn.
@Suite struct UIDistractorTests {
    @Test func ordinaryUIMotionIsNeverAFlipOrATurn() throws {
        let dir = TestSupport.temporaryDirectory("ui")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ui.mov").path
        let writer = try VideoWriter(
            path: path,
            settings: VideoWriter.Settings(
                codec: .h264, width: UIDistractorScene.width, height: UIDistractorScene.height, timeBase: Rational(1, 600),
                frameRate: Rational(60, 1), quality: 23, threads: 0))
        let frames = Int(UIDistractorScene.duration * 60)
        for n in 0..<frames {
            let image = RGBImage(
                width: UIDistractorScene.width, height: UIDistractorScene.height,
                pixels: UIDistractorScene.render(at: Double(n) / 60))
            try writer.append(image, pts: Int64(n) * 10, duration: 10)
        }
        try writer.finish()
        if let keep = ProcessInfo.processInfo.environment["ANALYZE_RECORDING_KEEP_CLIPS"] {
            try? FileManager.default.copyItem(atPath: path, toPath: keep + "/ui.mov")
        }
        let r = try TestSupport.tool([path, "--expect", "fixed", "--json", "-"])
        let json = try TestSupport.parseJSON(r.stdout)
        let flips = json["flips"] as? [[String: Any]] ?? [], turns = json["turns"] as? [[String: Any]] ?? []
        let at = (flips.compactMap { $0["start_s"] as? Double } + turns.compactMap { $0["at_s"] as? Double })
            .map { "\($0) s (\(UIDistractorScene.phase(at: $0)))" }
        #expect(flips.isEmpty && turns.isEmpty, "false flips/turns at \(at)")
        // No sprite was ever located, so a fixed build is not proven either: the answer stays open.
        let summary = (json["verdict"] as? [String: Any])?["summary"] as? String ?? r.stderr
        #expect(r.status == 1 && summary.hasPrefix("UNDETERMINED: no transient mirror flip; no sprite was located"), "\(summary)")

        // A bird's template on the same screen: there is no bird. Parts of the icons and pages match it
        // at 0.7–0.8 (the previous build tracked one of them), never at the 0.85 a sprite reaches.
        let birdPNG = try assetPNG(.bird, in: dir)
        let refused = try TestSupport.tool(["orientation", path, "--template", birdPNG])
        let expected = "analyze-recording: template not found in " + path + ": best match "
        #expect(refused.status == 65, Comment(rawValue: refused.stdout))
        #expect(refused.stderr.hasPrefix(expected), Comment(rawValue: refused.stderr))
    }
}
