
/// CSPRNG bytes fetched from `Crypto.randomBytes` in blocks and handed out a few at a time.
///
/// Every object created draws a random id of ten characters. One `RAND_bytes` call per id cost more than
/// the rest of id generation (OpenSSL takes its locks and checks for a fork with `getpid` on every call)
/// and ran on the single writer thread; a block serves about forty ids. Each byte is handed out once.
final class RandomPool: Sendable {
    static let shared = RandomPool()

    /// 512 bytes: large enough that refills are rare, small enough to stay in a cache line or eight.
    private static let blockSize = 512
    private let state = Locked<(bytes: [UInt8], next: Int)>(([], 0))

    /// Appends `count` random bytes to `out`.
    func take(_ count: Int, into out: inout [UInt8]) {
        var remaining = count
        while remaining > 0 {
            state.withLock { state in
                if state.next >= state.bytes.count {
                    state.bytes = Crypto.randomBytes(Self.blockSize)
                    state.next = 0
                }
                let n = min(remaining, state.bytes.count - state.next)
                out.append(contentsOf: state.bytes[state.next..<(state.next + n)])
                // Overwritten as they are handed out, so no byte given away stays readable in the pool.
                for i in state.next..<(state.next + n) { state.bytes[i] = 0 }
                state.next += n
                remaining -= n
            }
        }
    }
}
