import XCTest
import Core
import HTTP
@testable import BackbeamAPI

/// Addressing (§1.4) and the endpoint table.
final class RoutingUnitTests: XCTestCase {
    func testHostForms() {
        XCTAssertEqual(APITarget.parseHost("api-dev-demo.example.com:80").map { "\($0.0)/\($0.1)" }, "demo/dev")
        XCTAssertEqual(APITarget.parseHost("API-PRO-My-App.Example.com").map { "\($0.0)/\($0.1)" }, "my-app/pro")
        XCTAssertEqual(APITarget.parseHost("api-pro-a-b-c.x").map { "\($0.0)/\($0.1)" }, "a-b-c/pro")
        XCTAssertNil(APITarget.parseHost("web-dev-demo.example.com"))
        XCTAssertNil(APITarget.parseHost("api-test-demo.example.com"))
        XCTAssertNil(APITarget.parseHost("api-dev-.example.com"))
        XCTAssertNil(APITarget.parseHost("localhost:8080"))
        XCTAssertNil(APITarget.parseHost("[::1]:8080"))
        XCTAssertNil(APITarget.parseHost("api-dev-Bad_Name.example.com"))
    }

    func testPrefixIsRemovedFromTheSignedPath() throws {
        let config = BackbeamConfig()
        var request = try HTTPRequest(method: .get, target: "/backbeam/demo/dev/data/pl%61ce?x=1")
        var target = APITarget.resolve(request, config: config)
        XCTAssertEqual(target.project, "demo")
        XCTAssertEqual(target.env, .dev)
        XCTAssertEqual(target.rawPath, "/data/pl%61ce")
        request = try HTTPRequest(method: .get, target: "/backbeam/demo/test/data/place")
        target = APITarget.resolve(request, config: config)
        XCTAssertNil(target.env)
        request = try HTTPRequest(method: .get, target: "/data/place", headers: ["Host": "localhost"])
        XCTAssertNil(APITarget.resolve(request, config: config).project)
        var withDefault = BackbeamConfig()
        withDefault.defaultProject = "demo"
        withDefault.defaultEnv = .pro
        let fallback = APITarget.resolve(request, config: withDefault)
        XCTAssertEqual(fallback.project, "demo")
        XCTAssertEqual(fallback.env, .pro)
    }

    func testForwardedHostOnlyWhenTrusted() throws {
        let request = try HTTPRequest(method: .get, target: "/data/place",
                                      headers: ["Host": "api-dev-a.example.com", "X-Forwarded-Host": "api-pro-b.example.com, x"])
        XCTAssertEqual(APITarget.resolve(request, config: BackbeamConfig()).project, "a")
        var trusting = BackbeamConfig()
        trusting.trustForwardedHost = true
        XCTAssertEqual(APITarget.resolve(request, config: trusting).project, "b")
    }

    func testTableOrderMethodsAndTrailingSlash() {
        let table = EndpointTable()
        let hit: (String) -> EndpointHandler = { name in { _ in BackbeamReply(body: Array(name.utf8)) } }
        table.on("GET", "/data/:entity/near", EndpointOptions(), hit("near"))
        table.on("GET", "/data/:entity/:id", EndpointOptions(), hit("read"))
        table.on("PUT", "/data/:entity/:id", EndpointOptions(), hit("update"))
        func name(_ method: String, _ path: String) -> String {
            switch table.match(method: method, rawPath: path) {
            case .route(let handler, _, let params):
                return (try? handler(Self.dummyCall()).body).map { String(decoding: $0, as: UTF8.self) }.map {
                    $0 + (params["id"].map { ":" + $0 } ?? "")
                } ?? "?"
            case .methodNotAllowed(let allowed): return "405 " + allowed.joined(separator: ",")
            case .notFound: return "404"
            }
        }
        XCTAssertEqual(name("GET", "/data/place/near"), "near")
        XCTAssertEqual(name("PUT", "/data/place/near"), "update:near")
        XCTAssertEqual(name("GET", "/data/place/x"), "read:x")
        XCTAssertEqual(name("HEAD", "/data/place/x"), "read:x")
        XCTAssertEqual(name("GET", "/data/place/"), "read:")
        XCTAssertEqual(name("GET", "/data/place/a%2Fb"), "read:a/b")
        XCTAssertEqual(name("PATCH", "/data/place/x"), "405 GET,PUT,HEAD")
        XCTAssertEqual(name("GET", "/data/place/a/b"), "404")
        XCTAssertEqual(name("GET", "/Data/place/a"), "404", "segments match case-sensitively")
    }

    static func dummyCall() throws -> BackbeamCall {
        BackbeamCall(request: try HTTPRequest(method: .get, target: "/"),
                     project: Project(name: "p", source: .config, keys: [:], schema: nil, spaces: [:]), env: .dev,
                     space: SpaceID(1), parameters: BackbeamParameters(), method: "GET", pathParameters: [:],
                     fileParts: [], authUser: nil, now: 0)
    }
}
