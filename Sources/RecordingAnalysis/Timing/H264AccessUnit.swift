/// An H.264 access unit as a packet carries it: NAL units, each behind a big-endian length
/// (`avcC`, as in MP4 and QuickTime) or after a start code (Annex B, as in MPEG-TS).
///
/// libavcodec's H.264 decoder marks a frame key only when it is an IDR picture, while encoders
/// (x264 at a scene cut too close to the last IDR) flag non-IDR I pictures as sync samples, and
/// the parser reports those as key frames too: the slice's NAL unit type tells them apart.
public enum H264AccessUnit {
    /// The NAL unit type of an IDR picture's slices.
    static let idrSliceType: UInt8 = 5

    /// The size of each NAL unit's length prefix stated by an `avcC` configuration record (its first
    /// byte is 1; the low two bits of its fifth byte are the size minus one), or nil when
    /// `extradata` is not one (Annex B, or none).
    public static func lengthSize(extradata: UnsafeRawBufferPointer) -> Int? {
        guard extradata.count >= 7, extradata[0] == 1 else { return nil }
        return Int(extradata[4] & 0x03) + 1
    }

    /// Whether the access unit holds a slice of an IDR picture. `lengthSize`: the NAL units' length
    /// prefix size (see `lengthSize(extradata:)`); nil: they follow start codes. A unit whose length
    /// runs past the end stops the scan.
    public static func containsIDRSlice(_ bytes: UnsafeRawBufferPointer, lengthSize: Int?) -> Bool {
        if let lengthSize {
            guard (1...4).contains(lengthSize) else { return false }
            var i = 0
            while i + lengthSize < bytes.count {
                var length = 0
                for k in 0..<lengthSize { length = length << 8 | Int(bytes[i + k]) }
                let header = i + lengthSize
                guard length > 0, length <= bytes.count - header else { return false }
                if bytes[header] & 0x1F == idrSliceType { return true }
                i = header + length
            }
            return false
        }
        var i = 0
        while i + 3 < bytes.count {
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                if bytes[i + 3] & 0x1F == idrSliceType { return true }
                i += 3
            } else {
                i += 1
            }
        }
        return false
    }
}
