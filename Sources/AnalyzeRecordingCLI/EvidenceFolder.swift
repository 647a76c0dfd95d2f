import Foundation

/// The `--evidence` folder: created when missing; when reused, the files of an earlier run are
/// removed first, so a stale `flip-3.png` cannot sit beside a report that has two flips. A folder
/// holding anything else is refused rather than mixed into (or emptied).
enum EvidenceFolder {
    /// Whether `name` is a file this tool writes into an evidence folder.
    static func isEvidenceFile(_ name: String) -> Bool {
        if ["index.html", "report.json", "timeline.png"].contains(name) { return true }
        if name.hasPrefix("predicted-"), name.hasSuffix(".png"), !name.contains("/") { return true }
        guard name.hasPrefix("flip-"), name.hasSuffix(".png") else { return false }
        let middle = name.dropFirst(5).dropLast(4)
        let number = middle.hasSuffix("-closeup") ? middle.dropLast(8) : middle
        return !number.isEmpty && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
    }

    static func prepare(_ dir: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CommandFailure(status: .cannotCreate, message: "\(dir): exists and is not a directory")
            }
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
            // Atomic writes leave nothing behind, but a killed run may: the tool's own temporaries count as its files.
            let foreign = contents.filter { !isEvidenceFile($0) && !$0.hasPrefix(".") }
            guard foreign.isEmpty else {
                throw CommandFailure(
                    status: .cannotCreate,
                    message:
                        "\(dir): holds files that are not this tool's evidence (\(foreign.sorted().prefix(3).joined(separator: ", "))\(foreign.count > 3 ? ", …" : "")); give an empty or new folder"
                )
            }
            for name in contents where isEvidenceFile(name) {
                do {
                    try FileManager.default.removeItem(atPath: dir + "/" + name)
                } catch {
                    throw CommandFailure(status: .cannotCreate, message: "\(dir)/\(name): cannot remove the earlier run's file")
                }
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(status: .cannotCreate, message: "\(dir): cannot create the evidence directory")
        }
    }
}
