import XCTest
import Core
import Files
@testable import BackbeamAPI

/// The pieces of the file endpoints that need no server: MIME types, download versions, image settings.
final class FileUnitTests: XCTestCase {
    func testRecordedMIMEType() {
        XCTAssertEqual(FileMIME.recorded(partType: "Image/JPEG; charset=x", filename: "a.png"), "image/jpeg")
        XCTAssertEqual(FileMIME.recorded(partType: nil, filename: "a.MP3"), "audio/mpeg3")
        XCTAssertEqual(FileMIME.recorded(partType: nil, filename: "a.aif"), "audio/aiff")
        XCTAssertEqual(FileMIME.recorded(partType: "not a type", filename: "a.mov"), "video/quicktime")
        XCTAssertEqual(FileMIME.recorded(partType: "", filename: "noname.dat"), "application/octet-stream")
        XCTAssertEqual(FileMIME.servable("text/plain"), "text/plain")
        XCTAssertEqual(FileMIME.servable("a/b/c"), "application/octet-stream")
        XCTAssertEqual(FileMIME.servable("text/html\r\nX: y"), "application/octet-stream")
    }

    func testActiveTypes() {
        for type in ["text/html", "application/xhtml+xml", "image/svg+xml", "text/xml", "application/xml",
                     "application/javascript", "text/javascript", "application/x-javascript"] {
            XCTAssertTrue(FileMIME.isActive(type), type)
        }
        for type in ["image/jpeg", "text/plain", "application/pdf", "application/json"] {
            XCTAssertFalse(FileMIME.isActive(type), type)
        }
    }

    func testRequestedVersion() {
        XCTAssertEqual(FileDownloadRoutes.requestedVersion("1"), 1)
        XCTAssertEqual(FileDownloadRoutes.requestedVersion("12"), 12)
        XCTAssertEqual(FileDownloadRoutes.requestedVersion("1.0"), 1)
        XCTAssertEqual(FileDownloadRoutes.requestedVersion("2.00"), 2)
        for text in ["", "1.5", "1.", ".0", "abc", "-1", "+1", "1e3", String(repeating: "9", count: 40)] {
            XCTAssertNil(FileDownloadRoutes.requestedVersion(text), text)
        }
    }

    func testRefusedResizes() {
        let tooLarge = FileDownloadRoutes.backbeamError(.imageTooLarge(pixels: 2_500_000_000, limit: 50_000_000))
        XCTAssertEqual(tooLarge.status, .imageTooLarge)
        XCTAssertEqual(tooLarge.httpStatus, 400)
        let busy = FileDownloadRoutes.backbeamError(.busy)
        XCTAssertEqual(busy.status, .serviceUnavailable)
        XCTAssertEqual(busy.httpStatus, 503)
        let response = BackbeamResponses.error(busy, callback: nil)
        XCTAssertEqual(response.status.code, 503)
        XCTAssertEqual(response.headers["Retry-After"], "1")
    }

    func testImageSettings() throws {
        let defaults = try BackbeamConfig(JSONObject()).images
        XCTAssertEqual(defaults, ImageSettings())
        let variants = defaults.variantsConfiguration(defaultDirectory: "/d")
        XCTAssertEqual(variants.directory, "/d")
        XCTAssertEqual(variants.cacheBytes, 1 << 30)
        XCTAssertEqual(variants.maxPixels, 50_000_000)
        XCTAssertEqual(variants.maxSide, 4096)
        XCTAssertEqual(variants.queueWait, .seconds(60))
        XCTAssertGreaterThan(variants.workers, 0)
        let json = try XCTUnwrap(try JSONParser.parse("""
            {"maxUploadBytes":2048,"images":{"directory":"/v","cacheBytes":10,"maxPixels":5,"maxSide":100,"workers":3,"waitSeconds":2}}
            """).objectValue)
        let config = try BackbeamConfig(json)
        XCTAssertEqual(config.maxUploadBytes, 2048)
        let custom = config.images.variantsConfiguration(defaultDirectory: "/d")
        XCTAssertEqual(custom.directory, "/v")
        XCTAssertEqual(custom.cacheBytes, 10)
        XCTAssertEqual(custom.maxPixels, 5)
        XCTAssertEqual(custom.maxSide, 100)
        XCTAssertEqual(custom.workers, 3)
        XCTAssertEqual(custom.queueWait, .seconds(2))
        for bad in ["{\"images\":{\"nope\":1}}", "{\"images\":{\"maxSide\":0}}", "{\"maxUploadBytes\":1}"] {
            XCTAssertThrowsError(try BackbeamConfig(try XCTUnwrap(try JSONParser.parse(bad).objectValue)), bad)
        }
    }
}
