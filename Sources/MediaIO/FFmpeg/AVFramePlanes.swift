import CFFmpeg

/// Plane access for libswscale: AVFrame's `data` and `linesize` are C arrays, imported as tuples.
extension UnsafeMutablePointer where Pointee == AVFrame {
    /// Calls `body` with the frame's planes as a source for `sws_scale`.
    func withSourcePlanes<R>(_ body: (UnsafePointer<UnsafePointer<UInt8>?>, UnsafePointer<Int32>) -> R) -> R {
        withUnsafePointer(to: &pointee.data) { data in
            data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { planes in
                withUnsafePointer(to: &pointee.linesize) { sizes in
                    sizes.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { body(planes, $0) }
                }
            }
        }
    }

    /// Calls `body` with the frame's planes as a destination for `sws_scale`.
    func withDestinationPlanes<R>(_ body: (UnsafePointer<UnsafeMutablePointer<UInt8>?>, UnsafePointer<Int32>) -> R) -> R {
        withUnsafeMutablePointer(to: &pointee.data) { data in
            data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: Int(AV_NUM_DATA_POINTERS)) { planes in
                withUnsafePointer(to: &pointee.linesize) { sizes in
                    sizes.withMemoryRebound(to: Int32.self, capacity: Int(AV_NUM_DATA_POINTERS)) { body(UnsafePointer(planes), $0) }
                }
            }
        }
    }
}
