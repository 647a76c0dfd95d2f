import Foundation
import MediaIO
import RecordingAnalysis

/// One decoding pass over a capture that yields its timings, its constant-rate grid and the
/// sprite's facing in every frame: what `orientation` and `analyze` share.
struct CaptureAnalysis {
    let scan: TimingScan
    let audit: TimestampAudit
    let resampler: CFRResampler
    /// The same rule's grid with FFmpeg's timestamps, when the rule repairs them.
    let ffmpegGrid: CFRMap?
    let detection: DetectionSummary
    let timeline: OrientationTimeline
    /// Recording pixels per working-resolution pixel.
    let workingFactor: Int
    /// How the grid's rate was chosen.
    let rateSource: RefreshRate.Source
    /// How each reading again got its frames, in order.
    let lookBackReads: [LookBackSource.Read]
    /// The frames that repeated the picture before them, which the detector did not read again.
    let repeats: RepeatedFrames

    /// The most a capture's whole gray images may take on disk, set aside for auto mode's look-back
    /// (`GrayImageSpill`): 256 MB, about 12 s of a 3x capture at 60 Hz before its first mirror event.
    static let spillBudget = 256 << 20

    /// Working resolution: about 400 pixels wide, so a 3x native capture is analysed at 1x.
    static func workingFactor(width: Int) -> Int { max(1, Int((Double(width) / 400).rounded())) }

    /// - Parameter onFirstMirrored: called once, on the decoding thread, with the first frame the
    ///   detector reads as mirrored while it decodes: a hint (later readings may revise it) for work
    ///   that can start before the pass is over.
    init(
        recording: String, rate givenRate: Rational?, rule: GridRule, templatePath: String?, roi: PixelRect?, transientMS: Double,
        fullDecode: Bool = false, spillBudget: Int = CaptureAnalysis.spillBudget, onFirstMirrored: ((Int) -> Void)? = nil
    ) throws {
        // The first pass in a function of its own: its reader (and the decoder's frame pool) is
        // gone before a look-back opens another.
        let first = try CaptureAnalysis.firstPass(
            recording, templatePath: templatePath, roi: roi, fullDecode: fullDecode, spillBudget: spillBudget,
            onFirstMirrored: onFirstMirrored)
        scan = first.scan
        var detector = first.detector
        let factor = first.factor, workW = first.workW, workH = first.workH, template = first.template
        // Not located anywhere, or located but never matched well enough to be sure it is the
        // sprite: on real screens a template of another sprite reaches 0.70–0.90 on icons and glyphs,
        // the sprite itself 0.86 or more in some frame of every capture measured.
        if let templatePath, detector.template == nil || !detector.confirmed {
            let c = detector.configuration
            let found: String
            if let miss = detector.template == nil ? detector.bestMiss : nil {
                found =
                    "best match \(Format.score(miss.score))"
                    + String(format: " at scale %.2f (%.2f needed)", miss.scale, c.acquireThreshold)
                    + (miss.colour.map {
                        ", but no match good enough in luma agrees in colour (best \(Format.score($0))"
                            + String(format: ", %.2f needed)", c.colourAgreement)
                    } ?? "")
            } else if detector.template != nil, let notWhole = detector.bestMatchNotWhole {
                found =
                    "best match \(Format.score(notWhole.score))"
                    + String(
                        format: " at scale %.2f, but only %d of its %d pieces match there on their own (%d needed)",
                        detector.templateScale ?? 0, notWhole.pieces, notWhole.requirement.grid * notWhole.requirement.grid,
                        notWhole.requirement.needed)
            } else if detector.template != nil {
                found =
                    "best match \(Format.score(detector.bestTrackedScore ?? 0))"
                    + String(format: " at scale %.2f (%.2f needed)", detector.templateScale ?? 0, c.sureThreshold)
            } else {
                found = "no position where it fits"
            }
            throw CommandFailure(
                status: .dataError, message: "template not found in \(recording): \(found) — is \(templatePath) this recording's sprite?")
        }
        var source = LookBackSource(recording: recording, width: workW, height: workH, fullDecode: fullDecode, spill: first.spill)
        repeats = first.repeats
        try CaptureAnalysis.lookBack(&detector, from: &source, repeats: first.repeats)
        detector.markLeaningFrames()
        detector.markUnchangedFrames()
        first.spill?.close()
        LargeBufferPolicy.returnFreedMemory()
        lookBackReads = source.reads
        audit = scan.audit
        let detected = RefreshRate.detect(pts: scan.frames.map(\.pts), timeBase: scan.info.timeBase)
        let rate = givenRate ?? detected.map { Rational(Int64($0), 1) } ?? Rational(60, 1)
        rateSource = givenRate != nil ? .given : detected != nil ? .detected : .assumed
        (resampler, ffmpegGrid) = try Grid.resample(scan, audit: audit, rate: rate, rule: rule)
        detection = DetectionSummary(detector, repeats: first.repeats, templateMode: template != nil, workingFactor: factor)
        workingFactor = factor
        let transientSlots = Int64((transientMS * rate.doubleValue / 1000).rounded(.down))
        timeline = OrientationTimeline(
            orientations: detection.orientations, map: resampler.map, placement: resampler.placement,
            transientSlots: transientSlots)
    }
}

extension CaptureAnalysis {
    /// Decodes the recording once, feeding every frame to a detector set up for it.
    static func firstPass(
        _ recording: String, templatePath: String?, roi: PixelRect?, fullDecode: Bool, spillBudget: Int, onFirstMirrored: ((Int) -> Void)?
    ) throws -> (
        scan: TimingScan, detector: MirrorDetector, factor: Int, workW: Int, workH: Int, template: SpriteTemplate?, spill: GrayImageSpill?,
        repeats: RepeatedFrames
    ) {
        // The deblocking filter only smooths block edges; the detector works on a reduced image where
        // they vanish, so it is skipped unless asked for (tests show the verdicts do not change).
        let reader = try RecordingReader(path: recording, options: DecodeOptions(skipLoopFilter: !fullDecode))
        let factor = CaptureAnalysis.workingFactor(width: reader.info.shownWidth)
        let workW = max(1, reader.info.shownWidth / factor), workH = max(1, reader.info.shownHeight / factor)
        var template: SpriteTemplate?, templateColour: SpriteTemplate?, templateHue: SpriteTemplate?
        var hueAxis: ColourChannel.HueAxis?
        if let templatePath {
            let png = try ImageFile.readPNG(templatePath)
            let t = SpriteTemplate(rgba: png.pixels, width: png.width, height: png.height, hasAlpha: true)
            guard t.contrast >= 2 else {
                throw CommandFailure(status: .dataError, message: "\(templatePath): the template is blank (no contrast to match)")
            }
            template = t
            templateColour = SpriteTemplate(colourOf: png.pixels, width: png.width, height: png.height, hasAlpha: true)
            hueAxis = ColourChannel.HueAxis.prevailing(in: png.pixels, width: png.width, height: png.height, hasAlpha: true)
            templateHue = hueAxis.map {
                SpriteTemplate(colourOf: png.pixels, width: png.width, height: png.height, hasAlpha: true, along: $0)
            }
        }
        var workingROI: PixelRect?
        if let roi {
            guard let clipped = roi.clipped(width: reader.info.shownWidth, height: reader.info.shownHeight) else {
                throw CommandFailure(
                    status: .usage, message: "--roi \(roi) lies outside the \(reader.info.shownWidth)x\(reader.info.shownHeight) recording")
            }
            workingROI = clipped.downscaled(by: factor)
        }
        var configuration = MirrorDetector.Configuration(template: template, roi: workingROI)
        configuration.templateResolution = Double(factor)
        configuration.templateColour = templateColour
        configuration.hueAxis = hueAxis
        configuration.templateHue = templateHue
        var detector = MirrorDetector(configuration)
        let progress = Progress(duration: reader.info.containerDurationSeconds, timeBase: reader.info.timeBase)
        // Until auto mode has a track, its detector runs on a thread of its own (`DetectorFeedThread`),
        // and the whole frames converted for it are set aside: once it knows the sprite it reads
        // them again, and they need not be decoded twice. (Frames fed during a track hold only a
        // region, so a look-back past a track given up decodes anyway.)
        let spill = template == nil && spillBudget > 0 ? GrayImageSpill(width: workW, height: workH, budget: spillBudget) : nil
        var feedThread = template == nil ? DetectorFeedThread(detector) : nil
        // A decoding error must not leave the thread waiting for frames.
        defer { _ = feedThread?.finish() }
        // Orientations looked at for `onFirstMirrored`, and whether it was called.
        var read = 0, hinted = false
        // The detector reads each picture once (`RepeatedFrames`); `index` below counts pictures.
        var repeats = RepeatedFrames()
        let scan = try TimingScan(reader: reader) { frame, decoded in
            defer { progress.update(frames: decoded + 1, pts: frame.pts) }
            guard let index = repeats.record(repeatsPrevious: frame.repeatsPrevious) else { return }
            if let thread = feedThread {
                if !thread.hasTrack {
                    let gray = try frame.grayImage(width: workW, height: workH)
                    let rule = frame.grayRegionRule(width: workW, height: workH)
                    spill?.keep(gray, index: index, rule: rule)
                    thread.submit(index: index, gray: gray, colour: try frame.colourChannelImage(width: workW, height: workH), rule: rule)
                    return
                }
                detector = thread.finish()
                feedThread = nil
            }
            try detector.feed(index: index, frame: frame, width: workW, height: workH)
            if let onFirstMirrored, !hinted {
                while read < detector.orientations.count, !hinted {
                    if detector.orientations[read].facing == .mirrored {
                        hinted = true
                        onFirstMirrored(repeats.firstFrame(ofPicture: read))
                    }
                    read += 1
                }
            }
        }
        if let thread = feedThread {
            detector = thread.finish()
            feedThread = nil
        }
        progress.finish()
        return (scan, detector, factor, workW, workH, template, spill, repeats)
    }

    /// Reads again the frames `detector` asks for (`MirrorDetector.lookBack`) and adopts what was
    /// read; the reading may itself ask for frames to be read again (a template located elsewhere
    /// first), up to three readings deep.
    ///
    /// `detector` counts pictures (`RepeatedFrames`: `repeats`); the reading again is fed every
    /// decoded frame before the picture asked for, repeats included, and each picture adopts the
    /// reading of its first frame. Fed pictures only, the look-back's searches came at other
    /// moments of a capture's opening, and on a real toolkit capture (a peg dragged over a board of
    /// identical cells, `RealToolkitCaptureTests`) it followed another cell and reported a flip.
    static func lookBack(_ detector: inout MirrorDetector, from source: inout LookBackSource, repeats: RepeatedFrames) throws {
        guard let (back, pictures) = detector.lookBack else { return }
        let frames = pictures < repeats.pictureCount ? repeats.firstFrame(ofPicture: pictures) : repeats.frameCount
        var read = try source.readAgain(frames: frames, with: back, repeats: repeats)
        try lookBack(&read, from: &source, depth: 1, repeats: repeats)
        detector.adoptLookBack(repeats.readingsOfPictures(read.orientations))
    }

    /// A reading again's own look-back: it counts decoded frames.
    private static func lookBack(_ detector: inout MirrorDetector, from source: inout LookBackSource, depth: Int, repeats: RepeatedFrames)
        throws
    {
        guard depth < 3, let (back, frames) = detector.lookBack else { return }
        var read = try source.readAgain(frames: frames, with: back, repeats: repeats)
        try lookBack(&read, from: &source, depth: depth + 1, repeats: repeats)
        detector.adoptLookBack(read.orientations)
    }
}

/// A progress line on stderr while decoding, only when stderr is a terminal.
final class Progress {
    private let enabled = isatty(STDERR_FILENO) != 0
    private let duration: Double?
    private let timeBase: Rational
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var firstPTS: Int64?

    init(duration: Double?, timeBase: Rational) {
        self.duration = duration
        self.timeBase = timeBase
    }

    func update(frames: Int, pts: Int64?) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.2 else { return }
        lastDraw = now
        if firstPTS == nil { firstPTS = pts }
        let elapsed = max(0.001, now.timeIntervalSince(start))
        var line = "\r\u{1B}[Kdecoding: \(frames) frames, \(Int(Double(frames) / elapsed)) fps"
        if let duration, duration > 0, let pts, let first = firstPTS {
            let t = Double(pts &- first) * timeBase.doubleValue
            line += String(format: ", %.0f%%", min(100, max(0, 100 * t / duration)))
        }
        Console.error(line)
    }

    func finish() {
        guard enabled, lastDraw != Date.distantPast else { return }
        Console.error("\r\u{1B}[K")
    }
}
