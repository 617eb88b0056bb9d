import Core
@testable import CouchAPI

extension CouchFuzz {
    /// A replicated `_bulk_docs` body. The tree-less reader (`ReplicatedBulkReader`) may only take a body the
    /// general way (a JSON tree, `docs` split by `DocumentInput`) accepts as replicated, and must then give every
    /// element's id, `_rev`, `_revisions`, `_deleted`, `_attachments` and stored body as the general way gives
    /// them. Read under two element limits, so that the limit is reached by inputs of fuzzing size.
    static func bulkDocs(_ input: [UInt8]) -> FuzzOutcome {
        var outcomes: [FuzzOutcome] = []
        for maxElements in [2, 1000] {
            guard let elements = ReplicatedBulkReader.read(input, maxElements: maxElements,
                                                          maxDocIDLength: DocumentID.defaultMaxLength) else {
                outcomes.append(.refused("left to the general way"))
                continue
            }
            if let disagreement = bulkDocsDisagreement(input, elements, maxElements: maxElements) {
                return .violated(disagreement)
            }
            outcomes.append(.accepted)
        }
        return FuzzOutcome.all(outcomes)
    }

    /// Nil when the general way reads `input` as the replicated body `elements` says it is.
    private static func bulkDocsDisagreement(_ input: [UInt8], _ elements: [ReplicatedBulkReader.Element],
                                             maxElements: Int) -> String? {
        guard case .object(let body)? = try? CouchJSON.parseRequest(input) else {
            return "the reader takes a body that is not a JSON object to the general way"
        }
        guard case .array(let docs)? = body["docs"] else { return "the reader takes a body without a `docs` array" }
        guard body["new_edits"] == .bool(false) else { return "the reader takes a body that is not replicated" }
        guard docs.count <= maxElements else { return "the reader takes \(docs.count) elements past the limit" }
        guard docs.count == elements.count else { return "\(elements.count) elements read, \(docs.count) in the body" }
        for (index, (element, doc)) in zip(elements, docs).enumerated() {
            guard case .object = doc, let general = try? DocumentInput(doc) else {
                return "element \(index): taken by the reader, refused by the general way"
            }
            guard let id = general.id, id == element.id, !DocumentID.isLocal(id) else {
                return "element \(index): ids differ or the element is local"
            }
            guard element.rev == doc["_rev"]?.stringValue else { return "element \(index): _rev differs" }
            guard element.revisions == general.revisions else { return "element \(index): _revisions differ" }
            guard element.deleted == general.deleted else { return "element \(index): _deleted differs" }
            guard element.attachments == general.attachments else { return "element \(index): _attachments differ" }
            guard element.body == JSON.object(general.body).serializedBytes() else {
                return "element \(index): stored bodies differ"
            }
        }
        return nil
    }
}
