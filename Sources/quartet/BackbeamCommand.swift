import ArgumentParser
import Foundation
import Logging
import App

/// `quartet backbeam ...`: Backbeam API administration.
struct BackbeamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "backbeam", abstract: "Backbeam API administration.",
                                                    subcommands: [CreateProject.self, Sign.self])

    /// Creates a project with one key pair per environment and prints the create response (shown once).
    struct CreateProject: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create-project",
            abstract: "Create a project (dev and pro key pairs) in the database and print its keys as JSON.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "Project name: 1-50 characters of a-z, 0-9 and '-'.") var name: String

        func run() throws {
            let config = try common.load()
            LoggingSetup.bootstrap(format: config.logFormat, level: "warning")
            do {
                print(try BackbeamAdmin.createProject(name: name, config: config, logger: Logger(label: "quartet.backbeam")))
            } catch {
                throw ValidationError("cannot create project '\(name)': \(error)")
            }
        }
    }

    /// Prints the signed query string of a request, for curl.
    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the signed query string of a Backbeam request (key, nonce, time and signature added).",
            discussion: """
                Example: curl "http://127.0.0.1:8080/backbeam/demo/dev/data/place?$(quartet backbeam sign \\
                  --key dev_... --secret dev_... GET /data/place 'q=where name=?' params=Pepe)"
                The path is the one after any /backbeam/<project>/<env> prefix. For POST and PUT, send the output as
                an application/x-www-form-urlencoded body (curl --data).
                """)
        @Option(help: "The shared key.") var key: String
        @Option(help: "The secret key (or set QUARTET_BACKBEAM_SECRET).") var secret: String?
        @Argument(help: "The method: GET, POST, PUT or DELETE.") var method: String
        @Argument(help: "The path, e.g. /data/place.") var path: String
        @Argument(help: "Parameters as name=value (repeat a name for a list).") var parameters: [String] = []

        func run() throws {
            guard let secret = secret ?? ProcessInfo.processInfo.environment["QUARTET_BACKBEAM_SECRET"] else {
                throw ValidationError("give --secret or set QUARTET_BACKBEAM_SECRET")
            }
            let pairs = try parameters.map { item -> (String, String) in
                guard let eq = item.firstIndex(of: "=") else { throw ValidationError("'\(item)' is not name=value") }
                return (String(item[..<eq]), String(item[item.index(after: eq)...]))
            }
            print(BackbeamAdmin.sign(method: method, path: path, parameters: pairs, key: key, secret: secret))
        }
    }
}
