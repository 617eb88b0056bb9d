import Core
import CouchAPI

/// Harness for the Couch document input: revision ids, revision lists, `_revisions` and document
/// validation, all of which run before anything is stored.
enum CouchFuzz {
    /// The raw input as a revision id (as `?rev=` gives it); then, when it is JSON, as a document body
    /// (with its replicated path), as a `_revisions` member and as a revision list.
    static func document(_ input: [UInt8]) -> FuzzOutcome {
        var outcomes: [FuzzOutcome] = []
        do throws(CouchError) {
            let rev = try RevID(parsingUTF8: input)
            // A parsed revision must parse again from its own text to the same value.
            guard (try? RevID(parsing: rev.description)) == rev else { return .violated("revision \(rev) does not round-trip") }
            outcomes.append(.accepted)
        } catch {
            outcomes.append(.refused("\(error)"))
        }
        guard let json = try? JSONParser.parse(input) else { return FuzzOutcome.all(outcomes) }
        do throws(CouchError) {
            let document = try DocumentInput(json)
            if document.revisions != nil || document.rev != nil { _ = try document.replicatedPath() }
            outcomes.append(.accepted)
        } catch {
            outcomes.append(.refused("\(error)"))
        }
        do throws(CouchError) {
            _ = try RevPath(revisionsMember: json)
            outcomes.append(.accepted)
        } catch {
            outcomes.append(.refused("\(error)"))
        }
        do throws(CouchError) {
            _ = try RevID.list(json: json)
            outcomes.append(.accepted)
        } catch {
            outcomes.append(.refused("\(error)"))
        }
        return FuzzOutcome.all(outcomes)
    }
}
