/// Named metrics with labels, rendered in the Prometheus text exposition format 0.0.4.
///
/// `counter`, `gauge` and `histogram` are get-or-create: the same name and labels always return the same
/// instance, so callers may look a metric up on every use or keep it. Names and label names that are not
/// valid Prometheus identifiers have each invalid character replaced by `_`. The first `help` given for a
/// name is kept. Asking for a name under a different type than it was first registered with returns a
/// working metric that is not exported (the exposition format cannot hold two types under one name);
/// that is a programming error this registry survives rather than traps on.
public final class MetricsRegistry: Sendable {
    private let families: Locked<[String: Family]>

    /// The kind of a metric family, as written on its `# TYPE` line.
    enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    /// One metric instance.
    enum Series: Sendable {
        case counter(Counter)
        case gauge(Gauge)
        case histogram(Histogram)
    }

    /// All series sharing a name.
    struct Family: Sendable {
        let kind: Kind
        let help: String
        /// Keyed by the rendered label set (`a="1",b="2"`), which is canonical because labels are sorted.
        var series: [String: Series] = [:]
    }

    /// An empty registry.
    public init() {
        families = Locked([:])
    }

    /// The counter `name` with `labels`, created on first use.
    public func counter(_ name: String, help: String, labels: [String: String] = [:]) -> Counter {
        let made = series(name, help: help, kind: .counter, labels: labels) { .counter(Counter()) }
        if case .counter(let c) = made { return c }
        return Counter()
    }

    /// The gauge `name` with `labels`, created on first use.
    public func gauge(_ name: String, help: String, labels: [String: String] = [:]) -> Gauge {
        let made = series(name, help: help, kind: .gauge, labels: labels) { .gauge(Gauge()) }
        if case .gauge(let g) = made { return g }
        return Gauge()
    }

    /// The histogram `name` with `labels`, created on first use with `buckets` as upper bounds
    /// (sorted, deduplicated, non-finite ones dropped; `+Inf` is always added). Later calls for the
    /// same series return it with its original buckets.
    public func histogram(_ name: String, help: String, buckets: [Double], labels: [String: String] = [:]) -> Histogram {
        let made = series(name, help: help, kind: .histogram, labels: labels) { .histogram(Histogram(bounds: buckets)) }
        if case .histogram(let h) = made { return h }
        return Histogram(bounds: buckets)
    }

    /// Finds or creates a series; nil when `name` is already registered under another type.
    private func series(_ name: String, help: String, kind: Kind, labels: [String: String],
                        make: () -> Series) -> Series? {
        let name = PrometheusText.sanitizedName(name, allowColon: true)
        let key = PrometheusText.labelText(labels)
        return families.withLock { families -> Series? in
            var family = families[name] ?? Family(kind: kind, help: help)
            guard family.kind == kind else { return nil }
            if let existing = family.series[key] { return existing }
            let created = make()
            family.series[key] = created
            families[name] = family
            return created
        }
    }

    /// The whole registry as Prometheus text: families sorted by name, each with its `# HELP` and
    /// `# TYPE` lines, then its series sorted by label set; every line ends with `\n`.
    public func render() -> String {
        let snapshot = families.withLock { $0 }
        var out = ""
        for name in snapshot.keys.sorted() {
            guard let family = snapshot[name] else { continue }
            out += "# HELP \(name) \(PrometheusText.escapeHelp(family.help))\n"
            out += "# TYPE \(name) \(family.kind.rawValue)\n"
            for labels in family.series.keys.sorted() {
                guard let series = family.series[labels] else { continue }
                PrometheusText.render(name: name, labels: labels, series: series, into: &out)
            }
        }
        return out
    }
}
