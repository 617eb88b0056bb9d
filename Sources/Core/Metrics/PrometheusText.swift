/// Formatting rules of the Prometheus text exposition format 0.0.4.
enum PrometheusText {
    /// Replaces characters outside `[a-zA-Z_:][a-zA-Z0-9_:]*` (colons only in metric names) with `_`.
    static func sanitizedName(_ name: String, allowColon: Bool) -> String {
        var out = ""
        for (i, scalar) in name.unicodeScalars.enumerated() {
            let c = scalar.value
            let letter = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || (allowColon && c == 0x3A)
            let digit = c >= 0x30 && c <= 0x39
            out.unicodeScalars.append(letter || (digit && i > 0) ? scalar : "_")
        }
        return out.isEmpty ? "_" : out
    }

    /// `a="x",b="y"` with names sorted, values escaped; "" for no labels.
    static func labelText(_ labels: [String: String]) -> String {
        labels.map { (sanitizedName($0.key, allowColon: false), $0.value) }
            .sorted { $0.0 < $1.0 }
            .map { "\($0.0)=\"\(escapeLabelValue($0.1))\"" }
            .joined(separator: ",")
    }

    /// Label values escape backslash, double quote and line feed.
    static func escapeLabelValue(_ s: String) -> String { escape(s, quotes: true) }

    /// HELP text escapes backslash and line feed (quotes are left as they are).
    static func escapeHelp(_ s: String) -> String { escape(s, quotes: false) }

    /// Backslash and line feed always; the double quote only inside label values, as the format says.
    private static func escape(_ s: String, quotes: Bool) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            case "\\": out += "\\\\"
            case "\"" where quotes: out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Sample values: `NaN`, `+Inf`, `-Inf`, or the shortest text that reads back as the same double
    /// (integral values without a fraction, as in `le="1"`).
    static func value(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "+Inf" : "-Inf" }
        return JSONNumber(v)?.text ?? "NaN"
    }

    static func render(name: String, labels: String, series: MetricsRegistry.Series, into out: inout String) {
        let braced = labels.isEmpty ? "" : "{\(labels)}"
        switch series {
        case .counter(let c):
            out += "\(name)\(braced) \(c.value)\n"
        case .gauge(let g):
            out += "\(name)\(braced) \(value(g.value))\n"
        case .histogram(let h):
            let snapshot = h.snapshot()
            let prefix = labels.isEmpty ? "" : labels + ","
            for (i, bound) in h.bounds.enumerated() where snapshot.cumulativeCounts.indices.contains(i) {
                out += "\(name)_bucket{\(prefix)le=\"\(value(bound))\"} \(snapshot.cumulativeCounts[i])\n"
            }
            out += "\(name)_bucket{\(prefix)le=\"+Inf\"} \(snapshot.count)\n"
            out += "\(name)_sum\(braced) \(value(snapshot.sum))\n"
            out += "\(name)_count\(braced) \(snapshot.count)\n"
        }
    }
}
