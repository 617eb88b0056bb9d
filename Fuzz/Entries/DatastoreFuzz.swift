import Core
import DatastoreAPI

/// Harness for the Datastore delta parser (`put_delta`'s `changes`).
enum DatastoreFuzz {
    /// The input is the `changes` parameter's JSON text; JSON that does not parse is refused before the
    /// delta parser, as the route does.
    static func changes(_ input: [UInt8]) -> FuzzOutcome {
        let json: JSON
        do throws(JSONError) {
            json = try JSONParser.parse(input)
        } catch {
            return .refused(error.description)
        }
        do throws(ChangeParser.Invalid) {
            let delta = try ChangeParser.parse(json)
            guard delta.size >= 0 else { return .violated("negative delta size \(delta.size)") }
            return .accepted
        } catch {
            return .refused(error.message)
        }
    }
}
