/// The column sums, over a region's rows, of a new image and of an old image's reversed rows
/// (`MirrorEventFinder.reversedRows`).
///
/// By the triangle inequality, the sum over an axis's columns of |new column sum − mirrored old
/// column sum| is at most the mirror error's sum of pixel differences there. An axis whose column
/// sums already differ by more than the error allowed is given up without reading its pixels:
/// most axes of a wide group of changed UI pixels are.
struct MirrorColumnSums {
    private let newSums: [Int32]
    private let newFirst: Int
    private let reversedSums: [Int32]
    private let reversedFirst: Int

    /// Sums of `new`'s columns `newColumns` and of `reversed`'s columns `reversedColumns` (both
    /// clipped to the image) over `tight`'s rows; `reversed` holds those rows only.
    init(reversed: GrayImage, new: GrayImage, tight: PixelRect, newColumns: Range<Int>, reversedColumns: Range<Int>) {
        let rows = max(0, tight.y)..<min(new.height, tight.maxY)
        let newRange = newColumns.clamped(to: 0..<new.width)
        let reversedRange = reversedColumns.clamped(to: 0..<reversed.width)
        newFirst = newRange.lowerBound
        reversedFirst = reversedRange.lowerBound
        newSums = Self.columnSums(of: new, rows: rows, columns: newRange)
        reversedSums = Self.columnSums(
            of: reversed, rows: (rows.lowerBound - tight.y)..<(rows.upperBound - tight.y), columns: reversedRange)
    }

    private static func columnSums(of image: GrayImage, rows: Range<Int>, columns: Range<Int>) -> [Int32] {
        var sums = [Int32](repeating: 0, count: columns.count)
        guard !columns.isEmpty, rows.lowerBound >= 0, rows.upperBound <= image.height else { return sums }
        image.pixels.withUnsafeBufferPointer { px in
            sums.withUnsafeMutableBufferPointer { out in
                guard let base = px.baseAddress, let s = out.baseAddress else { return }
                for y in rows {
                    let row = base + y * image.width + columns.lowerBound
                    for i in 0..<columns.count { s[i] &+= Int32(row[i]) }
                }
            }
        }
        return sums
    }

    /// Σ over i in 0..<count of |new column (newColumn + i) − reversed column (reversedColumn + i)|,
    /// or 0 (no bound) when a column is outside those summed.
    func lowerBound(newColumn: Int, reversedColumn: Int, count: Int) -> Int {
        let n = newColumn - newFirst, r = reversedColumn - reversedFirst
        guard count > 0, n >= 0, r >= 0, n + count <= newSums.count, r + count <= reversedSums.count else { return 0 }
        var sum = 0
        newSums.withUnsafeBufferPointer { a in
            reversedSums.withUnsafeBufferPointer { b in
                for i in 0..<count { sum += Int(abs(a[n + i] - b[r + i])) }
            }
        }
        return sum
    }
}
