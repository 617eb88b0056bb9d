import XCTest
import Core
import Files
import HTTP
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
        XCTAssertEqual(FileDownloadRoutes.requestedVersion("007"), 7)
        XCTAssertEqual(FileDownloadRoutes.requestedVersion(String(repeating: "9", count: 18)), 999_999_999_999_999_999)
        XCTAssertEqual(FileDownloadRoutes.requestedVersion(String(repeating: "9", count: 18) + ".000"), 999_999_999_999_999_999)
        for text in ["", "1.5", "1.", ".0", "abc", "-1", "+1", "1e3", String(repeating: "9", count: 40),
                     String(repeating: "9", count: 19), "1.0.0", "1.00a", "1 ", " 1", "1..0", "\u{661}", "1.0\u{0}",
                     "12345678901234567890.0"] {
            XCTAssertNil(FileDownloadRoutes.requestedVersion(text), text)
        }
    }

    /// The cached download's one-buffer entity tag is the worker path's tag, quoted.
    func testQuotedVariantETagIsTheStrongFormOfTheVariantETag() {
        let resizes = [ResizeRequest(width: "200", height: "200", thumb: nil, maxSide: 4096),
                       ResizeRequest(width: "120", height: nil, thumb: nil, maxSide: 4096),
                       ResizeRequest(width: "64", height: "64", thumb: "top", maxSide: 4096),
                       ResizeRequest(width: nil, height: nil, thumb: nil, maxSide: 4096)]
        for id in ["a1b2c3", "", "ünïcode-id", String(repeating: "x", count: 40)] {
            for version in [1, 0, -3, Int.max] {
                let stored = StoredFileContent(blob: String(repeating: "0", count: 64), version: version,
                                               mime: "image/jpeg", size: 10, uploadedAt: 1_700_000_000_000)
                for resize in resizes {
                    XCTAssertEqual(FileDownloadRoutes.quotedVariantETag(id, stored, resize),
                                   Validators.strongETag(FileDownloadRoutes.variantETag(id, stored, resize)))
                }
            }
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
