/// The exact geometry of one variant, worked out from a request and the upright size of a picture,
/// without decoding it: scale the upright picture to `scaledWidth` x `scaledHeight`, then (for a cover)
/// cut the `crop` rectangle out of the scaled picture. The output is `width` x `height`.
public struct ResizePlan: Sendable, Equatable {
    /// A rectangle in pixels of the scaled picture.
    public struct Rect: Sendable, Equatable {
        public let left: Int
        public let top: Int
        public let width: Int
        public let height: Int

        public init(left: Int, top: Int, width: Int, height: Int) {
            self.left = left
            self.top = top
            self.width = width
            self.height = height
        }
    }

    /// The size the upright picture is scaled to.
    public let scaledWidth: Int
    public let scaledHeight: Int
    /// The part of the scaled picture kept; nil keeps all of it.
    public let crop: Rect?

    public init(scaledWidth: Int, scaledHeight: Int, crop: Rect? = nil) {
        self.scaledWidth = scaledWidth
        self.scaledHeight = scaledHeight
        self.crop = crop
    }

    /// Output width.
    public var width: Int { crop?.width ?? scaledWidth }
    /// Output height.
    public var height: Int { crop?.height ?? scaledHeight }

    /// The variant `request` asks of an upright `width` x `height` picture, or nil when the original
    /// is the answer: nothing asked, a fit that would not shrink, or a result of the original's size.
    ///
    /// Rounding (spec §5.3.5): the scale is `min(W/w, H/h)` (`max` for a cover; one side given: that
    /// side's ratio); the side that decides the scale becomes exactly W (or H); the other is
    /// `round(side × scale)`, half away from zero, at least 1. Integer arithmetic throughout, so
    /// 1000x333 into 100x100 is 100x33 on every machine.
    public static func make(for request: ResizeRequest, width w: Int, height h: Int) -> ResizePlan? {
        // Requests are normalised (sides at most ResizeRequest.largestMaxSide) and sizes come from
        // headers (at most 2^31 - 1), so no product below can overflow.
        guard w > 0, h > 0, w <= Int(Int32.max), h <= Int(Int32.max) else { return nil }
        let plan: ResizePlan
        switch request.mode {
        case .original:
            return nil
        case .fit(let boxWidth, let boxHeight):
            let byWidth: Bool
            switch (boxWidth, boxHeight) {
            case let (bw?, bh?): byWidth = bw * h <= bh * w          // W/w <= H/h
            case (_?, nil): byWidth = true
            case (nil, _?): byWidth = false
            case (nil, nil): return nil
            }
            if byWidth {
                guard let bw = boxWidth, bw < w else { return nil }     // never upscale
                plan = ResizePlan(scaledWidth: bw, scaledHeight: scaled(h, by: bw, over: w))
            } else {
                guard let bh = boxHeight, bh < h else { return nil }
                plan = ResizePlan(scaledWidth: scaled(w, by: bh, over: h), scaledHeight: bh)
            }
        case .scaleToWidth(let bw):
            plan = ResizePlan(scaledWidth: bw, scaledHeight: scaled(h, by: bw, over: w))
        case .scaleToHeight(let bh):
            plan = ResizePlan(scaledWidth: scaled(w, by: bh, over: h), scaledHeight: bh)
        case .cover(let bw, let bh, let anchor):
            if bw * h >= bh * w {
                // W/w >= H/h: the width decides; rows are cut.
                let sh = max(bh, scaled(h, by: bw, over: w))
                let top: Int
                switch anchor {
                case .center: top = (sh - bh) / 2
                case .top: top = 0
                case .bottom: top = sh - bh
                }
                plan = ResizePlan(scaledWidth: bw, scaledHeight: sh,
                                  crop: Rect(left: 0, top: top, width: bw, height: bh))
            } else {
                // The height decides; columns are cut, always evenly (PocketBase's top and bottom
                // anchors are centred horizontally).
                let sw = max(bw, scaled(w, by: bh, over: h))
                plan = ResizePlan(scaledWidth: sw, scaledHeight: bh,
                                  crop: Rect(left: (sw - bw) / 2, top: 0, width: bw, height: bh))
            }
        }
        return plan.isIdentity(width: w, height: h) ? nil : plan
    }

    /// `side × numerator / denominator` rounded half away from zero, at least 1 (all values positive).
    static func scaled(_ side: Int, by numerator: Int, over denominator: Int) -> Int {
        max(1, (2 * side * numerator + denominator) / (2 * denominator))
    }

    /// True when the plan would reproduce a width x height picture unchanged.
    func isIdentity(width: Int, height: Int) -> Bool {
        scaledWidth == width && scaledHeight == height && (crop == nil || (crop?.width == width && crop?.height == height))
    }
}
