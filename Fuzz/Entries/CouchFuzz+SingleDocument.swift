import Core
@testable import CouchAPI

extension CouchFuzz {
    /// The tree-less `PUT` reader (`SingleDocumentReader`) may only take a body the general way (a JSON tree split
    /// by `DocumentInput`) accepts, and must then give its stored body, `_rev`, `_deleted` and revision term
    /// byte for byte; nil when they agree or the reader gives the body up.
    static func singleDocumentDisagreement(_ input: [UInt8]) -> String? {
        guard let fast = SingleDocumentReader.read(input, maxDocIDLength: DocumentID.defaultMaxLength) else { return nil }
        guard let json = try? CouchJSON.parseRequest(input), let general = try? DocumentInput(json) else {
            return "the tree-less PUT reader takes a body the general way refuses"
        }
        guard fast.body == JSON.object(general.body).serializedBytes() else { return "stored bodies differ" }
        guard fast.rev == general.rev, fast.deleted == general.deleted else { return "_rev or _deleted differ" }
        let fastTerm = try? RevisionHash.termBytes(parent: fast.rev, deleted: fast.deleted, body: .term(fast.term),
                                                   attachments: [])
        let generalTerm = try? RevisionHash.termBytes(parent: general.rev, deleted: general.deleted,
                                                      body: general.body, attachments: [])
        guard fastTerm == generalTerm else { return "revision terms differ" }
        return nil
    }
}
