import XCTest
@testable import Files

/// The request grammar of spec §5.3.5: width/height, clamping, and PocketBase's thumb forms.
final class ResizeRequestTests: XCTestCase {
    private typealias Mode = ResizeRequest.Mode

    func testWidthAndHeightParameters() {
        let cases: [(width: String?, height: String?, expected: Mode, line: UInt)] = [
            ("200", "200", .fit(width: 200, height: 200), #line),
            ("200", nil, .fit(width: 200, height: nil), #line),
            (nil, "300", .fit(width: nil, height: 300), #line),
            // Missing, zero, negative and non-numeric values are absent.
            (nil, nil, .original, #line),
            ("0", "0", .original, #line),
            ("abc", "-5", .original, #line),
            ("", "", .original, #line),
            ("-5", "300", .fit(width: nil, height: 300), #line),
            ("200", "abc", .fit(width: 200, height: nil), #line),
            (" 200", nil, .original, #line),
            ("200px", nil, .original, #line),
            ("2e2", nil, .original, #line),
            ("0x10", nil, .original, #line),
            ("+200", nil, .original, #line),
            ("٢٠٠", nil, .original, #line),                       // non-ASCII digits are not numbers here
            // A decimal counts by its integer part; below 1 it is absent.
            ("200.0", nil, .fit(width: 200, height: nil), #line),
            ("262.5", nil, .fit(width: 262, height: nil), #line),
            ("0.5", nil, .original, #line),
            ("200.", nil, .original, #line),
            ("200.5.1", nil, .original, #line),
            // Each side is clamped to 4096, however large.
            ("100000", nil, .fit(width: 4096, height: nil), #line),
            ("99999999999999999999999999999", "5000", .fit(width: 4096, height: 4096), #line),
            ("4096", "4097", .fit(width: 4096, height: 4096), #line),
            ("0200", nil, .fit(width: 200, height: nil), #line),
        ]
        for item in cases {
            XCTAssertEqual(ResizeRequest(width: item.width, height: item.height, thumb: nil).mode, item.expected,
                           "width=\(item.width ?? "nil") height=\(item.height ?? "nil")", line: item.line)
        }
    }

    func testThumbGrammar() {
        let cases: [(thumb: String, expected: Mode, line: UInt)] = [
            ("100x100", .cover(width: 100, height: 100, anchor: .center), #line),
            ("100x100t", .cover(width: 100, height: 100, anchor: .top), #line),
            ("100x100b", .cover(width: 100, height: 100, anchor: .bottom), #line),
            ("100x100f", .fit(width: 100, height: 100), #line),
            ("0x300", .scaleToHeight(300), #line),
            ("100x0", .scaleToWidth(100), #line),
            // The suffix is ignored for 0xH and Wx0.
            ("0x300f", .scaleToHeight(300), #line),
            ("100x0t", .scaleToWidth(100), #line),
            ("0x0", .original, #line),
            ("0x0f", .original, #line),
            ("100x100z", .original, #line),
            ("100X100", .original, #line),
            ("100x", .original, #line),
            ("x100", .original, #line),
            ("100", .original, #line),
            ("", .original, #line),
            ("-100x100", .original, #line),
            ("100x100x100", .original, #line),
            ("100.5x100", .original, #line),
            ("100x100tt", .original, #line),
            ("t", .original, #line),
            (" 100x100", .original, #line),
            // Clamped to 4096 per side.
            ("100000x50", .cover(width: 4096, height: 50, anchor: .center), #line),
            ("0x99999999999999999999999", .scaleToHeight(4096), #line),
            ("5000x5000f", .fit(width: 4096, height: 4096), #line),
        ]
        for item in cases {
            XCTAssertEqual(ResizeRequest(width: nil, height: nil, thumb: item.thumb).mode, item.expected,
                           "thumb=\(item.thumb)", line: item.line)
        }
    }

    func testThumbIsReadOnlyWhenWidthAndHeightAreBothAbsent() {
        XCTAssertEqual(ResizeRequest(width: "50", height: nil, thumb: "100x100").mode, .fit(width: 50, height: nil))
        XCTAssertEqual(ResizeRequest(width: nil, height: "60", thumb: "100x100").mode, .fit(width: nil, height: 60))
        // Absent because invalid: the thumb counts.
        XCTAssertEqual(ResizeRequest(width: "abc", height: "0", thumb: "100x100t").mode,
                       .cover(width: 100, height: 100, anchor: .top))
    }

    func testConfiguredMaxSide() {
        XCTAssertEqual(ResizeRequest(width: "3000", height: nil, thumb: nil, maxSide: 1000).mode,
                       .fit(width: 1000, height: nil))
        XCTAssertEqual(ResizeRequest(width: nil, height: nil, thumb: "3000x0", maxSide: 1000).mode, .scaleToWidth(1000))
        // A configured bound beyond the largest honoured one is held there.
        XCTAssertEqual(ResizeRequest(width: "9999999", height: nil, thumb: nil, maxSide: Int.max).mode,
                       .fit(width: ResizeRequest.largestMaxSide, height: nil))
    }

    func testModesGivenDirectlyAreNormalised() {
        XCTAssertEqual(ResizeRequest(mode: .fit(width: -1, height: 0)).mode, .original)
        XCTAssertEqual(ResizeRequest(mode: .fit(width: Int.max, height: nil)).mode, .fit(width: 4096, height: nil))
        XCTAssertEqual(ResizeRequest(mode: .cover(width: 0, height: 10, anchor: .top)).mode, .original)
        XCTAssertEqual(ResizeRequest(mode: .scaleToWidth(-3)).mode, .original)
        XCTAssertEqual(ResizeRequest(mode: .scaleToHeight(Int.max)).mode, .scaleToHeight(4096))
    }

    func testTokensNameEachModeDistinctly() {
        let tokens = [
            ResizeRequest(width: "200", height: nil, thumb: nil), ResizeRequest(width: nil, height: "200", thumb: nil),
            ResizeRequest(width: "200", height: "200", thumb: nil), ResizeRequest(width: nil, height: nil, thumb: "200x200"),
            ResizeRequest(width: nil, height: nil, thumb: "200x200t"), ResizeRequest(width: nil, height: nil, thumb: "200x200b"),
            ResizeRequest(width: nil, height: nil, thumb: "200x0"), ResizeRequest(width: nil, height: nil, thumb: "0x200"),
        ].map(\.token)
        XCTAssertEqual(Set(tokens).count, tokens.count, "\(tokens)")
        // The same resize asked two ways is one variant.
        XCTAssertEqual(ResizeRequest(width: "100", height: "100", thumb: nil).token,
                       ResizeRequest(width: nil, height: nil, thumb: "100x100f").token)
    }

    /// The token is written as bytes; it names every mode with the text it always had (variant files on disk
    /// and ETags clients hold are keyed by it).
    func testTokensKeepTheirText() {
        func expected(_ mode: ResizeRequest.Mode) -> String {
            switch mode {
            case .original: return "original"
            case .fit(let w, let h): return "fit-\(w ?? 0)x\(h ?? 0)"
            case .cover(let w, let h, let anchor):
                return "cover-\(w)x\(h)" + (anchor == .center ? "" : anchor == .top ? "t" : "b")
            case .scaleToWidth(let w): return "width-\(w)"
            case .scaleToHeight(let h): return "height-\(h)"
            }
        }
        let sides = [1, 2, 9, 10, 11, 99, 100, 101, 200, 999, 1000, 1024, 4095, 4096, 9999, 10_000, 65_535, 65_536]
        var modes: [ResizeRequest.Mode] = [.original]
        for w in sides {
            modes += [.fit(width: w, height: nil), .fit(width: nil, height: w), .scaleToWidth(w), .scaleToHeight(w)]
            for h in [1, 10, 200, 4096, 65_536] {
                modes += [.fit(width: w, height: h), .cover(width: w, height: h, anchor: .center),
                          .cover(width: w, height: h, anchor: .top), .cover(width: w, height: h, anchor: .bottom)]
            }
        }
        for mode in modes {
            let request = ResizeRequest(mode: mode, maxSide: ResizeRequest.largestMaxSide)
            XCTAssertEqual(request.token, expected(request.mode), "\(mode)")
        }
        XCTAssertEqual(ResizeRequest(width: "200", height: "200", thumb: nil).token, "fit-200x200")
        for value in [0, 7, 10, 123_456_789, Int.max, -1, -45, Int.min] {
            XCTAssertEqual(ResizeRequest.tokenDecimal(value), String(value))
        }
    }

    /// Random parameter texts never trap and always give a normalised mode.
    func testRandomInputsNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789xtbf.-+ x0") + ["\u{0}", "é", "٣"]
        for _ in 0..<5000 {
            func random() -> String? {
                if Int.random(in: 0..<5, using: &generator) == 0 { return nil }
                return String((0..<Int.random(in: 0..<12, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator) ?? "0"
                })
            }
            let request = ResizeRequest(width: random(), height: random(), thumb: random())
            switch request.mode {
            case .original: break
            case .fit(let w, let h):
                XCTAssertTrue(w != nil || h != nil)
                for side in [w, h].compactMap({ $0 }) { XCTAssertTrue((1...4096).contains(side)) }
            case .cover(let w, let h, _):
                XCTAssertTrue((1...4096).contains(w) && (1...4096).contains(h))
            case .scaleToWidth(let side), .scaleToHeight(let side):
                XCTAssertTrue((1...4096).contains(side))
            }
        }
    }
}
