import Core
import QueryKit

extension QueryRunner {
    /// What the store returned: objects, or their serialized text for a plain answer, and the count.
    struct Fetched {
        var objects: [StoredObject] = []
        var serialized: [UInt8] = []
        var count: Int?
    }

    /// Step 5: the store runs the plan. The time budget (spec §7.11) ends everything the query does at
    /// `deadline`: inside the store, a long single step (an unindexed scan that matches nothing) is
    /// interrupted, and in the regex engine a long match stops part-way; both answer 124.
    func execute(_ planned: FindPlan, _ q: QueryOptions, plain: Bool, schema: ClassSchema?, deadline: Deadline) throws -> Fetched {
        var fetched = Fetched()
        try tx.withTimeLimit(until: deadline) {
            if planned.residual.isEmpty {
                fetched = try fetchPage(planned.query, q, plain: plain, schema: schema)
            } else {
                fetched = try fetchFiltered(planned, q, deadline: deadline)
            }
        }
        return fetched
    }

    /// The page and the count, both from the store.
    private func fetchPage(_ query: QueryPlan, _ q: QueryOptions, plain: Bool, schema: ClassSchema?) throws -> Fetched {
        var fetched = Fetched()
        if !(q.count && q.limit == 0) {
            if plain {
                fetched.serialized.reserveCapacity(4096)
                let plainRenderer = ObjectRenderer(serverURL: serverURL, appId: appId, schema: schema)
                try tx.runPlain(query, into: &fetched.serialized) { text in
                    JSON.object(plainRenderer.render(try text.decoded())).serializedBytes()
                }
            } else {
                fetched.objects = try tx.run(query)
            }
        }
        if q.count { fetched.count = try tx.runCount(query) }
        return fetched
    }

    /// Candidates streamed in order and checked by the residual filters; paging and count are exact.
    private func fetchFiltered(_ planned: FindPlan, _ q: QueryOptions, deadline: Deadline) throws -> Fetched {
        var fetched = Fetched()
        var matched = 0
        let residual = planned.residual
        // One budget for every candidate: the regex engine reads the clock inside long matches, and the
        // clock is read before each candidate too (decoding a large row takes time of its own).
        var budget = RegexBudget(deadline: deadline)
        try tx.stream(planned.query) { o in
            if deadline.hasPassed { throw ParseError.queryTimedOut }
            guard try residual.allMatch(o, budget: &budget) else { return true }
            matched += 1
            if matched > q.skip && fetched.objects.count < q.limit { fetched.objects.append(o) }
            return q.count || fetched.objects.count < q.limit
        }
        if q.count { fetched.count = matched }
        return fetched
    }
}

extension ParseError {
    /// The query's time budget ran out (spec §7.11).
    static let queryTimedOut = ParseError(124, "Query timed out.")
}
