import Testing
@testable import RecordingAnalysis

/// A 160x120 dark card (level 40, ±4 of noise) with a sprite of 30x20 at (`spriteX`, 50) (level
/// 200, its own straight sides) and, when `pageFrom` is given, a white page (235) over every row
/// from that column on.
private func card(spriteX: Int, pageFrom: Int? = nil) -> GrayImage {
    var img = GrayImage(width: 160, height: 120)
    var state: UInt64 = 11
    for y in 0..<120 {
        for x in 0..<160 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let level: Int =
                pageFrom.map { x >= $0 } == true ? 235 : (spriteX..<(spriteX + 30)).contains(x) && (50..<70).contains(y) ? 200 : 40
            img[x, y] = UInt8(clamping: level + Int(state >> 61) - 4)
        }
    }
    return img
}

@Suite struct SlidingEdgesTests {
    /// Wider than the sprite, so that its sides lie inside the box.
    let box = PixelRect(x: 50, y: 50, width: 50, height: 20)

    @Test func aPageEdgeThatMovedAcrossTheBoxCrossesIt() {
        let before = card(spriteX: 60, pageFrom: 110), now = card(spriteX: 60, pageFrom: 75)
        #expect(SlidingEdges.crossesBox(box, in: now, notIn: before))
        // The frame before, read against this one: its edge (at 110) is beyond the box.
        #expect(!SlidingEdges.crossesBox(box, in: before, notIn: now))
    }

    @Test func anEdgeThatStandsStillIsNoSlidingEdge() {
        let before = card(spriteX: 58, pageFrom: 80), now = card(spriteX: 60, pageFrom: 80)
        #expect(!SlidingEdges.crossesBox(box, in: now, notIn: before))
    }

    @Test func theSpritesOwnSidesMovingWithItAreNoSlidingEdge() {
        // A walk of 3 columns: the sprite's sides run down its 20 rows of the 100 looked at.
        let before = card(spriteX: 57), now = card(spriteX: 60)
        #expect(!SlidingEdges.crossesBox(box, in: now, notIn: before))
    }

    @Test func anAreaOutsideWhatBothFramesHoldIsNotRead() {
        let before = card(spriteX: 60, pageFrom: 110), now = card(spriteX: 60, pageFrom: 75)
        // Only the box's columns 50–68 decoded in both: the edge at 75 is not among them.
        #expect(!SlidingEdges.crossesBox(box, in: now, notIn: before, within: PixelRect(x: 0, y: 0, width: 70, height: 120)))
        #expect(SlidingEdges.crossesBox(box, in: now, notIn: before, within: PixelRect(x: 40, y: 0, width: 80, height: 120)))
        // Less than the box's rows: nothing is read.
        #expect(!SlidingEdges.crossesBox(box, in: now, notIn: before, within: PixelRect(x: 0, y: 55, width: 160, height: 65)))
    }
}
