import RecordingAnalysis
import Testing

/// A template's prevailing hue: its mean chroma, weighted by alpha.
@Suite struct HueAxisTests {
    /// `count` pixels of one RGBA colour.
    private func pixels(_ rgba: [UInt8], count: Int) -> [UInt8] { Array([[UInt8]](repeating: rgba, count: count).joined()) }

    @Test func aBrownSpriteHasAnOrangeBrownAxis() throws {
        // The snail's shell and body: Cb below gray, Cr above it.
        let rgba = pixels([150, 80, 30, 255], count: 50) + pixels([230, 190, 140, 255], count: 50)
        let axis = try #require(ColourChannel.HueAxis.prevailing(in: rgba, width: 10, height: 10, hasAlpha: true))
        #expect(axis.cb < -0.5 && axis.cr > 0.5, "\(axis)")
        #expect(abs(axis.cb * axis.cb + axis.cr * axis.cr - 1) < 1e-5)
        // Along it the sprite's own colours read above gray, a green button's below.
        let (shellCb, shellCr) = ColourChannel.chroma(red: 150, green: 80, blue: 30)
        let (greenCb, greenCr) = ColourChannel.chroma(red: 35, green: 170, blue: 130)
        #expect(axis.value(cb: shellCb, cr: shellCr) > 150)
        #expect(axis.value(cb: greenCb, cr: greenCr) < 110)
        #expect(axis.value(cb: 128, cr: 128) == 128)
    }

    @Test func aGraySpriteHasNone() {
        let rgba = pixels([40, 40, 40, 255], count: 50) + pixels([200, 200, 200, 255], count: 50)
        #expect(ColourChannel.HueAxis.prevailing(in: rgba, width: 10, height: 10, hasAlpha: true) == nil)
    }

    /// Transparent pixels do not count: a blue sprite cut out of a red square is blue.
    @Test func onlyWhatIsOpaqueCounts() throws {
        let rgba = pixels([30, 60, 220, 255], count: 30) + pixels([220, 20, 20, 0], count: 70)
        let axis = try #require(ColourChannel.HueAxis.prevailing(in: rgba, width: 10, height: 10, hasAlpha: true))
        #expect(axis.cb > 0.5, "blue: Cb above gray, \(axis)")
    }
}
