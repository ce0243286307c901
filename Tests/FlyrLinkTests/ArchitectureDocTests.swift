import XCTest

/// docs/architecture.md's source tree is the tree: every target under Sources/ and every folder of
/// the library is named there, and it names none that is gone.
final class ArchitectureDocTests: XCTestCase {
    /// The tree's block: the targets (`Sources/A, B` lines) and the library's folders (`  Name/` lines).
    func documented() throws -> (targets: Set<String>, folders: Set<String>) {
        let text = try String(contentsOf: TestPaths.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = try XCTUnwrap(text.components(separatedBy: "## The source tree").dropFirst().first)
        let block = try XCTUnwrap(section.components(separatedBy: "```").dropFirst().first)
        var targets: Set<String> = [], folders: Set<String> = []
        for line in block.split(separator: "\n").map(String.init) {
            if line.hasPrefix("Sources/") {
                let names = line.dropFirst("Sources/".count).components(separatedBy: "  ").first ?? ""
                for name in names.split(separator: ",") { targets.insert(name.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "/", with: "")) }
            } else if let m = line.wholeMatch(of: #/  ([A-Z][A-Za-z]+)/\s.*/#) {
                folders.insert(String(m.1))
            }
        }
        return (targets, folders)
    }

    func directories(in path: String) throws -> Set<String> {
        let url = TestPaths.root.appendingPathComponent(path)
        return Set(try FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true && !$0.lastPathComponent.hasPrefix(".") }
            .map(\.lastPathComponent))
    }

    func testTheSourceTreeIsAsDocumented() throws {
        let (targets, folders) = try documented()
        XCTAssertTrue(targets.isSuperset(of: ["FlyrLink", "FlyrLinkCLI", "CGEOS", "CLeafTables"]) && folders.contains("Matching"), "the block is read")
        XCTAssertEqual(targets, try directories(in: "Sources"), "Sources/ against docs/architecture.md")
        XCTAssertEqual(folders, try directories(in: "Sources/FlyrLink"), "Sources/FlyrLink/ against docs/architecture.md")
    }
}
