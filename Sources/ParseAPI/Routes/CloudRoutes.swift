import Core
import HTTP

/// Routes of features Quartet does not run (spec §18): cloud functions, jobs, hooks, push, analytics,
/// and the email flows that need an email adapter (§9.9). Each gives Parse Server's fixed answer.
enum CloudRoutes {
    static func register(_ t: inout RouteTable) {
        t.add(.post, "/functions/:name") { c in
            let name = JSON.string(c.param("name")).serialized()
            throw ParseError(141, "Invalid function: \(name)")
        }
        let job = RouteOptions(masterOnly: true, readOnlyDenial: "read-only masterKey isn't allowed to perform this operation.")
        t.add(.post, "/jobs", job) { _ in throw ParseError(141, "Invalid job.") }
        t.add(.post, "/jobs/:name", job) { _ in throw ParseError(141, "Invalid job.") }
        let hooksRead = RouteOptions(masterOnly: true)
        for method in [HTTPMethod.get, .post, .put, .delete] {
            let opts = method == .get ? hooksRead : job
            for path in ["/hooks/functions", "/hooks/functions/:name", "/hooks/triggers",
                         "/hooks/triggers/:className/:triggerName"] {
                t.add(method, path, opts) { _ in throw ParseError(141, "Invalid function.") }
            }
        }
        t.add(.post, "/push", job) { _ in throw ParseError(115, "Push controller is not set") }
        t.add(.post, "/events/:eventName") { _ in .empty }
        let email: RouteHandler = { _ in
            throw ParseError(1, "An appName, publicServerURL, and emailAdapter are required for password reset and "
                + "email verification functionality.")
        }
        t.add(.post, "/requestPasswordReset", RouteOptions(), email)
        t.add(.post, "/verificationEmailRequest", RouteOptions(), email)
    }
}

