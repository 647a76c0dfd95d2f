import Foundation
import Testing
import TestSupport

/// Recordings of a real toolkit's screens (Tests/Fixtures/real, with their provenance): no sprite is
/// there, so the truth is no flip and no turn.
@Suite struct RealToolkitCaptureTests {
    static let fixtures = TestSupport.packageRoot.appendingPathComponent("Tests/Fixtures/real")

    /// Auto mode once took two board cells swapping looks for a sprite turning and read the frame
    /// before that change the other way from the identical frames before it: a one-frame flip no
    /// pixel showed. Those two frames are now unknown, and nothing is reported.
    @Test func aPegDraggedOverABoardIsNoFlip() throws {
        try expectNoFlipOrTurn(in: "gtk4-peg-solitaire-drag.mov")
    }

    /// Three gears turning: a gear's mirror image is itself turned, so one step of it can pass for a
    /// mirror event, and the track read it "mirrored" by 0.02 or less; it reported a 283 ms flip at
    /// 3.03 s. A first event must now be read mirrored by `eventMargin`.
    @Test func gearsTurningAreNoFlip() throws {
        try expectNoFlipOrTurn(in: "gtk4-gears-turning.mov")
    }

    /// Auto mode on the fixture `name` exits 0 and reports no flip and no turn.
    private func expectNoFlipOrTurn(in name: String) throws {
        let path = Self.fixtures.appendingPathComponent(name).path
        let r = try TestSupport.tool(["orientation", path, "--json", "-"])
        #expect(r.status == 0, "status \(r.status): \(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect((json["flips"] as? [Any])?.count == 0, "\(json["flips"] ?? "none")")
        #expect((json["turns"] as? [Any])?.count == 0, "\(json["turns"] ?? "none")")
    }
}
