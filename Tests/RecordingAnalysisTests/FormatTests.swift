import Testing
import RecordingAnalysis

@Suite struct FormatTests {
    /// A refusal says "best match X (Y needed)": a score just below the bar must not print as the
    /// bar itself, as `%.2f` rounds 0.8499 to 0.85 beside "0.85 needed".
    @Test func aScoreIsRoundedDownSoItNeverReadsAsTheBarItMissed() {
        #expect(Format.score(0.8499) == "0.84")
        #expect(Format.score(0.85) == "0.85")
        #expect(Format.score(0.7) == "0.70")
        #expect(Format.score(1) == "1.00")
        #expect(Format.score(-0.031) == "-0.04", "a correlation below zero reads no better than it is")
        #expect(Format.score(0.149) == "0.14")
    }
}
