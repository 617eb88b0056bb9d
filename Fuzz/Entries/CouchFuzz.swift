import Core
import HTTP
@testable import CouchAPI

/// Harness for the Couch document input: revision ids, revision lists, `_revisions` and document
/// validation, all of which run before anything is stored.
enum CouchFuzz {
    /// The raw input as a revision id (as `?rev=` gives it); then, when it is JSON, as a document body
    /// (with its replicated path), as a `_revisions` member and as a revision list. As a `PUT` body, the
    /// tree-less reader must agree with the general way (`singleDocumentDisagreement`).
    static func document(_ input: [UInt8]) -> FuzzOutcome {
        if let disagreement = singleDocumentDisagreement(input) { return .violated(disagreement) }
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
        outcomes.append(users(json))
        return FuzzOutcome.all(outcomes)
    }

    /// The same JSON as a `_security` object, as a `_users` account (its stored hash checked against a
    /// password) and through the built-in `_users` rules as a user's write of their own document.
    static func users(_ json: JSON) -> FuzzOutcome {
        var outcomes: [FuzzOutcome] = []
        do throws(CouchError) {
            _ = try SecurityObject(validating: json)
            outcomes.append(.accepted)
        } catch {
            outcomes.append(.refused("\(error)"))
        }
        guard case .object(var body) = json else { return FuzzOutcome.all(outcomes) }
        // A stored hash may ask for up to `UserAccount.maxIterations` (10 million) rounds, seconds of OpenSSL
        // for one input and near the 10 s time-out; the iteration count only feeds OpenSSL, so the check runs
        // on hashes of up to 1,000 rounds (`couch.passwordIterations`' minimum) and everything else is parsed.
        if let account = UserAccount(body: body) {
            if case .pbkdf2(_, let iterations, _, _)? = account.credential, iterations > 1000 {} else { _ = account.verify("password") }
        }
        do throws(CouchError) {
            let caller = Credentials(name: "bob", roles: [], method: .basic)
            try UserDocumentRules.apply(id: "org.couchdb.user:bob", body: &body, deleted: false, old: nil, caller: caller,
                                        iterations: 1000)
            // A body that passed holds no plaintext password.
            if body["password"] != nil { return .violated("a password survived the _users rules") }
            outcomes.append(.accepted)
        } catch {
            outcomes.append(.refused("\(error)"))
        }
        return FuzzOutcome.all(outcomes)
    }

    /// `_changes` options: the first line is the query string (form-decoded as the server does), the rest the
    /// `Last-Event-ID` header when present.
    static func changes(_ input: [UInt8]) -> FuzzOutcome {
        let (queryBytes, header) = FuzzInput.split(input, at: 0x0A)
        let form: FormParameters
        do throws(FormError) {
            form = try FormParameters.parse(queryBytes)
        } catch {
            return .refused("\(error)")
        }
        let lastEventID = header.isEmpty ? nil : String(decoding: header, as: UTF8.self)
        do throws(CouchError) {
            _ = try ChangesOptions(QueryParameters(form: form), maxWait: 60_000, lastEventID: lastEventID)
            return .accepted
        } catch {
            return .refused("\(error)")
        }
    }

    /// `_all_docs` options (also `_design_docs` and `_local_docs`): the first line is the query string, the
    /// rest, when present, the JSON body of a POST (`keys` and the same options as members).
    static func allDocs(_ input: [UInt8]) -> FuzzOutcome {
        let (queryBytes, bodyBytes) = FuzzInput.split(input, at: 0x0A)
        let form: FormParameters
        do throws(FormError) {
            form = try FormParameters.parse(queryBytes)
        } catch {
            return .refused("\(error)")
        }
        var body: JSONObject?
        if !bodyBytes.isEmpty {
            guard case .object(let object)? = try? JSONParser.parse(bodyBytes) else { return .refused("body is not a JSON object") }
            body = object
        }
        do throws(CouchError) {
            _ = try AllDocsOptions(query: QueryParameters(form: form), body: body)
            return .accepted
        } catch {
            return .refused("\(error)")
        }
    }

    /// A multipart/related document write (`PUT /{db}/{docid}`) with boundary `fuzz-boundary`, read into memory
    /// spools. Accepted: each attachment's digest, blob hash and (identity) length belong to the bytes of one
    /// published part. Refused: every spool was discarded.
    static func multipart(_ input: [UInt8]) -> FuzzOutcome {
        var spools: [MemorySpool] = []
        let limits = RelatedDocumentReader.Limits(maxDocumentPart: 4096, maxAttachment: 1024)
        do throws(CouchError) {
            let (_, attachments) = try MultipartDocumentWrite.read(.bytes(input), boundary: "fuzz-boundary", limits: limits,
                                                                   maxParts: 8, replicated: input.count % 2 == 0) {
                let spool = MemorySpool()
                spools.append(spool)
                return spool
            }
            var byHash: [String: [UInt8]] = [:]
            for spool in spools { byHash[Hex.encode(Crypto.sha256(spool.bytes))] = spool.bytes }
            for (name, attachment) in attachments {
                guard let bytes = byHash[attachment.blobHash] else { return .violated("\(name): no part holds its blob") }
                guard attachment.digest == AttachmentDigest.string(md5: Crypto.md5(bytes)) else { return .violated("\(name): digest") }
                if attachment.encoding == nil, attachment.length != Int64(bytes.count) { return .violated("\(name): length") }
                guard bytes.count <= limits.maxAttachment else { return .violated("\(name): over the size limit") }
            }
            return .accepted
        } catch {
            guard spools.allSatisfy(\.discarded) else { return .violated("a refused body kept a spool: \(error)") }
            return .refused("\(error)")
        }
    }
}
