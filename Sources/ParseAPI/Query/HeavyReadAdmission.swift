import Core
import HTTP
import Storage

/// A query's place among the heavy reads (`ReaderShare`, spec §7.11): a find that `QueryCost` finds heavy
/// takes one before its slow work, and gives it back when the request's read ends.
///
/// A query learns that it is heavy only once it is planned, on a read connection. If a place is free then,
/// it takes it and goes on (`enterNow`). If not, it must not wait there, holding a reader that light
/// requests need: it throws `MustWait`, `ParseContext.readQuery` gives the connection back, waits for a place
/// without one (`waitForPlace`), and runs the query again, holding the place from the start.
final class HeavyReadAdmission {
    let share: ReaderShare
    /// The end of the query's budget: it never waits past it.
    let deadline: Deadline
    /// The request, asked for the client only when a place is taken (most queries are light).
    private let context: ParseContext
    /// Whose place is held (set with it).
    private var client: String?
    var held: Bool { client != nil }

    /// No place was free; the connection should be given back before waiting for one.
    struct MustWait: Error {}

    init(share: ReaderShare, context: ParseContext, deadline: Deadline) {
        self.share = share
        self.context = context
        self.deadline = deadline
    }

    /// Takes a place if this query holds none yet; throws `MustWait` when none is free now.
    func enterNow() throws {
        guard !held else { return }
        let client = context.heavyReadClient
        guard share.tryEnter(client: client) else { throw MustWait() }
        self.client = client
    }

    /// Waits for a place, at most the share's wait and never past the query's deadline. Beyond that the
    /// query is answered as one out of time (124), without having run.
    func waitForPlace() throws {
        guard !held else { return }
        let until = Deadline.after(seconds: Double(share.waitMilliseconds) / 1000).earlier(deadline)
        let client = context.heavyReadClient
        guard share.enter(client: client, untilUptimeNanoseconds: until.uptimeNanoseconds) else {
            throw ParseError(124, "Query timed out: too many slow queries are running.")
        }
        self.client = client
    }

    /// Gives the place back, if one is held.
    func leave() {
        guard let client else { return }
        self.client = nil
        share.leave(client: client)
    }
}

extension ParseContext {
    /// Runs a query that may turn out heavy (see `HeavyReadAdmission`) on a read connection: `body` gets the
    /// query's admission (nil inside a transactional batch, which reads on the writer's connection, or when
    /// the store has no share), and runs a second time, holding a place, if it had to wait for one.
    func readQuery<T>(deadline: Deadline, _ body: (any ParseTransaction, HeavyReadAdmission?) throws -> T) throws -> T {
        var admission: HeavyReadAdmission?
        if transaction == nil, let share = app.store.heavyReads {
            admission = HeavyReadAdmission(share: share, context: self, deadline: deadline)
        }
        defer { admission?.leave() }
        do {
            return try read { tx in try body(tx, admission) }
        } catch is HeavyReadAdmission.MustWait {
            guard let admission else { throw ParseError.internalError }
            try admission.waitForPlace()
            return try read { tx in try body(tx, admission) }
        }
    }

    /// Runs a read that is heavy whatever it asks (an aggregate reads a whole class): like `readQuery`, with
    /// the place taken before `body` runs.
    func readHeavy<T>(deadline: Deadline, _ body: (any ParseTransaction) throws -> T) throws -> T {
        try readQuery(deadline: deadline) { tx, admission in
            try admission?.enterNow()
            return try body(tx)
        }
    }

    /// The client a heavy read counts against: the user when one is signed in (so that users behind one
    /// address do not share a cap), else the client address.
    var heavyReadClient: String {
        if let userId = caller.userId { return "user:" + userId }
        return "address:" + app.addresses.clientAddress(of: http)
    }
}
