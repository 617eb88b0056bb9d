import Foundation
import XCTest
import Core

/// A `quartet serve` with Backbeam projects: `demo` and `my-app` declared in the configuration with fixed
/// key pairs, plus helpers to create projects through the admin API and to sign requests like the SDKs.
final class BackbeamServer: @unchecked Sendable {
    static let adminPassword = "conformance-admin-password"
    static let demoDev = BBKeys(key: "dev_demo_key", secret: "dev_demo_secret")
    static let demoPro = BBKeys(key: "pro_demo_key", secret: "pro_demo_secret")
    static let appDev = BBKeys(key: "dev_myapp_key", secret: "dev_myapp_secret")
    static let appPro = BBKeys(key: "pro_myapp_key", secret: "pro_myapp_secret")

    let server: TestServer

    /// The declared projects as configuration JSON (plus `extraProjects` members).
    static func projectsJSON(extra: String = "", demoSchema: String? = nil) -> String {
        let schema = demoSchema.map { ",\"schema\":\($0)" } ?? ""
        return """
            {"demo":{"dev":{"keys":[{"key":"\(demoDev.key)","secret":"\(demoDev.secret)"}]},\
            "pro":{"keys":[{"key":"\(demoPro.key)","secret":"\(demoPro.secret)"}]}\(schema)},\
            "my-app":{"dev":{"keys":[{"key":"\(appDev.key)","secret":"\(appDev.secret)"}]},\
            "pro":{"keys":[{"key":"\(appPro.key)","secret":"\(appPro.secret)"}]}}\(extra)}
            """
    }

    init(environment: [String: String] = [:], demoSchema: String? = nil, extraProjects: String = "") throws {
        var env = ["QUARTET_ADMIN_PASSWORD": Self.adminPassword,
                   "QUARTET_BACKBEAM_PROJECTS": Self.projectsJSON(extra: extraProjects, demoSchema: demoSchema),
                   "QUARTET_BACKBEAM_BCRYPT_COST": "4"]
        for (k, v) in environment { env[k] = v }
        server = try TestServer(environment: env)
    }

    func stop() { server.stop() }

    /// A client of `demo`/`dev` (or another project environment).
    func client(_ project: String = "demo", _ env: String = "dev", keys: BBKeys = BackbeamServer.demoDev,
                style: SDKStyle = .ios) -> BackbeamClient {
        BackbeamClient(server: server, project: project, env: env, keys: keys, style: style)
    }

    /// HTTP Basic credentials of the server admin.
    static var adminAuthorization: (String, String) {
        ("Authorization", "Basic " + Base64.encode(Array("admin:\(adminPassword)".utf8)))
    }

    /// `POST /_quartet/admin/backbeam/projects` with `name`; returns the dev and pro keys.
    func createProject(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> (dev: BBKeys, pro: BBKeys) {
        let r = try server.request("POST", "/_quartet/admin/backbeam/projects",
                                   headers: [Self.adminAuthorization, ("Content-Type", "application/x-www-form-urlencoded")],
                                   body: "name=\(name)")
        XCTAssertEqual(r.status, 201, r.text, file: file, line: line)
        let json = (try? JSONParser.parse(r.body)) ?? .null
        func pair(_ env: String) -> BBKeys {
            let k = json["environments"]?[env]?["keys"]?[0]
            return BBKeys(key: k?["key"]?.stringValue ?? "", secret: k?["secret"]?.stringValue ?? "")
        }
        return (pair("dev"), pair("pro"))
    }

    /// An admin request.
    func admin(_ method: String, _ path: String, body: String = "", authorized: Bool = true) throws -> BBResponse {
        var headers: [(String, String)] = [("Content-Type", "application/x-www-form-urlencoded")]
        if authorized { headers.append(Self.adminAuthorization) }
        return BBResponse(raw: try server.request(method, "/_quartet/admin/backbeam" + path, headers: headers, body: body))
    }
}

/// A test case with one Backbeam server per class (the server is slow to start on a busy machine) and a
/// fresh project per test, so no state leaks between checklist items.
class BackbeamTestCase: XCTestCase {
    nonisolated(unsafe) static var shared: [String: BackbeamServer] = [:]
    var bb: BackbeamServer!
    /// A client of this test's own project (dev environment, iOS style).
    var api: BackbeamClient!
    /// The keys of this test's project.
    var projectKeys: (dev: BBKeys, pro: BBKeys)!
    var projectName = ""

    override func setUpWithError() throws {
        let key = String(describing: type(of: self))
        if let existing = Self.shared[key] {
            bb = existing
        } else {
            bb = try BackbeamServer()
            Self.shared[key] = bb
        }
        projectName = "t" + UUID().uuidString.prefix(8).lowercased()
        projectKeys = try bb.createProject(projectName)
        api = BackbeamClient(server: bb.server, project: projectName, env: "dev", keys: projectKeys.dev)
    }

    override class func tearDown() {
        shared[String(describing: self)]?.stop()
        shared[String(describing: self)] = nil
        super.tearDown()
    }

    /// Creates an object with `set-` pairs and returns its id.
    @discardableResult
    func create(_ entity: String, _ params: [(String, [String])], client: BackbeamClient? = nil,
                file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try (client ?? api).send("POST", "/data/\(entity)", params)
        XCTAssertEqual(r.status, 201, r.text, file: file, line: line)
        return r.id
    }
}

/// Shorthand for single-valued parameters.
func p(_ pairs: (String, String)...) -> [(String, [String])] { pairs.map { ($0.0, [$0.1]) } }

extension XCTestCase {
    /// Asserts a Backbeam error body (§2.4): the status, both message keys, the JSON content type.
    func assertError(_ r: BBResponse, _ http: Int, _ status: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, http, r.text, file: file, line: line)
        XCTAssertEqual(r.apiStatus, status, r.text, file: file, line: line)
        XCTAssertNotNil(r["errorMessage"]?.stringValue, r.text, file: file, line: line)
        XCTAssertEqual(r["errorMessage"], r["message"], file: file, line: line)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
    }
}
