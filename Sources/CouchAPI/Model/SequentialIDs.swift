import Core

/// Server-generated document ids and `/_uuids` (spec §4.8): CouchDB's `sequential` algorithm.
///
/// An id is 32 lowercase hex digits: a random 26-digit prefix and a 6-digit counter. Each id advances the
/// counter by a random step of 1…4094, so consecutive ids sort together (index locality in the store)
/// while staying unguessable; when the counter would pass 0xFFFFFF a new random prefix is drawn, as at
/// every start. Prefixes are 104 random bits, so collisions are negligible. Safe to share between threads.
public final class SequentialIDs: Sendable {
    /// The largest step; steps are uniform in 1…maxStep.
    public static let maxStep = 4094
    private static let counterLimit: UInt32 = 0xFF_FFFF
    /// Random bytes are fetched in blocks: one `RAND_bytes` call per id would cost more than the id.
    private static let randomBlock = 64

    private struct State {
        var prefix: [UInt8] = []
        var counter: UInt32 = 0
        var random: [UInt8] = []
        var nextRandom = 0
    }

    private let state: Locked<State>
    private let randomBytes: @Sendable (Int) -> [UInt8]

    /// A generator with a fresh random prefix. `randomBytes` supplies random bytes (the CSPRNG unless a
    /// test injects a deterministic source).
    public init(randomBytes: @escaping @Sendable (Int) -> [UInt8] = Crypto.randomBytes) {
        self.randomBytes = randomBytes
        var initial = State()
        Self.startPrefix(&initial, randomBytes)
        state = Locked(initial)
    }

    /// The next id.
    public func next() -> String {
        state.withLock { state in Self.take(&state, randomBytes) }
    }

    /// `count` ids in order (`/_uuids?count=`, a `_bulk_docs` request's untitled documents).
    public func next(_ count: Int) -> [String] {
        guard count > 0 else { return [] }
        return state.withLock { state in (0..<count).map { _ in Self.take(&state, randomBytes) } }
    }

    private static func take(_ state: inout State, _ source: (Int) -> [UInt8]) -> String {
        var text = state.prefix
        for shift in stride(from: 20, through: 0, by: -4) {
            text.append(Hex.digit(UInt8(truncatingIfNeeded: state.counter >> UInt32(shift)) & 0x0F))
        }
        let step = randomStep(&state, source)
        // counter ≤ 0xFFFFFF and step ≤ 4094: the sum cannot overflow UInt32.
        if state.counter + step > counterLimit {
            startPrefix(&state, source)
        } else {
            state.counter += step
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A new random prefix and a counter starting at a random step, as CouchDB's `sequential` state begins.
    private static func startPrefix(_ state: inout State, _ source: (Int) -> [UInt8]) {
        state.prefix = Array(Hex.encode(randomBytes(13, &state, source)).utf8)
        state.counter = randomStep(&state, source)
    }

    /// Uniform in 1…4094: twelve random bits (0…4095), redrawn when they are 4094 or 4095 rather than
    /// folded, which would favour the smallest steps.
    private static func randomStep(_ state: inout State, _ source: (Int) -> [UInt8]) -> UInt32 {
        while true {
            let bytes = randomBytes(2, &state, source)
            let value = (UInt32(bytes[0]) << 8 | UInt32(bytes[1])) & 0x0FFF
            if value < UInt32(maxStep) { return value + 1 }
        }
    }

    /// `count` bytes from the buffered random block, refilled from `source` as needed.
    private static func randomBytes(_ count: Int, _ state: inout State, _ source: (Int) -> [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            if state.nextRandom >= state.random.count {
                state.random = source(randomBlock)
                state.nextRandom = 0
                // A source that returns nothing would loop forever; the CSPRNG never does (it stops the
                // process instead), so this only guards injected sources.
                if state.random.isEmpty { state.random = [UInt8](repeating: 0, count: randomBlock) }
            }
            out.append(state.random[state.nextRandom])
            state.random[state.nextRandom] = 0   // handed out once, not left readable
            state.nextRandom += 1
        }
        return out
    }
}
