import Foundation
import MediaIO
import RecordingAnalysis

/// Auto mode's detector fed on a thread of its own while it has no track, so that looking for a
/// mirror event in one frame pair overlaps decoding and converting the next frames (a UI recording
/// or a fixed build is searched this way from its first frame to its last).
///
/// The decoding thread hands over each frame's whole gray image and colour channel
/// (`submit`); this thread feeds them in order exactly as the decoding thread would have, giving
/// the detector the region it asks for cut from the whole image (`GrayRegionRule`). Once the
/// detector has started a track it asks for regions, which depend on the frame before: the
/// decoding thread then takes the detector back (`finish`) and feeds the rest itself.
final class DetectorFeedThread: @unchecked Sendable {
    private struct Item {
        let index: Int
        let gray: GrayImage
        let colour: GrayImage
        let rule: GrayRegionRule
    }

    private let condition = NSCondition()
    private var queue: [Item] = []
    private var detector: MirrorDetector
    private var tracking = false
    private var closed = false
    private var done = false
    /// Frames handed over and not yet fed, at most: two keep the threads busy; more only hold memory.
    private let depth = 2

    init(_ detector: MirrorDetector) {
        self.detector = detector
        let thread = Thread { [self] in run() }
        thread.name = "detector"
        thread.start()
    }

    /// Whether the detector has started a track, so frames must now be fed where they are decoded.
    var hasTrack: Bool {
        condition.lock()
        defer { condition.unlock() }
        return tracking
    }

    /// Hands over frame `index` (waits while `depth` frames are still to be fed).
    func submit(index: Int, gray: GrayImage, colour: GrayImage, rule: GrayRegionRule) {
        condition.lock()
        while queue.count >= depth { condition.wait() }
        queue.append(Item(index: index, gray: gray, colour: colour, rule: rule))
        condition.signal()
        condition.unlock()
    }

    /// Waits until every frame handed over is fed, ends the thread and returns the detector.
    func finish() -> MirrorDetector {
        condition.lock()
        closed = true
        condition.broadcast()
        while !done { condition.wait() }
        let result = detector
        condition.unlock()
        return result
    }

    private func run() {
        condition.lock()
        while true {
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty { break }
            let item = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            detector.feed(index: item.index, whole: item.gray, rule: item.rule, colour: item.colour)
            let started = detector.template != nil
            condition.lock()
            if started { tracking = true }
        }
        done = true
        condition.broadcast()
        condition.unlock()
    }
}
