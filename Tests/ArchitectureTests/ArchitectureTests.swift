import XCTest
import Foundation

/// Keeps the layout of `docs/architecture.md` true: which module imports which, and where SQL text may be
/// written. Runs over every Swift file under `Sources/`.
final class ArchitectureTests: XCTestCase {
    /// The repository root, found from this file's path (Tests/ArchitectureTests/ArchitectureTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every Swift file under Sources/, as (module, path relative to the root, contents).
    static func sources() throws -> [(module: String, path: String, text: String)] {
        let sources = root.appendingPathComponent("Sources")
        guard let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        var files: [(String, String, String)] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            let parts = relative.split(separator: "/")
            guard parts.count >= 3 else { continue }
            files.append((String(parts[1]), relative, try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.1 < $1.1 }
    }

    /// Import violations in one file of `module`.
    static func importViolations(module: String, path: String, scan: SwiftSourceScan) -> [String] {
        guard let allowed = HouseRules.allowedImports(of: module) else {
            return ["\(path): module \(module) is not placed in a layer of docs/architecture.md (HouseRules.swift)"]
        }
        return scan.imports.compactMap { imported in
            let name = imported.module
            if HouseRules.external.contains(name) || name == module || allowed.contains(name) { return nil }
            if module != "quartet" && !HouseRules.knownModules.contains(name) { return nil }  // system modules
            return "\(path):\(imported.line): \(module) must not import \(name)"
        }
    }

    /// SQL text in a file outside Storage and the Store/ folders.
    static func sqlViolations(path: String, scan: SwiftSourceScan) -> [String] {
        guard !HouseRules.mayContainSQL(path: path) else { return [] }
        return scan.literals.filter { SQLText.appears(in: $0.text) }.map {
            "\(path):\($0.line): SQL text outside Storage and Store/: \($0.text.prefix(60))"
        }
    }

    func testModulesImportOnlyWhatTheirLayerAllows() throws {
        var violations: [String] = []
        let files = try Self.sources()
        XCTAssertGreaterThan(files.count, 100, "the source tree was not found at \(Self.root.path)")
        for file in files {
            violations += Self.importViolations(module: file.module, path: file.path, scan: SwiftSourceScan(file.text))
        }
        XCTAssertEqual(violations, [], violations.joined(separator: "\n"))
    }

    func testSQLTextStaysInStorageAndStoreFolders() throws {
        var violations: [String] = []
        for file in try Self.sources() {
            violations += Self.sqlViolations(path: file.path, scan: SwiftSourceScan(file.text))
        }
        XCTAssertEqual(violations, [], violations.joined(separator: "\n"))
    }

    // The checks themselves, on made-up files: each rule must be able to fail.

    func testAnAPIModuleImportingAnotherIsReported() {
        let scan = SwiftSourceScan("import Foundation\nimport HTTP\n@testable import DatastoreAPI\n")
        XCTAssertEqual(Self.importViolations(module: "ParseAPI", path: "Sources/ParseAPI/X.swift", scan: scan),
                       ["Sources/ParseAPI/X.swift:3: ParseAPI must not import DatastoreAPI"])
    }

    func testSharedModulesCannotReachUpOrSideways() {
        let storage = SwiftSourceScan("import HTTP\n")
        XCTAssertEqual(Self.importViolations(module: "Storage", path: "p", scan: storage).count, 1)
        let http = SwiftSourceScan("import ParseAPI\n")
        XCTAssertEqual(Self.importViolations(module: "HTTP", path: "p", scan: http).count, 1)
        let core = SwiftSourceScan("import Storage\nimport COpenSSL\n")
        XCTAssertEqual(Self.importViolations(module: "Core", path: "p", scan: core).count, 1)
        let csqlite = SwiftSourceScan("import CSQLite\n")
        XCTAssertEqual(Self.importViolations(module: "ParseAPI", path: "p", scan: csqlite).count, 1)
    }

    func testTheExecutableImportsOnlyApp() {
        let scan = SwiftSourceScan("import ArgumentParser\nimport Logging\nimport App\nimport Core\n")
        XCTAssertEqual(Self.importViolations(module: "quartet", path: "p", scan: scan), ["p:4: quartet must not import Core"])
    }

    func testAnUnplacedModuleIsReported() {
        XCTAssertEqual(Self.importViolations(module: "Gadgets", path: "p", scan: SwiftSourceScan("")).count, 1)
    }

    func testSQLInALiteralOutsideStoreIsReportedButNotInCommentsOrStore() {
        let source = """
            // SELECT * FROM comments is prose
            /* DELETE FROM nested /* comment */ still prose */
            let a = "SELECT objectId FROM parse_objects WHERE id = ?"
            let b = \"\"\"
                UPDATE t SET x = 1
                \"\"\"
            let c = #"json_extract(data, '$.a')"#
            let d = "Selected \\(count) objects"
            let e = "text MATCH ?"
            """
        let scan = SwiftSourceScan(source)
        let found = Self.sqlViolations(path: "Sources/ParseAPI/Query/X.swift", scan: scan)
        XCTAssertEqual(found.map { $0.split(separator: ":")[1] }, ["3", "4", "7", "9"])
        XCTAssertEqual(Self.sqlViolations(path: "Sources/ParseAPI/Store/X.swift", scan: scan), [])
        XCTAssertEqual(Self.sqlViolations(path: "Sources/Storage/X.swift", scan: scan), [])
    }

    func testInterpolationAndEscapesDoNotEndALiteral() {
        let scan = SwiftSourceScan(#"let s = "a \"b\" \(f("x")) c"; let t = "SELECT 1 ""#)
        XCTAssertEqual(scan.literals.count, 2)
        XCTAssertTrue(SQLText.appears(in: scan.literals[1].text))
        XCTAssertFalse(SQLText.appears(in: scan.literals[0].text))
    }
}
