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
        let path = Self.fixtures.appendingPathComponent("gtk4-peg-solitaire-drag.mov").path
        let r = try TestSupport.tool(["orientation", path, "--json", "-"])
        #expect(r.status == 0, "status \(r.status): \(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect((json["flips"] as? [Any])?.count == 0, "\(json["flips"] ?? "none")")
        #expect((json["turns"] as? [Any])?.count == 0, "\(json["turns"] ?? "none")")
    }
}
