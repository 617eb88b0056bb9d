import Core

/// Harness for Core's JSON parser and serialiser.
enum CoreFuzz {
    /// Parses the input under the option set its length picks (depth limit, duplicate-key policy, byte
    /// order mark, decimal overflow). A value that parses must serialise to text that parses again under
    /// the default options and serialises to the same bytes: the serialiser's output is what every API
    /// stores and sends.
    static func json(_ input: [UInt8]) -> FuzzOutcome {
        if let disagreement = compactorDisagreement(input) { return .violated(disagreement) }
        let policies: [DuplicateKeyPolicy] = [.reject, .lastWins, .firstWins]
        let options = JSONParseOptions(maxDepth: input.count % 2 == 0 ? 64 : 8, maxBytes: 1 << 20,
                                       duplicateKeys: policies[input.count % 3],
                                       allowsByteOrderMark: input.count % 5 == 0,
                                       rejectsDecimalOverflow: input.count % 7 == 0)
        let value: JSON
        do throws(JSONError) {
            value = try JSONParser.parse(input, options: options)
        } catch {
            return .refused(error.description)
        }
        let text = value.serializedBytes()
        do throws(JSONError) {
            let again = try JSONParser.parse(text, options: JSONParseOptions(maxDepth: 128, maxBytes: 1 << 22))
            guard again.serializedBytes() == text else {
                return .violated("serialisation is not stable: \(String(decoding: text, as: UTF8.self))")
            }
            return .accepted
        } catch {
            return .violated("serialised form does not parse: \(error.description)")
        }
    }

    /// The tree-less reader of replicated `_bulk_docs` (`JSONCompactor`) must give the parser's verdict under
    /// the same options and, where both accept, the serialiser's bytes: stored bodies and revision ids depend
    /// on it. Nil when they agree.
    private static func compactorDisagreement(_ input: [UInt8]) -> String? {
        let options = JSONParseOptions(maxDepth: 64, maxBytes: 1 << 20)
        let parsed = Result { () throws(JSONError) in try JSONParser.parse(input, options: options) }
        let compacted: [UInt8]? = input.withUnsafeBufferPointer { buffer in
            var compactor = JSONCompactor(buffer: buffer, options: options)
            var out: [UInt8] = []
            do {
                try compactor.value(into: &out, depth: 0)
                return compactor.atEnd() ? out : nil
            } catch {
                return nil
            }
        }
        switch (parsed, compacted) {
        case (.success(let value), let out?):
            return out == value.serializedBytes() ? nil : "compactor output differs from the serialiser's"
        case (.failure, nil):
            return nil
        case (.success, nil):
            return "the parser accepts what the compactor refuses"
        case (.failure, _?):
            return "the compactor accepts what the parser refuses"
        }
    }
}
