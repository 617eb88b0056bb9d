import Files

/// Harness for the resize parameters of a download (`width`, `height`, `thumb`; Backbeam spec §5.3.5). The input
/// holds up to four lines: width, height, thumb and the configured largest side; a line that is a single NUL
/// byte, or a missing line, is an absent parameter.
enum ImageRequestFuzz {
    static func request(_ input: [UInt8]) -> FuzzOutcome {
        let lines = input.split(separator: UInt8(ascii: "\n"), maxSplits: 3, omittingEmptySubsequences: false)
        func parameter(_ index: Int) -> String? {
            guard index < lines.count, lines[index] != [0] else { return nil }
            return String(decoding: lines[index], as: UTF8.self)
        }
        let maxSide = parameter(3).flatMap { Int($0) } ?? ResizeRequest.defaultMaxSide
        let request = ResizeRequest(width: parameter(0), height: parameter(1), thumb: parameter(2), maxSide: maxSide)
        let side = min(max(1, maxSide), ResizeRequest.largestMaxSide)
        func inRange(_ value: Int) -> Bool { value >= 1 && value <= side }
        let plain: String
        switch request.mode {
        case .original:
            plain = "original"
        case .fit(let w, let h):
            guard w != nil || h != nil, w.map(inRange) ?? true, h.map(inRange) ?? true else {
                return .violated("fit \(String(describing: w))x\(String(describing: h)) outside 1...\(side)")
            }
            plain = "fit-\(w ?? 0)x\(h ?? 0)"
        case .cover(let w, let h, let anchor):
            guard inRange(w), inRange(h) else { return .violated("cover \(w)x\(h) outside 1...\(side)") }
            plain = "cover-\(w)x\(h)" + (anchor == .top ? "t" : anchor == .bottom ? "b" : "")
        case .scaleToWidth(let w):
            guard inRange(w) else { return .violated("width \(w) outside 1...\(side)") }
            plain = "width-\(w)"
        case .scaleToHeight(let h):
            guard inRange(h) else { return .violated("height \(h) outside 1...\(side)") }
            plain = "height-\(h)"
        }
        // The variant's cache key is written without interpolation; it must name the mode as plainly written.
        guard request.token == plain else { return .violated("token \(request.token), expected \(plain)") }
        // A read request is already normalised: normalising it again changes nothing.
        guard ResizeRequest(mode: request.mode, maxSide: maxSide) == request else {
            return .violated("normalising \(request.mode) again changes it")
        }
        return request.mode == .original ? .refused("original") : .accepted
    }
}
