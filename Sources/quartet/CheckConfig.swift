import ArgumentParser
import App

/// `quartet check-config`: validates the configuration and prints the effective values (secrets masked).
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config", abstract: "Validate the configuration and print the effective values.")

    @OptionGroup var common: CommonOptions

    func run() throws {
        print(ConfigPrinter.effectiveText(try common.load()))
    }
}
