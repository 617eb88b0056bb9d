#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FuzzEntries

// The libFuzzer driver `quartet-fuzz`, built only by `make fuzz` with `-sanitize=fuzzer`.
// `QUARTET_FUZZ_HARNESS` names the harness (one of `FuzzHarness`'s raw values) and `QUARTET_FUZZ_WORKDIR` an
// existing directory for the files a parser writes. The command line is libFuzzer's own.
//
// The package manager links an executable's entry point under its own name, so libFuzzer's `main` is not
// used: this file's top-level code hands the command line to `LLVMFuzzerRunDriver` instead.

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

let harness: FuzzHarness = {
    guard let name = getenv("QUARTET_FUZZ_HARNESS"), let harness = FuzzHarness(rawValue: String(cString: name)) else {
        let names = FuzzHarness.allCases.map(\.rawValue).joined(separator: ", ")
        fatalError("set QUARTET_FUZZ_HARNESS to one of: \(names)")
    }
    return harness
}()

let workDirectory: String = {
    guard let directory = getenv("QUARTET_FUZZ_WORKDIR") else { fatalError("set QUARTET_FUZZ_WORKDIR") }
    return String(cString: directory)
}()

var argc = CommandLine.argc
var argv = Optional(CommandLine.unsafeArgv)
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    // A violation is a finding: trapping makes libFuzzer keep the input as a crash artifact.
    if case .violated(let message) = harness.run(input, workDirectory: workDirectory) {
        fatalError("\(harness.rawValue): \(message)")
    }
    return 0
})
