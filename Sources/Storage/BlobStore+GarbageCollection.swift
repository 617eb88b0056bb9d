import Core
import Foundation

extension BlobStore {
    /// Deletes blobs nobody references: rows whose count has been zero for `olderThan`, files with no
    /// row at all that are older than that (stored but never retained), and temp files left by a crash.
    /// Rows are deleted in one solo write job; their files are unlinked right after it commits, before
    /// the writer runs anything else. Returns the number of blob files removed.
    public func collectGarbage(olderThan: Duration = .seconds(3600)) throws -> Int {
        let age = Self.milliseconds(olderThan)
        let cutoff = Self.nowMillis() - age
        // A temp file is rewritten (so its mtime moves) while its store runs; five quiet minutes mean its
        // writer is gone, whatever threshold the caller chose for blobs.
        removeStaleTempFiles(cutoff: min(cutoff, Self.nowMillis() - Self.tempFileMinimumAgeMillis))
        let orphanCandidates = blobFiles().filter { (FileIO.modifiedMillis($0.file) ?? Int64.max) <= cutoff }
        let removed = Locked(0)
        try storage.writeAndWait(solo: true) { [self] ctx in
            var doomed: [String] = []
            let expired = try ctx.db.query(
                "SELECT hash FROM quartet_blobs WHERE refcount = 0 AND unreferenced_since <= ?", [.integer(cutoff)])
            for row in expired {
                guard let hash = row["hash"].string else { continue }
                try ctx.db.run("DELETE FROM quartet_blobs WHERE hash = ? AND refcount = 0", [.text(hash)])
                doomed.append(hash)
            }
            for candidate in orphanCandidates {
                if try ctx.db.queryOne("SELECT 1 FROM quartet_blobs WHERE hash = ?", [.text(candidate.hash)]) == nil {
                    doomed.append(candidate.hash)
                }
            }
            ctx.afterCommit { [self] in
                let count = unlinkUnlessRefreshed(doomed, cutoff: cutoff)
                removed.withLock { $0 = count }
            }
        }
        let count = removed.withLock { $0 }
        if count > 0 {
            storage.logger.info("blob garbage collected", metadata: ["files": "\(count)"])
        }
        return count
    }

    /// Unlinks each blob's file unless `store` touched it after the cutoff (it was just handed out
    /// again and is about to be retained; a later collection will look at it again).
    private func unlinkUnlessRefreshed(_ hashes: [String], cutoff: Int64) -> Int {
        var count = 0
        fileLock.withLock {
            // Before any file goes: a presence remembered from before must not outlive it.
            if !hashes.isEmpty { presence.forgetAll() }
            for hash in Set(hashes) {
                guard let location = location(for: hash),
                      let modified = FileIO.modifiedMillis(location.file), modified <= cutoff else { continue }
                if FileIO.unlinkIfPresent(location.file) { count += 1 }
            }
        }
        return count
    }

    /// Every blob file in the store, as (hash, path).
    func blobFiles() -> [(hash: String, file: String)] {
        var found: [(String, String)] = []
        for first in FileIO.list(directory) where first.utf8.count == 2 {
            let firstPath = directory + "/" + first
            for second in FileIO.list(firstPath) where second.utf8.count == 2 {
                let secondPath = firstPath + "/" + second
                for name in FileIO.list(secondPath) where Self.isValidHash(name) {
                    found.append((name, secondPath + "/" + name))
                }
            }
        }
        return found
    }

    /// Removes every temp file of this store, whatever its age: at start-up, before anything is stored, they can
    /// only be what a crashed process left (spec: orphaned temporary blob files are removed at start-up).
    public func removeTemporaryFiles() {
        removeStaleTempFiles(cutoff: Int64.max)
    }

    /// Temp files older than the cutoff can only be leftovers of a crashed or failed store.
    private func removeStaleTempFiles(cutoff: Int64) {
        for name in FileIO.list(tempDirectory) where name.hasPrefix(Self.tempPrefix) && name.hasSuffix(Self.tempSuffix) {
            let path = tempDirectory + "/" + name
            if let modified = FileIO.modifiedMillis(path), modified <= cutoff {
                FileIO.unlinkIfPresent(path)
            }
        }
    }

    /// Temp files younger than this are never collected (see collectGarbage).
    static let tempFileMinimumAgeMillis: Int64 = 5 * 60 * 1000

    static func milliseconds(_ duration: Duration) -> Int64 {
        let parts = duration.components
        // attoseconds / 1e15 = milliseconds; saturate instead of overflowing on absurd durations.
        let (scaled, overflow) = parts.seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return parts.seconds < 0 ? Int64.min / 2 : Int64.max / 2 }
        return max(0, scaled + parts.attoseconds / 1_000_000_000_000_000)
    }
}
