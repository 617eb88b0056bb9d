import Core

/// Harness for Core's JSON parser and serialiser.
enum CoreFuzz {
    /// Parses the input under the option set its length picks (depth limit, duplicate-key policy, byte
    /// order mark, decimal overflow). A value that parses must serialise to text that parses again under
    /// the default options and serialises to the same bytes: the serialiser's output is what every API
    /// stores and sends.
    static func json(_ input: [UInt8]) -> FuzzOutcome {
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
}
