import RecordingAnalysis

/// Pulls chosen frames out of a recording as images, and writes constant-rate copies of it.
public enum FrameExtraction {
    /// Decodes `path` and returns the RGB image of every source frame in `sources` (decoder output
    /// indices), at `size` or full size. Stops decoding once all are found; with the recording's
    /// `timings`, starts at a key packet shortly before the first of them (`SeekPoint`).
    public static func rgbImages(
        path: String, sources: Set<Int>, timings: TimingScan? = nil, size: (width: Int, height: Int)? = nil
    ) throws -> [Int: RGBImage] {
        try rgbImages(path: path, sources: sources, timings: timings) { _, frame in
            try frame.rgbImage(width: size?.width, height: size?.height)
        }
    }

    /// Decodes `path` once and keeps what `make` derives from each source frame in `sources` (the
    /// frame is valid only during the call), so memory holds only the results: small tiles for
    /// evidence instead of every full frame at once.
    ///
    /// With the recording's `timings` (from a pass over the same file that decoded it cleanly),
    /// decoding starts at the key packet `SeekPoint.plan` chooses, and frames are named by their
    /// place and pts. If the demuxer lands elsewhere, or any frame after it is not the one the
    /// timings expect, or a chosen frame does not come out, everything is decoded again from the
    /// first packet: the results are those of a whole decode either way.
    public static func rgbImages<T>(
        path: String, sources: Set<Int>, timings: TimingScan? = nil, make: (Int, VideoFrame) throws -> T
    ) throws -> [Int: T] {
        // A capture that did not decode cleanly is decoded from the start: the decoder conceals damage
        // with pictures decoded before it, which a seek would not have decoded.
        if let timings, timings.integrity.isIntact,
            let point = SeekPoint.plan(packets: timings.packets, frames: timings.frames, needed: sources),
            let results = try rgbImages(path: path, sources: sources, after: point, packets: timings.packets, make: make)
        {
            return results
        }
        return try imagesFromStart(path: path, sources: sources, make: make)
    }

    /// What `make` derives from the frames `sources`, decoded from `point` of a recording whose
    /// packets in decode order are `packets`; nil when the seek cannot be trusted to give them.
    public static func rgbImages<T>(
        path: String, sources: Set<Int>, after point: SeekPoint, packets: [PacketTiming], make: (Int, VideoFrame) throws -> T
    ) throws -> [Int: T]? {
        guard packets.indices.contains(point.groupPacketIndex) else { return nil }
        let reader = try RecordingReader(path: path)
        guard reader.seek(to: point) else { return nil }
        var results: [Int: T] = [:]
        var naming = FrameNaming(after: point, packets: packets)
        var trusted = true
        try reader.decode(
            onPacket: { packet in
                if !naming.accepts(packet) {
                    trusted = false
                    throw StopDecoding()
                }
            },
            skipsUnreferenced: { naming.skips($0) },
            onFrame: { frame in
                guard let index = naming.index(ofNextFramePTS: frame.pts) else {
                    trusted = false
                    throw StopDecoding()
                }
                if sources.contains(index) { results[index] = try make(index, frame) }
                if results.count == sources.count { throw StopDecoding() }
            })
        return trusted && results.count == sources.count ? results : nil
    }

    private static func imagesFromStart<T>(path: String, sources: Set<Int>, make: (Int, VideoFrame) throws -> T) throws -> [Int: T] {
        let reader = try RecordingReader(path: path)
        var results: [Int: T] = [:]
        var index = 0
        guard let last = sources.max() else { return [:] }
        try reader.decode { frame in
            defer { index += 1 }
            if sources.contains(index) {
                results[index] = try make(index, frame)
            }
            if index >= last && results.count == sources.count { throw StopDecoding() }
        }
        return results
    }

    /// `image` resampled to `width` x `height` with libswscale (area averaging), for filmstrip tiles.
    public static func scaled(_ image: RGBImage, width: Int, height: Int) throws(MediaError) -> RGBImage {
        try ImageScaler.scale(image, width: width, height: height)
    }

    /// Writes the constant-rate video of `map`: slot k gets pts k in time base 1/R, re-encoded with
    /// H.264 (libx264) where available, MPEG-4 Part 2 otherwise. Odd dimensions are scaled to the
    /// nearest even size, which 4:2:0 video needs. Upright frames reach the encoder as decoded (copied,
    /// or converted once to 8-bit 4:2:0), without a round trip through RGB.
    /// - Returns: the codec used.
    @discardableResult
    public static func writeConstantRate(path: String, map: CFRMap, to output: String) throws -> VideoWriter.Codec {
        let reader = try RecordingReader(path: path)
        let width = max(2, reader.info.shownWidth & ~1), height = max(2, reader.info.shownHeight & ~1)
        let codec: VideoWriter.Codec = VideoWriter.isAvailable(.h264) ? .h264 : .mpeg4
        var settings = VideoWriter.Settings(
            codec: codec, width: width, height: height, timeBase: map.rate.inverse,
            frameRate: map.rate, bFrames: 0, quality: codec == .h264 ? 18 : 8,
            gopSize: 60, threads: 0)
        settings.colorimetry = reader.colorimetry
        let writer = try VideoWriter(path: output, settings: settings)
        let needed = Set(map.runs.map(\.source))
        var pending: [Int: (picture: PendingPicture, bytes: Int)] = [:]
        var pendingBytes = 0
        var nextRun = 0
        var index = 0
        try reader.decode { frame in
            defer { index += 1 }
            guard needed.contains(index) else { return }
            // Upright frames go to the encoder as decoded, as the ffmpeg CLI feeds it; a frame the
            // display matrix turns is turned in RGB first.
            let picture: PendingPicture
            let bytes: Int
            if frame.display.changesFrames {
                let image = try frame.rgbImage(width: width, height: height)
                (picture, bytes) = (.rgb(image), image.pixels.count)
            } else {
                (picture, bytes) = (.decoded(try OwnedFrame(referencing: frame.pointer)), 3 * frame.storedWidth * frame.storedHeight)
            }
            pending[index] = (picture, bytes)
            pendingBytes += bytes
            if pendingBytes > Limits.pendingEncodeBytes {
                throw MediaError(
                    kind: .invalidData, operation: "cfr --output",
                    message: "\(path): frames are too far out of presentation order to write a constant-rate copy")
            }
            while nextRun < map.runs.count, let (picture, bytes) = pending[map.runs[nextRun].source] {
                let run = map.runs[nextRun]
                for k in run.firstSlot..<(run.firstSlot + run.count) {
                    switch picture {
                    case .rgb(let image): try writer.append(image, pts: k, duration: 1)
                    case .decoded(let owned): try writer.append(picture: owned.pointer, pts: k, duration: 1)
                    }
                }
                pendingBytes -= bytes
                pending[run.source] = nil
                nextRun += 1
            }
        }
        guard nextRun == map.runs.count else {
            throw MediaError(
                kind: .invalidData, operation: "cfr --output", message: "\(path): the recording ended before every mapped frame was decoded"
            )
        }
        try writer.finish()
        return codec
    }
}

/// A frame waiting for its run of slots in `FrameExtraction.writeConstantRate`: the decoder's picture
/// itself (a reference to its buffers), or its RGB image when it had to be turned.
private enum PendingPicture {
    case decoded(OwnedFrame)
    case rgb(RGBImage)
}
