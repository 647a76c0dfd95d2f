import Foundation
import Testing
@testable import RecordingAnalysis

@Suite struct JSONValueTests {
    @Test func keepsKeyOrderAndParsesBack() throws {
        let value: JSONValue = .object([
            ("z", .int(1)), ("a", .double(0.1 + 0.2)), ("s", .string("q\"\n\u{1}")),
            ("n", .null), ("list", .array([.bool(true), .object([("k", .int(-3))])]))
        ])
        for indent in [0, 2] {
            let text = value.serialized(indent: indent)
            #expect(text.range(of: "\"z\"")!.lowerBound < text.range(of: "\"a\"")!.lowerBound)
            let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            #expect(parsed?["a"] as? Double == 0.3)
            #expect(parsed?["s"] as? String == "q\"\n\u{1}")
            #expect((parsed?["list"] as? [Any])?.count == 2)
        }
    }

    @Test func nonFiniteNumbersBecomeNull() {
        #expect(JSONValue.double(.nan).serialized() == "null")
        #expect(JSONValue.double(-0.0001, decimals: 3).serialized() == "0.0")
    }

    @Test func rowsMadeOneAtATimeWriteExactlyAsAnArray() {
        let items: [JSONValue] = (0..<5).map { i in .object([("line", .int(Int64(i))), ("facing", .string(i % 2 == 0 ? "R" : "L"))]) }
        let words: [JSONValue] = ["a", "b\"", "c"].map { .string($0) }
        let eager: JSONValue = .object([("n", .int(5)), ("list", .array(items)), ("empty", .array([])), ("words", .array(words))])
        let lazy: JSONValue = .object([
            ("n", .int(5)), ("list", .rows(count: 5) { items[$0] }), ("empty", .rows(count: 0) { _ in .null }),
            ("words", .rows(count: 3) { words[$0] })
        ])
        for indent in [0, 2] { #expect(lazy.serialized(indent: indent) == eager.serialized(indent: indent)) }
    }
}
