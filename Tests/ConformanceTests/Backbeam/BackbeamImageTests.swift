import Foundation
import XCTest
import Core
#if canImport(Glibc)
import Glibc
#endif

/// Image resizing of downloads, BB-109 … BB-117 (BB-118 starts a server with a small cache:
/// `BackbeamImageCacheTests`).
final class BackbeamImageTests: BackbeamTestCase {
    /// Uploads fixture bytes and returns the file id.
    func uploadImage(_ bytes: [UInt8], name: String, type: String?, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try api.upload(file: BBFilePart(filename: name, contentType: type, bytes: bytes))
        XCTAssertEqual(r.status, 201, r.text, file: file, line: line)
        return r.id
    }

    func uploadFixture(_ name: String, type: String? = nil) throws -> (id: String, bytes: [UInt8]) {
        let bytes = try ImageFixtures.bytes(name)
        return (try uploadImage(bytes, name: name, type: type), bytes)
    }

    /// A resized download: status, what its bytes declare, and the bytes.
    func resized(_ id: String, _ query: String, file: StaticString = #filePath, line: UInt = #line) throws -> TestResponse {
        let r = try api.download("/data/file/download/\(id)/1", query: query)
        XCTAssertEqual(r.status, 200, "\(query): \(r.text.prefix(200))", file: file, line: line)
        return r
    }

    func info(_ r: TestResponse) -> ImageInfo? { ImageInfo.read(r.body) }

    func test_BB_109_fitInsideTheBox() throws {
        let (id, _) = try uploadFixture("photo-800x600.jpg", type: "image/jpeg")
        let box = try resized(id, "width=200&height=200")
        XCTAssertEqual(info(box), ImageInfo(format: "jpeg", width: 200, height: 150))
        XCTAssertEqual(box.header("Content-Type"), "image/jpeg")
        XCTAssertEqual(box.header("ETag"), "\"\(id)-1-fit-200x200\"")
        XCTAssertEqual(box.header("Cache-Control"), "public, max-age=31556926")
        XCTAssertEqual(box.header("Content-Length"), String(box.body.count))
        XCTAssertEqual(info(try resized(id, "width=200")), ImageInfo(format: "jpeg", width: 200, height: 150))
        XCTAssertEqual(info(try resized(id, "height=300")), ImageInfo(format: "jpeg", width: 400, height: 300))
        // Range applies to the variant's bytes; the variant's ETag answers 304.
        let part = try api.download("/data/file/download/\(id)/1", query: "width=200&height=200", headers: [("Range", "bytes=0-9")])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, Array(box.body.prefix(10)))
        XCTAssertEqual(part.header("Content-Range"), "bytes 0-9/\(box.body.count)")
        let cached = try api.download("/data/file/download/\(id)/1", query: "width=200&height=200",
                                      headers: [("If-None-Match", box.header("ETag") ?? "")])
        XCTAssertEqual(cached.status, 304)
    }

    /// A variant asked for again is answered from memory on the I/O thread: the same status, headers (but for
    /// `Date` and the request id) and bytes as the first answer, read from its file, for plain, ranged and
    /// conditional requests; a new version of the file or its deletion is seen at once.
    func test_BB_109_aVariantServedFromMemoryAnswersAsFromItsFile() throws {
        let (id, _) = try uploadFixture("photo-800x600.jpg", type: "image/jpeg")
        func same(_ a: TestResponse, _ b: TestResponse, _ label: String) {
            let varying: Set<String> = ["date", "x-request-id"]
            XCTAssertEqual(a.status, b.status, label)
            XCTAssertEqual(a.headers.filter { !varying.contains($0.0.lowercased()) }.map { "\($0.0): \($0.1)" },
                           b.headers.filter { !varying.contains($0.0.lowercased()) }.map { "\($0.0): \($0.1)" }, label)
            XCTAssertEqual(a.body, b.body, label)
        }
        let first = try resized(id, "width=200&height=200")
        let etag = try XCTUnwrap(first.header("ETag"))
        // A request with a form Content-Type (and no body) is answered on a worker, from the variant's file.
        let onWorker = [("Content-Type", "application/x-www-form-urlencoded")]
        for headers in [[], [("Range", "bytes=0-9")], [("Range", "bytes=-7")], [("Range", "bytes=999999-")],
                        [("If-None-Match", etag)], [("If-Modified-Since", first.header("Last-Modified") ?? "")],
                        [("Range", "bytes=0-9"), ("If-Range", "\"old\"")], [("Origin", "https://app.example.com")]] {
            let fromFile = try api.download("/data/file/download/\(id)", query: "width=200&height=200", headers: headers + onWorker)
            for _ in 0..<2 {
                same(try api.download("/data/file/download/\(id)", query: "width=200&height=200", headers: headers),
                     fromFile, "\(headers)")
            }
        }
        same(try resized(id, "width=200&height=200"), first, "again")
        XCTAssertEqual(try api.download("/data/file/download/\(id)", query: "width=200&height=200",
                                        headers: [("Range", "bytes=0-9")]).body, Array(first.body.prefix(10)))
        XCTAssertEqual(try api.download("/data/file/download/\(id)/7", query: "width=200&height=200").header("Cache-Control"),
                       "public, max-age=604800")
        // A new version is another variant, with its own tag; a deleted file is gone.
        let png = try ImageFixtures.bytes("wide.png")
        XCTAssertEqual(try api.upload(method: "PUT", path: "/data/file/upload/\(id)",
                                      file: BBFilePart(filename: "w.png", contentType: "image/png", bytes: png)).status, 200)
        let second = try api.download("/data/file/download/\(id)/2", query: "width=200&height=200")
        XCTAssertEqual(second.header("ETag"), "\"\(id)-2-fit-200x200\"")
        XCTAssertEqual(second.header("Content-Type"), "image/png")
        XCTAssertEqual(try api.download("/data/file/download/\(id)/1", query: "width=200&height=200").header("ETag"),
                       "\"\(id)-2-fit-200x200\"")
        XCTAssertEqual(try api.send("DELETE", "/data/file/\(id)").status, 200)
        assertError(BBResponse(raw: try api.download("/data/file/download/\(id)/2", query: "width=200&height=200")),
                    404, "ObjectNotFound")
    }

    func test_BB_110_neverUpscaleAndInvalidSides() throws {
        let (id, bytes) = try uploadFixture("photo-800x600.jpg", type: "image/jpeg")
        for query in ["width=2000&height=2000", "width=abc&height=-5", "width=0", "width=800&height=600"] {
            let r = try resized(id, query)
            XCTAssertEqual(r.body, bytes, query)
            XCTAssertEqual(r.header("ETag"), "\"\(id)-1\"", query)
        }
    }

    func test_BB_111_sidesClampedTo4096() throws {
        let (id, _) = try uploadFixture("wide.png", type: "image/png")
        let r = try resized(id, "width=100000")
        XCTAssertEqual(info(r), ImageInfo(format: "png", width: 4096, height: 819))
        XCTAssertEqual(r.header("Content-Type"), "image/png")
    }

    func test_BB_112_firstGIFFrameAndNonImages() throws {
        // The animated fixture is 40x30 with two frames; a fit never upscales, so the box is smaller than it.
        let (gif, original) = try uploadFixture("animated.gif", type: "image/gif")
        XCTAssertEqual(ImageInfo.read(original)?.frames, 2)
        let r = try resized(gif, "width=20")
        XCTAssertEqual(info(r), ImageInfo(format: "gif", width: 20, height: 15, frames: 1))
        XCTAssertEqual(r.header("Content-Type"), "image/gif")
        let (pdf, bytes) = try uploadFixture("not-an-image.pdf", type: "application/pdf")
        let plain = try resized(pdf, "width=50")
        XCTAssertEqual(plain.body, bytes)
        XCTAssertEqual(plain.header("Content-Type"), "application/pdf")
        // The format comes from the content, not the name or the stored type: a PNG named .jpg is resized as PNG.
        let (named, _) = try uploadFixture("png-named.jpg", type: "image/jpeg")
        XCTAssertEqual(info(try resized(named, "width=20")), ImageInfo(format: "png", width: 20, height: 15))
    }

    func test_BB_113_exifOrientation() throws {
        let turned = ImageFixtures.withOrientation(try ImageFixtures.bytes("photo-800x600.jpg"), 6)
        let r = try api.upload(file: BBFilePart(filename: "turned.jpg", contentType: "image/jpeg", bytes: turned))
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.main?["width#n"]?.int64Value, 600)
        XCTAssertEqual(r.main?["height#n"]?.int64Value, 800)
        // The variant is upright: its pixels are stored 300x400 (and it carries no orientation any more).
        XCTAssertEqual(info(try resized(r.id, "width=300")), ImageInfo(format: "jpeg", width: 300, height: 400))
    }

    func test_BB_114_decompressionBombRefusedFromTheHeader() throws {
        let (id, bytes) = try uploadFixture("bomb-50000.png", type: "image/png")
        let before = peakMemoryKiB()
        assertError(BBResponse(raw: try api.download("/data/file/download/\(id)/1", query: "width=100")), 400, "ImageTooLarge")
        assertError(BBResponse(raw: try api.download("/data/file/download/\(id)/1", query: "thumb=10x10")), 400, "ImageTooLarge")
        // Decoding 50,000 x 50,000 pixels would take gigabytes; the server's peak stays where it was.
        if let before, let after = peakMemoryKiB() { XCTAssertLessThan(after - before, 100_000) }
        // Without a resize the bytes are served as they are.
        XCTAssertEqual(try api.download("/data/file/download/\(id)/1").body, bytes)
        // The upload still reports what the header declares.
        XCTAssertEqual(try api.send("GET", "/data/file/\(id)").main?["width#n"]?.int64Value, 50_000)
    }

    func test_BB_115_truncatedImageServesTheOriginal() throws {
        let (id, bytes) = try uploadFixture("truncated.jpg", type: "image/jpeg")
        let entries = try metric("quartet_backbeam_image_cache_entries")
        for _ in 0..<2 {
            let r = try resized(id, "width=100")
            XCTAssertEqual(r.body, bytes)
            XCTAssertEqual(r.header("ETag"), "\"\(id)-1\"")
        }
        XCTAssertEqual(try metric("quartet_backbeam_image_cache_entries"), entries, "nothing cached")
        // The corrupt PNG fixture likewise.
        let (corrupt, corruptBytes) = try uploadFixture("corrupt.png", type: "image/png")
        XCTAssertEqual(try resized(corrupt, "width=10").body, corruptBytes)
        XCTAssertEqual(try metric("quartet_backbeam_image_cache_entries"), entries)
    }

    func test_BB_116_thumbGrammar() throws {
        let (id, bytes) = try uploadFixture("photo-800x600.jpg", type: "image/jpeg")
        let expected: [(String, Int, Int)] = [("100x100", 100, 100), ("100x100t", 100, 100), ("100x100b", 100, 100),
                                               ("100x100f", 100, 75), ("0x300", 400, 300), ("100x0", 100, 75),
                                               ("0x300t", 400, 300)]
        for (thumb, w, h) in expected {
            XCTAssertEqual(info(try resized(id, "thumb=\(thumb)")), ImageInfo(format: "jpeg", width: w, height: h), thumb)
        }
        for thumb in ["0x0", "100x100z", "100", "x100", "-1x5", "100x100tt"] {
            XCTAssertEqual(try resized(id, "thumb=\(thumb)").body, bytes, thumb)
        }
        // width/height win over thumb.
        XCTAssertEqual(info(try resized(id, "width=200&thumb=10x10")), ImageInfo(format: "jpeg", width: 200, height: 150))
        // The anchors: bands.png is 60x120, red at the top, green in the middle, blue at the bottom; a 30x30 cover
        // cuts rows, so top, centre and bottom crops are three different pictures of the same size.
        let (bands, _) = try uploadFixture("bands.png", type: "image/png")
        var bodies: [[UInt8]] = []
        // Each crop shows where it was cut. Scaled to 30x60, the bands are rows 0-14 red (220,30,30), 15-44 green
        // (30,200,60) and 45-59 blue (40,60,220): the top crop has red at its row 3, the centre crop green at
        // row 15, the bottom crop blue at row 26, and the centre crop no red or blue at its ends.
        let probes: [(thumb: String, y: Int, band: Int)] = [("30x30t", 3, 0), ("30x30", 15, 1), ("30x30", 1, 1), ("30x30", 28, 1),
                                                       ("30x30b", 26, 2)]
        for (thumb, y, band) in probes {
            let r = try resized(bands, "thumb=\(thumb)")
            XCTAssertEqual(info(r), ImageInfo(format: "png", width: 30, height: 30), thumb)
            if !bodies.contains(where: { $0 == r.body }) { bodies.append(r.body) }
            let pixels = try XCTUnwrap(PNGPixels(r.body), thumb)
            let pixel = try XCTUnwrap(pixels.rgb(15, y), thumb)
            let samples = [Int(pixel.r), Int(pixel.g), Int(pixel.b)]
            XCTAssertEqual(samples.indices.max { samples[$0] < samples[$1] }, band, "\(thumb) row \(y): \(samples)")
            XCTAssertGreaterThan(samples[band], 180, "\(thumb) row \(y): \(samples)")
        }
        XCTAssertEqual(Set(bodies.map { Data($0) }).count, 3)
    }

    func test_BB_117_singleFlight() throws {
        // A 5-megapixel PNG takes long enough to decode that the requests below overlap its generation.
        let (id, _) = try uploadFixture("wide.png", type: "image/png")
        let rendered = try metric("quartet_backbeam_image_variants_rendered")
        // 100 connections are opened first, then released together, each on its own thread.
        let clients = try (0..<100).map { _ in try bb.server.connect(timeout: 60) }
        defer { clients.forEach { $0.close() } }
        let results = Locked<[TestResponse?]>(Array(repeating: nil, count: 100))
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let host = "api-dev-\(projectName).example.com"
        for (i, client) in clients.enumerated() {
            done.enter()
            Thread {
                gate.wait()
                let r = try? client.request("GET", "/data/file/download/\(id)/1?width=1234", headers: [("Host", host)])
                results.withLock { $0[i] = r }
                done.leave()
            }.start()
        }
        for _ in clients { gate.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 120), .success)
        let responses = results.withLock { $0 }.compactMap { $0 }
        XCTAssertEqual(responses.count, 100)
        XCTAssertTrue(responses.allSatisfy { $0.status == 200 })
        XCTAssertEqual(Set(responses.map { Data($0.body) }).count, 1)
        XCTAssertEqual(ImageInfo.read(responses.first?.body ?? []), ImageInfo(format: "png", width: 1234, height: 247))
        XCTAssertEqual(try metric("quartet_backbeam_image_variants_rendered"), rendered + 1, "one generation for 100 requests")
    }

    /// A gauge of the server's `/metrics`.
    func metric(_ name: String) throws -> Double {
        try BackbeamImageTests.metric(name, of: bb.server)
    }

    static func metric(_ name: String, of server: TestServer) throws -> Double {
        let text = try server.request("GET", "/metrics").text
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)) ?? .nan
        }
        XCTFail("no metric \(name)")
        return .nan
    }

    /// The server process's peak resident memory (VmHWM) in KiB.
    func peakMemoryKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(bb.server.process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}

/// BB-118: a server whose variant cache holds about 30 KB.
final class BackbeamImageCacheTests: XCTestCase {
    func test_BB_118_cacheBoundWithLRUEviction() throws {
        let bound = 30_000
        let bb = try BackbeamServer(environment: ["QUARTET_BACKBEAM_IMAGES": "{\"cacheBytes\":\(bound)}"])
        defer { bb.stop() }
        let api = bb.client()
        let upload = try api.upload(file: BBFilePart(filename: "photo.jpg", contentType: "image/jpeg",
                                                     bytes: try ImageFixtures.bytes("photo-800x600.jpg")))
        XCTAssertEqual(upload.status, 201, upload.text)
        func get(_ width: Int) throws {
            let r = try api.download("/data/file/download/\(upload.id)/1", query: "width=\(width)")
            XCTAssertEqual(r.status, 200)
            XCTAssertEqual(ImageInfo.read(r.body)?.width, width)
        }
        func metric(_ name: String) throws -> Double { try BackbeamImageTests.metric(name, of: bb.server) }
        // Variants of 300-400 pixels are several KB each: twenty of them are well over the bound.
        for width in stride(from: 300, to: 400, by: 5) {
            try get(width)
            XCTAssertLessThanOrEqual(try metric("quartet_backbeam_image_cache_bytes"), Double(bound))
        }
        XCTAssertEqual(try metric("quartet_backbeam_image_variants_rendered"), 20)
        XCTAssertLessThan(try metric("quartet_backbeam_image_cache_entries"), 20, "some variants were evicted")
        // The most recently used variant is still cached; the least recently used one is rendered again.
        try get(395)
        XCTAssertEqual(try metric("quartet_backbeam_image_variants_rendered"), 20)
        try get(300)
        XCTAssertEqual(try metric("quartet_backbeam_image_variants_rendered"), 21)
        XCTAssertLessThanOrEqual(try metric("quartet_backbeam_image_cache_bytes"), Double(bound))

        // Least recently used, not first in: a variant read again after every new one survives twenty renders
        // that each evict something, while one made after it and never read again goes.
        try get(200)
        try get(205)
        let rendered = try metric("quartet_backbeam_image_variants_rendered")
        for width in stride(from: 210, to: 310, by: 5) {
            try get(width)
            try get(200)
            XCTAssertLessThanOrEqual(try metric("quartet_backbeam_image_cache_bytes"), Double(bound))
        }
        XCTAssertEqual(try metric("quartet_backbeam_image_variants_rendered"), rendered + 20, "each reading of 200 was a hit")
        try get(205)
        XCTAssertEqual(try metric("quartet_backbeam_image_variants_rendered"), rendered + 21, "205 was evicted")
    }
}
