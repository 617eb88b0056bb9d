import CEventLoop

/// The resident pages of the server's own executable.
///
/// Start-up runs code that a serving daemon never runs again (configuration, migrations, mounting four
/// APIs and their route tables), and the kernel maps code in 64 KiB around each page touched, so the
/// 96 MB static binary left about 13 MB of its code resident at idle, more than the serving paths use.
/// Those pages are clean copies of the file: dropping them from the process once it is ready costs
/// nothing but the minor faults that bring back what requests use.
public enum ExecutablePages {
    /// Drops the executable's read-only pages from the process (`madvise(MADV_PAGEOUT)`, Linux 5.4 and
    /// later; a no-op before). Returns the bytes advised (0 when the kernel refused, -1 when
    /// `/proc/self/maps` could not be read).
    @discardableResult
    public static func releaseAfterStartup() -> Int {
        quartet_release_executable_pages()
    }
}
