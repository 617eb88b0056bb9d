import XCTest
@testable import Files

/// The exact geometry rules of spec §5.3.5, without decoding anything.
final class ResizePlanTests: XCTestCase {
    private struct Case {
        let request: ResizeRequest
        let width: Int
        let height: Int
        /// Output size, nil for "the original".
        let output: (Int, Int)?
        let line: UInt
    }

    private func request(_ width: String? = nil, _ height: String? = nil, thumb: String? = nil) -> ResizeRequest {
        ResizeRequest(width: width, height: height, thumb: thumb)
    }

    func testFitNeverUpscalesAndRoundsHalfAwayFromZero() {
        let cases: [Case] = [
            // BB-109: 800x600 JPEG.
            Case(request: request("200", "200"), width: 800, height: 600, output: (200, 150), line: #line),
            Case(request: request("200"), width: 800, height: 600, output: (200, 150), line: #line),
            Case(request: request(nil, "300"), width: 800, height: 600, output: (400, 300), line: #line),
            // BB-110: no upscaling; the original's size is the original.
            Case(request: request("2000", "2000"), width: 800, height: 600, output: nil, line: #line),
            Case(request: request("800", "600"), width: 800, height: 600, output: nil, line: #line),
            Case(request: request("800"), width: 800, height: 600, output: nil, line: #line),
            Case(request: request("900", "600"), width: 800, height: 600, output: nil, line: #line),
            Case(request: request("abc", "-5"), width: 800, height: 600, output: nil, line: #line),
            // The spec's rounding example.
            Case(request: request("100", "100"), width: 1000, height: 333, output: (100, 33), line: #line),
            // Halves round away from zero: 125 * 0.1 = 12.5 -> 13; 375 * 0.1 = 37.5 -> 38.
            Case(request: request("100"), width: 1000, height: 125, output: (100, 13), line: #line),
            Case(request: request(nil, "100"), width: 375, height: 1000, output: (38, 100), line: #line),
            // At least one pixel.
            Case(request: request("1"), width: 1000, height: 10, output: (1, 1), line: #line),
            Case(request: request("10", "10"), width: 10000, height: 1, output: (10, 1), line: #line),
            // The box's tighter side decides.
            Case(request: request("300", "100"), width: 800, height: 600, output: (133, 100), line: #line),
            Case(request: request("100", "300"), width: 800, height: 600, output: (100, 75), line: #line),
            // Equal ratios: either side gives the same answer.
            Case(request: request("400", "300"), width: 800, height: 600, output: (400, 300), line: #line),
            // BB-111: 5000x1000 with width=100000 -> clamped to 4096 wide.
            Case(request: request("100000"), width: 5000, height: 1000, output: (4096, 819), line: #line),
            // One side bigger than the picture, the other smaller: still a fit inside.
            Case(request: request("2000", "300"), width: 800, height: 600, output: (400, 300), line: #line),
        ]
        check(cases)
    }

    func testThumbModes() {
        let cases: [Case] = [
            // BB-116 on 800x600.
            Case(request: request(thumb: "100x100"), width: 800, height: 600, output: (100, 100), line: #line),
            Case(request: request(thumb: "100x100t"), width: 800, height: 600, output: (100, 100), line: #line),
            Case(request: request(thumb: "100x100b"), width: 800, height: 600, output: (100, 100), line: #line),
            Case(request: request(thumb: "100x100f"), width: 800, height: 600, output: (100, 75), line: #line),
            Case(request: request(thumb: "0x300"), width: 800, height: 600, output: (400, 300), line: #line),
            Case(request: request(thumb: "100x0"), width: 800, height: 600, output: (100, 75), line: #line),
            Case(request: request(thumb: "0x0"), width: 800, height: 600, output: nil, line: #line),
            Case(request: request(thumb: "100x100z"), width: 800, height: 600, output: nil, line: #line),
            // f never upscales; cover and 0xH / Wx0 may.
            Case(request: request(thumb: "2000x2000f"), width: 800, height: 600, output: nil, line: #line),
            Case(request: request(thumb: "1000x1000"), width: 800, height: 600, output: (1000, 1000), line: #line),
            Case(request: request(thumb: "0x1200"), width: 800, height: 600, output: (1600, 1200), line: #line),
            Case(request: request(thumb: "1600x0"), width: 800, height: 600, output: (1600, 1200), line: #line),
            // A cover of the picture's own size, and a scale to its own width, are the original.
            Case(request: request(thumb: "800x600"), width: 800, height: 600, output: nil, line: #line),
            Case(request: request(thumb: "800x0"), width: 800, height: 600, output: nil, line: #line),
            // But a cover of another shape crops even without scaling.
            Case(request: request(thumb: "800x300"), width: 800, height: 600, output: (800, 300), line: #line),
        ]
        check(cases)
    }

    func testCoverGeometryAndAnchors() throws {
        // Landscape 800x600 into 100x100: scaled to 133x100 (columns cut), always centred.
        for thumb in ["100x100", "100x100t", "100x100b"] {
            let plan = try XCTUnwrap(ResizePlan.make(for: request(thumb: thumb), width: 800, height: 600))
            XCTAssertEqual(plan, ResizePlan(scaledWidth: 133, scaledHeight: 100,
                                            crop: .init(left: 16, top: 0, width: 100, height: 100)), thumb)
        }
        // Portrait 600x800 into 100x100: scaled to 100x133 (rows cut): centre, top, bottom.
        let anchors: [(String, Int)] = [("100x100", 16), ("100x100t", 0), ("100x100b", 33)]
        for (thumb, top) in anchors {
            let plan = try XCTUnwrap(ResizePlan.make(for: request(thumb: thumb), width: 600, height: 800))
            XCTAssertEqual(plan, ResizePlan(scaledWidth: 100, scaledHeight: 133,
                                            crop: .init(left: 0, top: top, width: 100, height: 100)), thumb)
        }
        // Upscaling cover: 60x120 into 90x90 -> 90x180, then 90x90.
        let up = try XCTUnwrap(ResizePlan.make(for: request(thumb: "90x90b"), width: 60, height: 120))
        XCTAssertEqual(up, ResizePlan(scaledWidth: 90, scaledHeight: 180, crop: .init(left: 0, top: 90, width: 90, height: 90)))
    }

    /// Every plan the rules can produce stays inside the scaled picture and has the size it claims.
    func testRandomPlansAreConsistent() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20000 {
            let w = Int.random(in: 1...20000, using: &generator), h = Int.random(in: 1...20000, using: &generator)
            let a = String(Int.random(in: 0...5000, using: &generator)), b = String(Int.random(in: 0...5000, using: &generator))
            let suffix = ["", "t", "b", "f"].randomElement(using: &generator) ?? ""
            let requests = [request(a, b), request(a), request(nil, b), request(thumb: a + "x" + b + suffix)]
            for req in requests {
                guard let plan = ResizePlan.make(for: req, width: w, height: h) else { continue }
                XCTAssertGreaterThanOrEqual(plan.width, 1)
                XCTAssertGreaterThanOrEqual(plan.height, 1)
                XCTAssertFalse(plan.width == w && plan.height == h && plan.crop == nil, "identity plan \(plan)")
                if let crop = plan.crop {
                    XCTAssertGreaterThanOrEqual(crop.left, 0)
                    XCTAssertGreaterThanOrEqual(crop.top, 0)
                    XCTAssertLessThanOrEqual(crop.left + crop.width, plan.scaledWidth)
                    XCTAssertLessThanOrEqual(crop.top + crop.height, plan.scaledHeight)
                }
                if case .fit(let bw, let bh) = req.mode {
                    XCTAssertLessThan(plan.width * plan.height, w * h, "a fit never upscales")
                    if let bw { XCTAssertLessThanOrEqual(plan.width, bw) }
                    if let bh { XCTAssertLessThanOrEqual(plan.height, bh) }
                    XCTAssertTrue(plan.width == bw || plan.height == bh, "the deciding side is exact: \(plan)")
                }
            }
        }
    }

    func testOutOfRangeSizesGiveNoPlan() {
        XCTAssertNil(ResizePlan.make(for: request("100"), width: 0, height: 10))
        XCTAssertNil(ResizePlan.make(for: request("100"), width: -5, height: 10))
        XCTAssertNil(ResizePlan.make(for: request("100"), width: Int.max, height: 10))
    }

    private func check(_ cases: [Case]) {
        for item in cases {
            let plan = ResizePlan.make(for: item.request, width: item.width, height: item.height)
            let got = plan.map { "\($0.width)x\($0.height)" } ?? "original"
            let want = item.output.map { "\($0.0)x\($0.1)" } ?? "original"
            XCTAssertEqual(got, want, "\(item.request.mode) on \(item.width)x\(item.height)", line: item.line)
        }
    }
}
