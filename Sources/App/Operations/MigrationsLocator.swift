import Foundation

/// Finds the `Migrations/` folder: the configured one, else next to the binary (Docker image, release
/// tarball), else `../share/quartet/Migrations` beside the binary, else `./Migrations` (for `swift run`
/// from the repository).
public enum MigrationsLocator {
    /// The first existing candidate, or nil with the list of places searched.
    public static func locate(configured: String?) -> Result<String, MigrationsNotFound> {
        var candidates: [String] = []
        if let configured {
            candidates = [configured]
        } else {
            let exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "quartet").resolvingSymlinksInPath()
            let dir = exe.deletingLastPathComponent()
            candidates = [
                dir.appendingPathComponent("Migrations").path,
                dir.deletingLastPathComponent().appendingPathComponent("share/quartet/Migrations").path,
                FileManager.default.currentDirectoryPath + "/Migrations",
            ]
        }
        for path in candidates {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue { return .success(path) }
        }
        return .failure(MigrationsNotFound(searched: candidates))
    }
}

/// No migrations folder was found.
public struct MigrationsNotFound: Error, CustomStringConvertible {
    /// Every path tried.
    public let searched: [String]
    public var description: String {
        "no Migrations folder found (searched: \(searched.joined(separator: ", "))); set storage.migrationsDir or --migrations-dir"
    }
}
