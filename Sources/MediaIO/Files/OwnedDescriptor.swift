import Foundation

/// A file descriptor owned by Swift: closed once in `deinit`.
final class OwnedDescriptor {
    let fd: Int32

    init(_ fd: Int32) { self.fd = fd }

    deinit { close(fd) }
}
