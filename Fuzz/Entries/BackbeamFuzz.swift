import BackbeamAPI

/// Harnesses for Backbeam's BQL parser and its signed-parameter decoder.
enum BackbeamFuzz {
    /// The input as a `q` query and as a `joins` parameter; a query that parses is bound to as many
    /// parameters as it has placeholders (and to one too few, which must be refused).
    static func bql(_ input: [UInt8]) -> FuzzOutcome {
        let text = String(decoding: input, as: UTF8.self)
        var outcomes: [FuzzOutcome] = []
        do throws(BQLError) {
            let query = try BQLParser.parse(text)
            let params = (0..<query.placeholderCount).map { "p\($0)" }
            _ = try BQLBoundQuery.bind(query, params: params)
            if query.placeholderCount > 0 {
                do throws(BQLError) {
                    _ = try BQLBoundQuery.bind(query, params: Array(params.dropLast()))
                    return .violated("bound \(query.placeholderCount) placeholders to one parameter fewer")
                } catch {}
            }
            outcomes.append(.accepted)
        } catch {
            outcomes.append(.refused("\(error)"))
        }
        do throws(BQLError) {
            _ = try BQLParser.parseJoins(text)
            outcomes.append(.accepted)
        } catch {
            outcomes.append(.refused("\(error)"))
        }
        return FuzzOutcome.all(outcomes)
    }

    /// Input: method selector byte, then query string, LF, url-encoded body. Decoded parameters go on to the
    /// write commands (`set-`, `add-`, `rem-` with type suffixes), and each value to the location parser.
    static func parameters(_ input: [UInt8]) -> FuzzOutcome {
        guard let selector = input.first else { return .accepted }
        let methods = ["GET", "POST", "PUT", "DELETE"]
        let (query, body) = FuzzInput.split(Array(input.dropFirst()), at: 0x0A)
        let decoded: DecodedParameters
        do throws(ParameterError) {
            decoded = try ParameterDecoder().decode(httpMethod: methods[Int(selector) % methods.count], query: query,
                                                    body: body.isEmpty ? .none : .urlencoded(body))
        } catch {
            return .refused("\(error)")
        }
        for entry in decoded.parameters.entries {
            for value in entry.values { _ = Location.parse(value) }
        }
        do throws(BackbeamError) {
            _ = try CommandParser.parse(decoded.parameters, entity: "item")
            return .accepted
        } catch {
            return .refused(error.description)
        }
    }
}
