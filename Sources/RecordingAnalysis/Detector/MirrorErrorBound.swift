/// Lower bounds on the mirror error of a region at each axis, from the sums of its columns and of
/// its rows in a new image and in an old image's reversed rows (`MirrorEventFinder.reversedRows`).
///
/// By the triangle inequality, the sum over an axis's columns of |new column sum − mirrored old
/// column sum|, and likewise over its rows, is at most the mirror error's sum of pixel differences
/// there. An axis whose sums already differ by more than the error allowed is given up without
/// reading its pixels. Column sums tell most axes of a sideways change apart; row sums those of
/// a change that moved up or down (scrolled text, whose every line is a group of changed pixels).
struct MirrorErrorBound {
    private let newColumnSums: [Int32]
    private let reversedColumnSums: [Int32]
    /// Each row's running sums along the columns: row y's sum over columns first + a ..< first + b
    /// is `prefix[y * (count + 1) + b] − prefix[y * (count + 1) + a]`.
    private let newRowPrefix: [Int32]
    private let reversedRowPrefix: [Int32]
    private let newFirst: Int
    private let reversedFirst: Int
    private let rows: Int

    /// Sums of `new`'s columns `newColumns` and of `reversed`'s columns `reversedColumns` (both
    /// clipped to the image) over `tight`'s rows; `reversed` holds those rows only.
    init(reversed: GrayImage, new: GrayImage, tight: PixelRect, newColumns: Range<Int>, reversedColumns: Range<Int>) {
        let rowRange = max(0, tight.y)..<min(new.height, tight.maxY)
        let newRange = newColumns.clamped(to: 0..<new.width)
        let reversedRange = reversedColumns.clamped(to: 0..<reversed.width)
        newFirst = newRange.lowerBound
        reversedFirst = reversedRange.lowerBound
        rows = rowRange.count
        (newColumnSums, newRowPrefix) = Self.sums(of: new, rows: rowRange, columns: newRange)
        (reversedColumnSums, reversedRowPrefix) = Self.sums(
            of: reversed, rows: (rowRange.lowerBound - tight.y)..<(rowRange.upperBound - tight.y), columns: reversedRange)
    }

    private static func sums(of image: GrayImage, rows: Range<Int>, columns: Range<Int>) -> (columns: [Int32], rowPrefix: [Int32]) {
        var columnSums = [Int32](repeating: 0, count: columns.count)
        let stride = columns.count + 1
        var prefix = [Int32](repeating: 0, count: max(0, rows.count) * stride)
        guard !columns.isEmpty, !rows.isEmpty, rows.lowerBound >= 0, rows.upperBound <= image.height else { return (columnSums, prefix) }
        image.pixels.withUnsafeBufferPointer { px in
            columnSums.withUnsafeMutableBufferPointer { out in
                prefix.withUnsafeMutableBufferPointer { pre in
                    guard let base = px.baseAddress, let s = out.baseAddress, let p = pre.baseAddress else { return }
                    for (r, y) in rows.enumerated() {
                        let row = base + y * image.width + columns.lowerBound
                        for i in 0..<columns.count { s[i] &+= Int32(row[i]) }
                        let line = p + r * stride
                        var running: Int32 = 0
                        for i in 0..<columns.count {
                            running &+= Int32(row[i])
                            line[i + 1] = running
                        }
                    }
                }
            }
        }
        return (columnSums, prefix)
    }

    /// The larger of Σ over i in 0..<count of |new column (newColumn + i) − reversed column
    /// (reversedColumn + i)| and Σ over the rows of |new row sum − reversed row sum| over those
    /// columns; 0 (no bound) when a column is outside those summed.
    func lowerBound(newColumn: Int, reversedColumn: Int, count: Int) -> Int {
        guard let (n, r) = offsets(newColumn: newColumn, reversedColumn: reversedColumn, count: count) else { return 0 }
        return max(byColumns(n, r, count), byRows(n, r, count))
    }

    /// Whether `lowerBound` exceeds `limit`; the column sums (the cheaper bound) first.
    func exceeds(_ limit: Int, newColumn: Int, reversedColumn: Int, count: Int) -> Bool {
        guard let (n, r) = offsets(newColumn: newColumn, reversedColumn: reversedColumn, count: count) else { return false }
        return byColumns(n, r, count) > limit || byRows(n, r, count) > limit
    }

    private func offsets(newColumn: Int, reversedColumn: Int, count: Int) -> (Int, Int)? {
        let n = newColumn - newFirst, r = reversedColumn - reversedFirst
        guard count > 0, n >= 0, r >= 0, n + count <= newColumnSums.count, r + count <= reversedColumnSums.count else { return nil }
        return (n, r)
    }

    private func byColumns(_ n: Int, _ r: Int, _ count: Int) -> Int {
        // At most 255 · rows · columns: 32 bits hold that for any region of a working-resolution
        // frame, and the loop vectorises in them.
        guard 255 * rows * count <= Int(Int32.max) else {
            return (0..<count).reduce(0) { $0 + abs(Int(newColumnSums[n + $1]) - Int(reversedColumnSums[r + $1])) }
        }
        var sum: Int32 = 0
        newColumnSums.withUnsafeBufferPointer { a in
            reversedColumnSums.withUnsafeBufferPointer { b in
                guard let a = a.baseAddress, let b = b.baseAddress else { return }
                for i in 0..<count {
                    let d = a[n &+ i] &- b[r &+ i]
                    sum &+= d < 0 ? 0 &- d : d
                }
            }
        }
        return Int(sum)
    }

    private func byRows(_ n: Int, _ r: Int, _ count: Int) -> Int {
        var sum = 0
        let newStride = newColumnSums.count + 1, reversedStride = reversedColumnSums.count + 1
        newRowPrefix.withUnsafeBufferPointer { a in
            reversedRowPrefix.withUnsafeBufferPointer { b in
                for y in 0..<rows {
                    let newRow = a[y * newStride + n + count] - a[y * newStride + n]
                    let reversedRow = b[y * reversedStride + r + count] - b[y * reversedStride + r]
                    sum += Int(abs(newRow - reversedRow))
                }
            }
        }
        return sum
    }
}
