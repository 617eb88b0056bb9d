import XCTest
@testable import HTTP

final class RouterTests: XCTestCase {
    private func tag(_ name: String) -> Handler {
        { _ in .response(.text(.ok, name)) }
    }

    /// The name of the handler a request resolves to, or a description of the verdict.
    private func resolve(_ router: Router, _ method: HTTPMethod, _ path: String, host: String? = nil) -> String {
        switch router.resolve(method: method, host: host, rawPath: path) {
        case .matched(let match):
            guard let request = try? HTTPRequest(method: method, target: path),
                  case .response(let response)? = try? match.route.handler(request),
                  case .bytes(let bytes) = response.body else { return "?" }
            return String(decoding: bytes, as: UTF8.self)
        case .preflight(_, let methods): return "preflight " + methods.map(\.rawValue).joined(separator: ",")
        case .methodNotAllowed(_, let allowed): return "405 " + allowed.map(\.rawValue).joined(separator: ",")
        case .notFound(let group): return "404 \(group?.prefix ?? "-")"
        }
    }

    private func match(_ router: Router, _ method: HTTPMethod, _ path: String, host: String? = nil) -> RouteMatch? {
        if case .matched(let match) = router.resolve(method: method, host: host, rawPath: path) { return match }
        return nil
    }

    func testLiteralBeatsParameterBeatsWildcard() {
        let router = Router()
        let group = router.group("/api")
        group.get("/users/*", tag("wild"))
        group.get("/users/:id", tag("param"))
        group.get("/users/me", tag("literal"))
        XCTAssertEqual(resolve(router, .get, "/api/users/me"), "literal")
        XCTAssertEqual(resolve(router, .get, "/api/users/42"), "param")
        XCTAssertEqual(resolve(router, .get, "/api/users/42/photos/1"), "wild")
        XCTAssertEqual(match(router, .get, "/api/users/42/photos/1")?.wildcard, "42/photos/1")
    }

    /// A group whose root `*` takes some methods and whose other routes take others (Backbeam: every method at
    /// `*`, uploads' POST and PUT at literal paths): a method of the `*` alone skips the walk with the answer
    /// the walk gives, the others still find their routes.
    func testARootWildcardTakesTheMethodsNoOtherRouteHas() {
        let router = Router()
        let group = router.group("/data")
        group.on([.get, .head, .post, .put], "*", tag("wild"))
        group.on([.post, .put], "/file/upload", tag("upload"))
        group.get("/only/:id", tag("only-get"))
        let table = router.table()
        let data = table.groups.first { $0.prefix == "/data" }
        XCTAssertEqual(data?.onlyRootWildcardTakes(.post), false)
        XCTAssertEqual(data?.onlyRootWildcardTakes(.get), false, "a GET route other than the root *")
        XCTAssertEqual(data?.onlyRootWildcardTakes(.head), false, "HEAD falls back to GET")
        XCTAssertEqual(data?.onlyRootWildcardTakes(.put), false)
        XCTAssertEqual(data?.onlyRootWildcardTakes(.delete), true)
        for (method, path, expected, wildcard) in [
            (HTTPMethod.post, "/data/file/upload", "upload", nil), (.post, "/data/file/x", "wild", "file/x"),
            (.get, "/data/file/upload", "wild", "file/upload"), (.get, "/data/only/7", "only-get", nil),
            (.head, "/data/only/7", "only-get", nil), (.get, "/data", "wild", ""), (.get, "/data//a%2Fb/", "wild", "a/b/"),
        ] as [(HTTPMethod, String, String, String?)] {
            XCTAssertEqual(resolve(router, method, path), expected, "\(method) \(path)")
            XCTAssertEqual(match(router, method, path)?.wildcard, wildcard, "\(method) \(path)")
        }
        let backbeamLike = Router()
        let root = backbeamLike.group("/data")
        root.on([.get, .head, .post, .put, .delete], "*", tag("wild"))
        root.on([.post, .put], "/file/upload/:id", tag("upload"))
        XCTAssertEqual(backbeamLike.table().groups.first { $0.prefix == "/data" }?.onlyRootWildcardTakes(.get), true)
        // The same group with one more GET route walks its tree for every GET: the answers must agree.
        let walking = Router()
        let walked = walking.group("/data")
        walked.on([.get, .head, .post, .put, .delete], "*", tag("wild"))
        walked.on([.post, .put], "/file/upload/:id", tag("upload"))
        walked.get("/zz/top", tag("zz"))
        XCTAssertEqual(walking.table().groups.first { $0.prefix == "/data" }?.onlyRootWildcardTakes(.get), false)
        for path in ["/data/file/upload/1", "/data/place/abc", "/data", "/data/", "/data//x//y", "/data/%41/b", "/data/zz"] {
            let fast = match(backbeamLike, .get, path)
            XCTAssertEqual(resolve(backbeamLike, .get, path), "wild", path)
            XCTAssertEqual(resolve(walking, .get, path), "wild", path)
            XCTAssertEqual(fast?.wildcard, match(walking, .get, path)?.wildcard, path)
            XCTAssertEqual(fast?.pathParameters, [:], path)
        }
        XCTAssertEqual(resolve(backbeamLike, .put, "/data/file/upload/1"), "upload")
        XCTAssertEqual(match(backbeamLike, .get, "/data//x//y")?.wildcard, "x//y")
    }

    func testParametersAreDecodedAndNamedPerRoute() {
        let router = Router()
        let group = router.group("/parse")
        group.get("/classes/:className/:objectId", tag("object"))
        group.put("/classes/:name/:id", tag("update"))
        let got = match(router, .get, "/parse/classes/Game%20Score/abc")
        XCTAssertEqual(got?.pathParameters, ["className": "Game Score", "objectId": "abc"])
        XCTAssertEqual(got?.route.pattern, "/classes/:className/:objectId")
        XCTAssertEqual(match(router, .put, "/parse/classes/A/b")?.pathParameters, ["name": "A", "id": "b"])
    }

    func testBacktracksToALessSpecificRouteThatHasTheMethod() {
        let router = Router()
        let group = router.group("")
        group.get("/docs/special", tag("special"))
        group.delete("/docs/:id", tag("delete"))
        XCTAssertEqual(resolve(router, .delete, "/docs/special"), "delete")
        XCTAssertEqual(resolve(router, .post, "/docs/special"), "405 GET,DELETE,HEAD")
    }

    func testWildcardMatchesEmptyRestAndDeepPaths() {
        let router = Router()
        router.group("/files").get("/*", tag("files"))
        XCTAssertEqual(resolve(router, .get, "/files"), "files")
        XCTAssertEqual(match(router, .get, "/files")?.wildcard, "")
        XCTAssertEqual(match(router, .get, "/files/a%2Fb/c")?.wildcard, "a/b/c")
    }

    func testGroupsByLongestPrefixAnd404RenderedByTheMatchingGroup() {
        let router = Router()
        router.group("").get("/health", tag("health"))
        router.group("/parse").get("/health", tag("parse health"))
        XCTAssertEqual(resolve(router, .get, "/parse/health"), "parse health")
        XCTAssertEqual(resolve(router, .get, "/health"), "health")
        XCTAssertEqual(resolve(router, .get, "/parse/missing"), "404 /parse")
        XCTAssertEqual(resolve(router, .get, "/parsefoo"), "404 ")
        XCTAssertEqual(match(router, .get, "/parse/health")?.group.prefix, "/parse")
    }

    func testHostGroupsAreTriedFirstAndCaptureParameters() {
        let router = Router()
        router.group("", host: "api-{env}-{project}.backbeam.io").get("/data", tag("backbeam"))
        router.group("").get("/data", tag("plain"))
        let got = match(router, .get, "/data", host: "API-dev-shop.backbeam.io:8443")
        XCTAssertEqual(got?.hostParameters, ["env": "dev", "project": "shop"])
        XCTAssertEqual(resolve(router, .get, "/data", host: "api-dev-shop.backbeam.io"), "backbeam")
        XCTAssertEqual(resolve(router, .get, "/data", host: "example.com"), "plain")
        XCTAssertEqual(resolve(router, .get, "/data"), "plain")
        XCTAssertEqual(resolve(router, .get, "/data", host: "api-dev.backbeam.io"), "plain")
    }

    func testHostPatternCapturesNeverSpanDots() {
        let pattern = HostPattern("{sub}.example.com")
        XCTAssertEqual(pattern.match("a.example.com"), ["sub": "a"])
        XCTAssertNil(pattern.match("a.b.example.com"))
        XCTAssertNil(pattern.match(".example.com"))
        XCTAssertEqual(HostPattern.hostName("[::1]:8080"), "[::1]")
        XCTAssertEqual(HostPattern.hostName("Example.COM"), "example.com")
    }

    func testHeadFallsBackToGetAndExplicitHeadWins() {
        let router = Router()
        let group = router.group("")
        group.get("/a", tag("get a"))
        group.get("/b", tag("get b"))
        group.on(.head, "/b", tag("head b"))
        XCTAssertEqual(resolve(router, .head, "/a"), "get a")
        XCTAssertEqual(resolve(router, .head, "/b"), "head b")
    }

    func testOptionsIsAPreflightOnlyWithCORSAndWithoutAnOptionsRoute() {
        let router = Router()
        router.group("/cors", cors: CORSPolicy()).on([.get, .post], "/things", tag("things"))
        router.group("/own", cors: CORSPolicy()).on(.options, "/x", tag("own options"))
        router.group("/plain").get("/y", tag("y"))
        XCTAssertEqual(resolve(router, .options, "/cors/things"), "preflight GET,POST,HEAD,OPTIONS")
        XCTAssertEqual(resolve(router, .options, "/own/x"), "own options")
        XCTAssertEqual(resolve(router, .options, "/plain/y"), "405 GET,HEAD")
        XCTAssertEqual(resolve(router, .options, "/cors/none"), "404 /cors")
    }

    func testMultipleMethodsAndCustomMethods() {
        let router = Router()
        let group = router.group("/couch")
        group.on([.get, .put], "/:db/:doc", tag("doc"))
        group.on(HTTPMethod(rawValue: "COPY"), "/:db/:doc", tag("copy"))
        XCTAssertEqual(resolve(router, HTTPMethod(rawValue: "COPY"), "/couch/db/doc"), "copy")
        XCTAssertEqual(resolve(router, .put, "/couch/db/doc"), "doc")
    }

    func testGroupLimitsCanOnlyLower() {
        var server = Limits()
        server.maxBodyBytes = 1000
        var lower = Limits()
        lower.maxBodyBytes = 10
        lower.maxHeaderCount = 5_000
        let router = Router()
        _ = router.group("/x", limits: lower)
        let group = router.table().groups[0]
        let effective = group.effectiveLimits(server)
        XCTAssertEqual(effective.maxBodyBytes, 10)
        XCTAssertEqual(effective.maxHeaderCount, server.maxHeaderCount)
    }

    func testWholePathIndexAnswersWhatTheWalkWould() {
        let router = Router()
        let root = router.group("")
        for (path, name) in [("/health", "health"), ("/api/items/special", "root special"), ("/docs/a", "docs a")] {
            root.get(path, tag(name))
        }
        root.delete("/docs/:id", tag("docs delete"))
        router.group("/api").get("/items/:id", tag("api item"))
        router.group("/admin").get("/status", tag("admin status"))
        let table = router.table()
        // Literal paths no longer-prefix group could take are in the index; a path under "/api" is not,
        // because "/api" is tried first and its parameter route takes it.
        XCTAssertEqual(Set(table.exactRoutes.keys), ["/health", "/docs/a", "/admin/status"])
        let expected: [(HTTPMethod, String, String)] = [
            (.get, "/api/items/special", "api item"), (.get, "/health", "health"), (.head, "/health", "health"),
            // A method the literal route lacks falls through to the walk: another route, then 405.
            (.delete, "/docs/a", "docs delete"), (.post, "/health", "405 GET,HEAD"),
            // Paths that only the walk normalises (empty segments, escapes) still reach the same routes.
            (.get, "/health/", "health"), (.get, "/%68ealth", "health"), (.get, "/admin//status", "admin status"),
        ]
        for (method, path, answer) in expected {
            XCTAssertEqual(resolve(router, method, path), answer, "\(method.rawValue) \(path)")
        }
        XCTAssertEqual(match(router, .get, "/api/items/special")?.group.prefix, "/api")
        XCTAssertEqual(match(router, .get, "/admin/status")?.group.prefix, "/admin")
    }

    func testWholePathIndexDefersToAMatchingHostGroup() {
        let router = Router()
        router.group("/v1", host: "{app}.example.com").get("/ping", tag("host ping"))
        router.group("/v1").get("/ping", tag("plain ping"))
        let entry = router.table().exactRoutes["/v1/ping"]
        XCTAssertEqual(entry?.hostGuards.count, 1)
        XCTAssertEqual(resolve(router, .get, "/v1/ping", host: "shop.example.com"), "host ping")
        XCTAssertEqual(match(router, .get, "/v1/ping", host: "shop.example.com")?.hostParameters, ["app": "shop"])
        XCTAssertEqual(resolve(router, .get, "/v1/ping", host: "other.org"), "plain ping")
        XCTAssertEqual(resolve(router, .get, "/v1/ping"), "plain ping")
    }

    /// Paths of up to 15 bytes are stored inline and lend no storage; longer ones do: both are compared.
    func testGroupPrefixMatchesShortAndLongPaths() {
        let router = Router()
        router.group("/couch").get("/*", tag("couch"))
        router.group("").get("/*", tag("root"))
        XCTAssertEqual(resolve(router, .get, "/couch"), "couch")
        XCTAssertEqual(resolve(router, .get, "/couch/db"), "couch")
        XCTAssertEqual(resolve(router, .get, "/couchdb"), "root")
        XCTAssertEqual(resolve(router, .get, "/couc"), "root")
        XCTAssertEqual(resolve(router, .get, "/couch/a-database-name/a-document-id"), "couch")
        XCTAssertEqual(resolve(router, .get, "/couchdb-with-a-long-name/x"), "root")
        XCTAssertEqual(resolve(router, .get, "/cöuch/a-database-name/a-document-id"), "root")
        let group = CompiledGroup(spec: Router.GroupSpec(prefix: "/couch"))
        XCTAssertEqual(group.relativePath("/couch/x").map(String.init), "/x")
        XCTAssertEqual(group.relativePath("/couch/" + String(repeating: "y", count: 30)).map(String.init),
                       "/" + String(repeating: "y", count: 30))
        XCTAssertNil(group.relativePath("/cou"))
        XCTAssertNil(group.relativePath("/couchx/" + String(repeating: "y", count: 30)))
    }

    /// The whole-path index is consulted only for lengths it holds; every length, short or long, still finds
    /// its route, and a path of another length goes to the walk.
    func testWholePathIndexByLength() {
        let router = Router()
        let group = router.group("/api")
        let paths = ["/a", "/" + String(repeating: "b", count: 58), "/" + String(repeating: "c", count: 59),
                     "/" + String(repeating: "d", count: 80)]
        for path in paths { group.get(path, tag(path)) }
        group.get("/*", tag("rest"))
        let table = router.table()
        for path in paths {
            XCTAssertEqual(resolve(router, .get, "/api" + path), path)
            XCTAssertTrue(table.hasExactRoute(ofLength: ("/api" + path).utf8.count), path)
        }
        XCTAssertEqual(resolve(router, .get, "/api/x"), "rest")
        XCTAssertEqual(resolve(router, .get, "/api/" + String(repeating: "d", count: 81)), "rest")
        XCTAssertFalse(table.hasExactRoute(ofLength: 200))
        XCTAssertFalse(table.hasExactRoute(ofLength: 3))
    }

    /// A root `*` route's rest loses its leading slashes; a slash that a combining mark joins into another
    /// Character stays, as Character comparison always kept it.
    func testRootWildcardRestWithoutLeadingSlashes() {
        let router = Router()
        router.group("/p").get("/*", tag("p"))
        XCTAssertEqual(match(router, .get, "/p///a/b")?.wildcard, "a/b")
        XCTAssertEqual(match(router, .get, "/p/a%20b")?.wildcard, "a b")
        XCTAssertEqual(match(router, .get, "/p")?.wildcard, "")
        XCTAssertEqual(match(router, .get, "/p//")?.wildcard, "")
        XCTAssertEqual(match(router, .get, "/p/\u{301}x")?.wildcard, "/\u{301}x")
        XCTAssertEqual(match(router, .get, "/p/é")?.wildcard, "é")
        XCTAssertEqual(RouteTable.droppingLeadingSlashes("//\u{301}x"), "/\u{301}x")
        XCTAssertEqual(RouteTable.droppingLeadingSlashes("//ab"), "ab")
    }

    func testPrefixNormalisation() {
        XCTAssertEqual(Router.normalizePrefix("/parse/"), "/parse")
        XCTAssertEqual(Router.normalizePrefix("parse"), "/parse")
        XCTAssertEqual(Router.normalizePrefix("/"), "")
        XCTAssertEqual(Router.normalizePrefix(""), "")
    }
}
