import Foundation
import XCTest

/// Replays every file of the seed corpora under `Fuzz/Corpus/<harness>/` through the same entry points the
/// libFuzzer driver calls. Each input must come back as a value or as the parser's own typed error; a trap
/// ends the test process, and a foreign error or broken invariant fails here.
final class CorpusReplayTests: XCTestCase {
    static let corpusRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Corpus")

    var workDirectory = ""

    override func setUpWithError() throws {
        workDirectory = NSTemporaryDirectory() + "fuzz-replay-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: workDirectory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        FuzzHarness.closeResources(workDirectory: workDirectory)
        try? FileManager.default.removeItem(atPath: workDirectory)
    }

    /// Replays one harness's corpus; returns the outcomes by file name.
    func replay(_ harness: FuzzHarness, file: StaticString = #filePath, line: UInt = #line) throws -> [String: FuzzOutcome] {
        let directory = Self.corpusRoot.appendingPathComponent(harness.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertFalse(names.isEmpty, "no corpus for \(harness.rawValue)", file: file, line: line)
        var outcomes: [String: FuzzOutcome] = [:]
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            let outcome = harness.run(bytes, workDirectory: workDirectory)
            if case .violated(let message) = outcome {
                XCTFail("\(harness.rawValue)/\(name): \(message)", file: file, line: line)
            }
            outcomes[name] = outcome
        }
        // A corpus where every input is refused (or every one accepted) exercises only one side of the
        // parser: each seed corpus holds both.
        XCTAssertTrue(outcomes.values.contains(.accepted), "\(harness.rawValue): no input accepted", file: file, line: line)
        XCTAssertTrue(outcomes.values.contains { if case .refused = $0 { return true } else { return false } },
                      "\(harness.rawValue): no input refused", file: file, line: line)
        return outcomes
    }

    func testEveryHarnessHasACorpus() throws {
        let present = Set(try FileManager.default.contentsOfDirectory(atPath: Self.corpusRoot.path))
        for harness in FuzzHarness.allCases {
            XCTAssertTrue(present.contains(harness.rawValue), "missing Fuzz/Corpus/\(harness.rawValue)")
        }
    }

    func testHTTPRequestCorpus() throws { _ = try replay(.httpRequest) }
    func testHTTPChunkedCorpus() throws { _ = try replay(.httpChunked) }
    func testMultipartCorpus() throws { _ = try replay(.multipart) }
    func testFormCorpus() throws { _ = try replay(.form) }
    func testJSONCorpus() throws { _ = try replay(.json) }
    func testParseWhereCorpus() throws { _ = try replay(.parseWhere) }
    func testRegexCorpus() throws { _ = try replay(.regex) }
    func testDatastoreChangesCorpus() throws { _ = try replay(.datastoreChanges) }
    func testCouchDocumentCorpus() throws { _ = try replay(.couchDocument) }
    func testCouchChangesCorpus() throws { _ = try replay(.couchChanges) }
    func testCouchAllDocsCorpus() throws { _ = try replay(.couchAllDocs) }
    func testCouchMultipartCorpus() throws { _ = try replay(.couchMultipart) }
    func testCouchBulkDocsCorpus() throws { _ = try replay(.couchBulkDocs) }
    func testCouchSessionCorpus() throws { _ = try replay(.couchSession) }
    func testByteRangesCorpus() throws { _ = try replay(.byteRanges) }
    func testImageRequestCorpus() throws { _ = try replay(.imageRequest) }
    func testGzipBodyCorpus() throws { _ = try replay(.gzipBody) }
    func testBackbeamBQLCorpus() throws { _ = try replay(.backbeamBQL) }
    func testBackbeamParametersCorpus() throws { _ = try replay(.backbeamParameters) }
}
