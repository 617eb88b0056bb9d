import Core

extension ParseContext {
    /// Runs a write whose heavy part can be prepared before it is queued (see `PreparedWrites`): `prepare`
    /// makes the preparation (nil: none is worth making), `job` uses it when it is still current. A job that
    /// finds it stale (`StalePreparation`: a concurrent write changed the object or the schema) is retried with
    /// a new one; the last attempt goes without, so the job does the work itself, as for small objects.
    ///
    /// The worker waits for the commit (no parking): only large writes come here, and the retries need it.
    /// Inside a transactional batch there is nothing to prepare outside the job.
    func writePrepared<P: Sendable, T: Sendable>(prepare: () throws -> P?,
                                                 job: @escaping @Sendable (any ParseTransaction, P?) throws -> T,
                                                 reply: (T) -> ParseReply) throws -> ParseReply {
        guard transaction == nil else { return reply(try write { tx in try job(tx, nil) }) }
        // `write` records the request id with the first job; a stale job rolled it back with the rest.
        let requestId = self.requestId
        for _ in 1..<PreparedWrites.attempts {
            guard let prepared = try prepare() else { break }
            do {
                return reply(try write { tx in try job(tx, prepared) })
            } catch is StalePreparation {
                self.requestId = requestId
            }
        }
        return reply(try write { tx in try job(tx, nil) })
    }
}
