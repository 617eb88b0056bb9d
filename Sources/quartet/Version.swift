import ArgumentParser
import App

/// `quartet version`.
struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the version.")
    func run() { print(AppInfo.banner) }
}
