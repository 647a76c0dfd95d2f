import Testing

@testable import RecordingAnalysis

/// NAL units built by hand: an SEI then a slice of the given type, in both framings.
@Suite struct H264AccessUnitTests {
    private func lengthPrefixed(_ units: [[UInt8]], size: Int) -> [UInt8] {
        units.flatMap { unit in (0..<size).reversed().map { UInt8(truncatingIfNeeded: unit.count >> (8 * $0)) } + unit }
    }

    private func annexB(_ units: [[UInt8]]) -> [UInt8] { units.flatMap { [0, 0, 0, 1] + $0 } }

    private let sei: [UInt8] = [0x06, 0x05, 0x01, 0x00, 0x80]
    private func slice(type: UInt8) -> [UInt8] { [0x60 | type, 0x88, 0x84, 0x00, 0x00, 0x01, 0x7F] }

    @Test(arguments: [1, 2, 4]) func findsTheIDRSliceBehindLengthPrefixes(size: Int) {
        let idr = lengthPrefixed([sei, slice(type: 5)], size: size)
        let nonIDR = lengthPrefixed([sei, slice(type: 1)], size: size)
        #expect(idr.withUnsafeBytes { H264AccessUnit.containsIDRSlice($0, lengthSize: size) })
        #expect(!nonIDR.withUnsafeBytes { H264AccessUnit.containsIDRSlice($0, lengthSize: size) })
        // A length running past the end stops the scan before the slice.
        var cut = idr
        cut.removeLast()
        #expect(!cut.withUnsafeBytes { H264AccessUnit.containsIDRSlice($0, lengthSize: size) })
    }

    @Test func findsTheIDRSliceAfterStartCodes() {
        #expect(annexB([sei, slice(type: 5)]).withUnsafeBytes { H264AccessUnit.containsIDRSlice($0, lengthSize: nil) })
        #expect(!annexB([sei, slice(type: 1)]).withUnsafeBytes { H264AccessUnit.containsIDRSlice($0, lengthSize: nil) })
    }

    @Test func readsTheLengthSizeOfAnAVCCRecord() {
        let avcC: [UInt8] = [0x01, 0x64, 0x00, 0x1F, 0xFF, 0xE1, 0x00, 0x04]
        #expect(avcC.withUnsafeBytes { H264AccessUnit.lengthSize(extradata: $0) } == 4)
        let twoBytes: [UInt8] = [0x01, 0x64, 0x00, 0x1F, 0xFD, 0xE1, 0x00]
        let annexB: [UInt8] = [0x00, 0x00, 0x00, 0x01, 0x67, 0x64, 0x00]
        #expect(twoBytes.withUnsafeBytes { H264AccessUnit.lengthSize(extradata: $0) } == 2)
        #expect(annexB.withUnsafeBytes { H264AccessUnit.lengthSize(extradata: $0) } == nil)
    }
}
