import XCTest
@testable import Core

final class MetricsRegistryTests: XCTestCase {
    func testRenderExactText() {
        let registry = MetricsRegistry()
        registry.counter("http_requests_total", help: "Requests served.", labels: ["method": "GET", "code": "200"]).increment()
        registry.counter("http_requests_total", help: "ignored", labels: ["code": "200", "method": "GET"]).increment(by: 2)
        registry.counter("http_requests_total", help: "", labels: ["method": "POST", "code": "201"]).increment()
        registry.gauge("open_connections", help: "Open connections.").set(3)
        let histogram = registry.histogram("request_seconds", help: "Latency.\nSecond line \\ end.",
                                           buckets: [0.5, 0.1, 1, 0.1], labels: ["api": "parse"])
        for v in [0.05, 0.1, 0.3, 2.0] { histogram.observe(v) }
        XCTAssertEqual(registry.render(), """
        # HELP http_requests_total Requests served.
        # TYPE http_requests_total counter
        http_requests_total{code="200",method="GET"} 3
        http_requests_total{code="201",method="POST"} 1
        # HELP open_connections Open connections.
        # TYPE open_connections gauge
        open_connections 3
        # HELP request_seconds Latency.\\nSecond line \\\\ end.
        # TYPE request_seconds histogram
        request_seconds_bucket{api="parse",le="0.1"} 2
        request_seconds_bucket{api="parse",le="0.5"} 3
        request_seconds_bucket{api="parse",le="1"} 3
        request_seconds_bucket{api="parse",le="+Inf"} 4
        request_seconds_sum{api="parse"} 2.45
        request_seconds_count{api="parse"} 4

        """)
    }

    func testLabelValueEscapingAndNameSanitising() {
        let registry = MetricsRegistry()
        registry.gauge("bad-name.x", help: "h", labels: ["path": "a\"b\\c\nd", "9x": "v"]).set(-1.5)
        XCTAssertEqual(registry.render(), """
        # HELP bad_name_x h
        # TYPE bad_name_x gauge
        bad_name_x{_x="v",path="a\\"b\\\\c\\nd"} -1.5

        """)
    }

    func testGetOrCreateReturnsSameInstance() {
        let registry = MetricsRegistry()
        let a = registry.counter("c", help: "h", labels: ["x": "1"])
        let b = registry.counter("c", help: "h", labels: ["x": "1"])
        XCTAssertTrue(a === b)
        XCTAssertFalse(a === registry.counter("c", help: "h", labels: ["x": "2"]))
    }

    func testTypeConflictIsNotExported() {
        let registry = MetricsRegistry()
        registry.counter("dup", help: "h").increment()
        let stray = registry.gauge("dup", help: "h")
        stray.set(99)
        XCTAssertEqual(stray.value, 99)
        XCTAssertEqual(registry.render(), "# HELP dup h\n# TYPE dup counter\ndup 1\n")
    }

    func testCounterIgnoresNegativeAndGaugeAdds() {
        let registry = MetricsRegistry()
        let counter = registry.counter("c", help: "h")
        counter.increment(by: -5)
        counter.increment()
        XCTAssertEqual(counter.value, 1)
        let gauge = registry.gauge("g", help: "h")
        gauge.add(2.5)
        gauge.add(-1)
        XCTAssertEqual(gauge.value, 1.5)
    }

    func testSpecialValuesAndNaNObservation() {
        let registry = MetricsRegistry()
        registry.gauge("g", help: "h", labels: ["k": "inf"]).set(.infinity)
        registry.gauge("g", help: "h", labels: ["k": "nan"]).set(.nan)
        let h = registry.histogram("h", help: "h", buckets: [1, .infinity])
        h.observe(.nan)
        h.observe(1)
        XCTAssertEqual(h.snapshot(), Histogram.Snapshot(cumulativeCounts: [1, 1], sum: 1, count: 1))
        XCTAssertEqual(registry.render(), """
        # HELP g h
        # TYPE g gauge
        g{k="inf"} +Inf
        g{k="nan"} NaN
        # HELP h h
        # TYPE h histogram
        h_bucket{le="1"} 1
        h_bucket{le="+Inf"} 1
        h_sum 1
        h_count 1

        """)
    }

    func testConcurrentUpdatesAreNotLost() {
        let registry = MetricsRegistry()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            for _ in 0..<1000 {
                registry.counter("c", help: "h").increment()
                registry.gauge("g", help: "h").add(1)
                registry.histogram("h", help: "h", buckets: [0.5]).observe(Double(i % 2))
            }
        }
        XCTAssertEqual(registry.counter("c", help: "h").value, 8000)
        XCTAssertEqual(registry.gauge("g", help: "h").value, 8000)
        XCTAssertEqual(registry.histogram("h", help: "h", buckets: []).snapshot(),
                       Histogram.Snapshot(cumulativeCounts: [4000, 8000], sum: 4000, count: 8000))
    }
}
