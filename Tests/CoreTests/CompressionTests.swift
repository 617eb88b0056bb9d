import XCTest
@testable import Core

/// The zlib wrapper: round trips in both formats, chunking independence, the output bound (bombs), corrupt
/// and truncated input, concatenated gzip members, and a fixed vector other implementations produce.
final class CompressionTests: XCTestCase {
    private func text(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    }

    func testRoundTripsInBothFormats() throws {
        for format in [CompressionFormat.gzip, .zlib] {
            for size in [0, 1, 5, 70_000, 300_000] {
                let data = text(size)
                let packed = try Compression.deflate(data, format: format, level: 6)
                XCTAssertEqual(try Compression.inflate(packed, format: format, maxOutput: size), data, "\(format) \(size)")
            }
        }
    }

    func testGzipHeaderAndDeterministicBytes() throws {
        // gzip of "hello" at level 8 with zlib's defaults: magic, deflate, no name, mtime 0, xfl 0, OS 3 (Unix).
        let packed = try Compression.deflate(Array("hello".utf8), format: .gzip, level: 8)
        XCTAssertEqual(Array(packed.prefix(10)), [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03])
        // Same input, same bytes: digests over compressed data are reproducible.
        XCTAssertEqual(packed, try Compression.deflate(Array("hello".utf8), format: .gzip, level: 8))
        XCTAssertEqual(packed.count, 25)
    }

    func testChunkedInputGivesTheSameOutput() throws {
        let data = text(200_000) + (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        let whole = try Compression.deflate(data, format: .gzip, level: 8)
        for chunk in [1, 13, 4096, 65_537] {
            let deflater = try Deflater(format: .gzip, level: 8)
            var out: [UInt8] = []
            var offset = 0
            while offset < data.count {
                let end = min(data.count, offset + chunk)
                try data[offset..<end].withUnsafeBytes { raw in try deflater.feed(raw) { out.append(contentsOf: $0) } }
                offset = end
            }
            try deflater.finish { out.append(contentsOf: $0) }
            XCTAssertEqual(out, whole, "deflate chunk \(chunk)")

            let inflater = try Inflater(format: .gzip, maxOutput: data.count)
            var back: [UInt8] = []
            offset = 0
            while offset < whole.count {
                let end = min(whole.count, offset + chunk)
                try whole[offset..<end].withUnsafeBytes { raw in try inflater.feed(raw) { back.append(contentsOf: $0) } }
                offset = end
            }
            try inflater.finish()
            XCTAssertEqual(back, data, "inflate chunk \(chunk)")
        }
    }

    func testBombIsRefusedAtTheBound() throws {
        // 64 MiB of zeros packs into about 64 KB; the bound stops decoding long before it is all produced.
        let deflater = try Deflater(format: .gzip, level: 9)
        var bomb: [UInt8] = []
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<64 { try zeros.withUnsafeBytes { raw in try deflater.feed(raw) { bomb.append(contentsOf: $0) } } }
        try deflater.finish { bomb.append(contentsOf: $0) }
        XCTAssertLessThan(bomb.count, 100_000)

        let inflater = try Inflater(format: .gzip, maxOutput: 1 << 20)
        var handedOut = 0
        XCTAssertThrowsError(try bomb.withUnsafeBytes { raw in try inflater.feed(raw) { handedOut += $0.count } }) {
            XCTAssertEqual($0 as? CompressionError, .outputTooLarge)
        }
        XCTAssertLessThanOrEqual(handedOut, 1 << 20)
        XCTAssertEqual(inflater.outputCount, handedOut)
        // Refused once, refused for good.
        XCTAssertThrowsError(try inflater.finish())
        XCTAssertThrowsError(try Compression.inflate(bomb, format: .gzip, maxOutput: 1000)) {
            XCTAssertEqual($0 as? CompressionError, .outputTooLarge)
        }
        // Exactly at the bound is allowed.
        XCTAssertEqual(try Compression.inflate(bomb, format: .gzip, maxOutput: 64 << 20).count, 64 << 20)
    }

    func testCorruptInput() throws {
        let packed = try Compression.deflate(text(10_000), format: .gzip, level: 6)
        // Not gzip at all.
        XCTAssertThrowsError(try Compression.inflate(Array("{\"a\":1}".utf8), format: .gzip, maxOutput: 100)) {
            XCTAssertEqual($0 as? CompressionError, .corrupt)
        }
        // A flipped bit in the CRC-32 trailer.
        var badCRC = packed
        badCRC[badCRC.count - 6] ^= 0x01
        XCTAssertThrowsError(try Compression.inflate(badCRC, format: .gzip, maxOutput: 20_000)) {
            XCTAssertEqual($0 as? CompressionError, .corrupt)
        }
        // Garbage after the member.
        XCTAssertThrowsError(try Compression.inflate(packed + [1, 2, 3], format: .gzip, maxOutput: 20_000))
        // zlib data fed as gzip, and junk after a zlib stream.
        let zlib = try Compression.deflate(text(100), format: .zlib, level: 6)
        XCTAssertThrowsError(try Compression.inflate(zlib, format: .gzip, maxOutput: 1000))
        XCTAssertThrowsError(try Compression.inflate(zlib + [0], format: .zlib, maxOutput: 1000)) {
            XCTAssertEqual($0 as? CompressionError, .corrupt)
        }
    }

    func testTruncatedAndEmptyInput() throws {
        let packed = try Compression.deflate(text(10_000), format: .gzip, level: 6)
        XCTAssertThrowsError(try Compression.inflate(Array(packed.dropLast(3)), format: .gzip, maxOutput: 20_000)) {
            XCTAssertEqual($0 as? CompressionError, .truncated)
        }
        XCTAssertThrowsError(try Compression.inflate([], format: .gzip, maxOutput: 20_000)) {
            XCTAssertEqual($0 as? CompressionError, .truncated)
        }
        XCTAssertThrowsError(try Compression.inflate([0x1F, 0x8B], format: .gzip, maxOutput: 20_000)) {
            XCTAssertEqual($0 as? CompressionError, .truncated)
        }
    }

    func testConcatenatedGzipMembersDecodeAsOne() throws {
        let a = try Compression.deflate(Array("hello ".utf8), format: .gzip, level: 6)
        let b = try Compression.deflate(Array("world".utf8), format: .gzip, level: 6)
        XCTAssertEqual(try Compression.inflate(a + b, format: .gzip, maxOutput: 100), Array("hello world".utf8))
    }

    func testKnownGzipFromAnotherEncoder() throws {
        // `printf hello | gzip -n` (GNU gzip 1.12): decodes to "hello".
        let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xCB, 0x48, 0xCD, 0xC9,
                             0xC9, 0x07, 0x00, 0x86, 0xA6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00]
        XCTAssertEqual(try Compression.inflate(gzip, format: .gzip, maxOutput: 5), Array("hello".utf8))
        XCTAssertThrowsError(try Compression.inflate(gzip, format: .gzip, maxOutput: 4))
    }
}
