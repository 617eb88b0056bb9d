import XCTest
import HTTP
@testable import Files

final class MIMETypeTests: XCTestCase {
    func testTypesByExtensionAndName() {
        XCTAssertEqual(MIMEType.forExtension("PNG"), "image/png")
        XCTAssertNil(MIMEType.forExtension("unknown"))
        XCTAssertEqual(MIMEType.forFileName("photo.JPG"), "image/jpeg")
        XCTAssertEqual(MIMEType.forFileName("archive.tar.gz"), "application/gzip")
        XCTAssertEqual(MIMEType.forFileName("README"), MIMEType.octetStream)
        XCTAssertEqual(MIMEType.forFileName("data.xyz"), MIMEType.octetStream)
        XCTAssertEqual(MIMEType.forFileName("ends-with-dot."), MIMEType.octetStream)
        XCTAssertEqual(MIMEType.fileExtension(of: "a.b.Txt"), "txt")
        XCTAssertEqual(MIMEType.fileExtension(of: "a."), "")
        XCTAssertNil(MIMEType.fileExtension(of: "plain"))
        XCTAssertEqual(MIMEType.preferredExtension(for: "image/jpeg"), "jpg")
        XCTAssertNil(MIMEType.preferredExtension(for: "application/x-unknown"))
    }

    func testEssenceDropsParametersAndCase() {
        XCTAssertEqual(MIMEType.essence(of: "Text/Plain; charset=UTF-8"), "text/plain")
        XCTAssertEqual(MIMEType.essence(of: "  image/png  "), "image/png")
        XCTAssertNil(MIMEType.essence(of: ""))
        XCTAssertNil(MIMEType.essence(of: "   ; charset=utf-8"))
    }

    func testSniffingRecognisesBinarySignatures() {
        let cases: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], "image/png"),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46], "image/jpeg"),
            (Array("GIF89a\u{1}\0".utf8), "image/gif"),
            (Array("GIF87a".utf8), "image/gif"),
            (Array("RIFF\u{24}\0\0\0WEBPVP8 ".utf8), "image/webp"),
            (Array("RIFF\u{24}\0\0\0WAVEfmt ".utf8), "audio/wav"),
            (Array("%PDF-1.7\n".utf8), "application/pdf"),
            ([0x50, 0x4B, 0x03, 0x04, 20, 0], "application/zip"),
            ([0x1F, 0x8B, 0x08, 0], "application/gzip"),
            (Array("II*\0\u{8}\0\0\0".utf8), "image/tiff"),
            (Array("MM\0*\0\0\0\u{8}".utf8), "image/tiff"),
            ([0, 0, 1, 0, 1, 0, 16, 16], "image/x-icon"),
            (Array("ID3\u{4}\0\0".utf8), "audio/mpeg"),
            (Array("OggS\0\u{2}".utf8), "audio/ogg"),
            ([0x1A, 0x45, 0xDF, 0xA3, 0x9F], "video/webm"),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8), "image/heic"),
            ([0, 0, 0, 0x1C] + Array("ftypavif".utf8), "image/avif"),
            ([0, 0, 0, 0x14] + Array("ftypqt  ".utf8), "video/quicktime"),
            ([0, 0, 0, 0x20] + Array("ftypM4A ".utf8), "audio/mp4"),
            ([0, 0, 0, 0x20] + Array("ftypisom".utf8), "video/mp4"),
            (Array("BM".utf8) + [UInt8](repeating: 0, count: 12), "image/bmp"),
        ]
        for (bytes, type) in cases {
            XCTAssertEqual(MIMEType.sniff(bytes), type, "\(bytes.prefix(12))")
        }
    }

    func testSniffingNeverGuessesTextOrShortInput() {
        for text in ["<html><script>alert(1)</script>", "<?xml version=\"1.0\"?><svg/>", "<svg onload=x>",
                     "alert(1)", "{\"a\":1}", "hello", "BM is not a bitmap"] {
            XCTAssertNil(MIMEType.sniff(Array(text.utf8)), text)
        }
        XCTAssertNil(MIMEType.sniff([UInt8]()))
        XCTAssertNil(MIMEType.sniff([0x89, 0x50, 0x4E]), "a cut signature is no signature")
        XCTAssertNil(MIMEType.sniff(Array("RIFF\0\0\0\0AVI ".utf8)))
    }

    func testSniffingABodyReadsOnlyItsStart() throws {
        let dir = try makeTemporaryDirectory(self)
        let pdf = Array("%PDF-1.4\n".utf8) + [UInt8](repeating: 0x41, count: 100_000)
        let path = try writeFile(pdf, in: dir)
        XCTAssertEqual(MIMEType.sniff(RequestBody.file(path: path, length: pdf.count)), "application/pdf")
        XCTAssertEqual(MIMEType.sniff(RequestBody.bytes([0xFF, 0xD8, 0xFF, 0xDB])), "image/jpeg")
        XCTAssertNil(MIMEType.sniff(RequestBody.empty))
        XCTAssertNil(MIMEType.sniff(RequestBody.file(path: dir + "/missing", length: 10)))
    }
}
