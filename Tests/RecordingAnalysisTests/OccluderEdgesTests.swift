import Testing
@testable import RecordingAnalysis

/// A 120x60 frame: a page of level `page` left of column 12, a card of level `card` from there on,
/// with ±4 of noise, and a bright sprite of 20x20 (half the rows looked at) on the card at column 40.
private func pageAndCard(page: UInt8, card: UInt8) -> GrayImage {
    var img = GrayImage(width: 120, height: 60)
    var state: UInt64 = 7
    for y in 0..<60 {
        for x in 0..<120 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let level = x < 12 ? page : (40..<60).contains(x) && (20..<40).contains(y) ? 200 : card
            img[x, y] = UInt8(clamping: Int(level) + Int(state >> 61) - 4)
        }
    }
    return img
}

@Suite struct OccluderEdgesTests {
    @Test func aCardsEdgeRunningThroughTheRowsIsAnEdgeAndASpritesSideIsNot() {
        let edges = OccluderEdges(in: pageAndCard(page: 235, card: 40), rows: 10..<50, columns: 0..<120)
        #expect(edges.columns.first == 0 && edges.columns.last == 120)
        let inner = edges.columns.dropFirst().dropLast()
        // The step is measured two columns either side, so it shows at the columns next to 12 too.
        #expect(!inner.isEmpty && inner.allSatisfy { (10...14).contains($0) }, "\(edges.columns)")
    }

    @Test func aDimmedCardsEdgeIsStillAnEdgeAndAFaintStepIsNot() {
        let dim = OccluderEdges(in: pageAndCard(page: 90, card: 20), rows: 10..<50, columns: 0..<120)
        #expect(dim.columns.contains(12), "\(dim.columns)")
        let faint = OccluderEdges(in: pageAndCard(page: 45, card: 35), rows: 10..<50, columns: 0..<120)
        #expect(faint.columns == [0, 120])
    }

    @Test func aStretchOutsideTheImageHasOnlyItsBorders() {
        let image = pageAndCard(page: 235, card: 40)
        #expect(OccluderEdges(in: image, rows: 70..<90, columns: 0..<120).columns == [0, 120])
        #expect(OccluderEdges(in: image, rows: -30..<(-10), columns: 0..<120).columns == [0, 120])
        #expect(OccluderEdges(in: image, rows: 10..<50, columns: 130..<160).columns == [0, 120])
    }

    @Test func aPartStartsAtTheEdgeItsRestIsHiddenBeyond() {
        let edges = OccluderEdges(in: pageAndCard(page: 235, card: 40), rows: 0..<60, columns: 20..<120)
        #expect(edges.columns == [0, 120], "only the image's borders in these columns")
        // A right part (the left ten columns hidden) begins at an edge, or up to `slack` past it.
        #expect(edges.partStarts(part: 10..<40, slack: 5) == [-2...5, 118...125])
        // A left part (the right ten columns hidden) ends there.
        #expect(edges.partStarts(part: 0..<30, slack: 5) == [-35...(-28), 85...92])
    }
}
