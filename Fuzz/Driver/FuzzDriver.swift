#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FuzzEntries

/// The libFuzzer entry point of `quartet-fuzz` (built only by `make fuzz`, with `-sanitize=fuzzer`, which
/// supplies `main`). `QUARTET_FUZZ_HARNESS` names the harness (`FuzzHarness`'s raw values) and
/// `QUARTET_FUZZ_WORKDIR` an existing directory for the files a parser writes.
private let harness: FuzzHarness = {
    guard let name = getenv("QUARTET_FUZZ_HARNESS"), let harness = FuzzHarness(rawValue: String(cString: name)) else {
        let names = FuzzHarness.allCases.map(\.rawValue).joined(separator: ", ")
        fatalError("set QUARTET_FUZZ_HARNESS to one of: \(names)")
    }
    return harness
}()

private let workDirectory: String = {
    guard let directory = getenv("QUARTET_FUZZ_WORKDIR") else { fatalError("set QUARTET_FUZZ_WORKDIR") }
    return String(cString: directory)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // A violation is a finding: trapping makes libFuzzer save the input as a crash artifact.
    if case .violated(let message) = harness.run(input, workDirectory: workDirectory) {
        fatalError("\(harness.rawValue): \(message)")
    }
    return 0
}
