/// Statically configured teams (`datastore.teams`): the `team` principal matches a caller who shares a
/// team with the datastore's owner. Without teams it matches nobody.
public struct TeamDirectory: Sendable, Equatable {
    private let teams: [Set<String>]

    /// Creates a directory from team name → member user names.
    public init(_ teams: [String: [String]] = [:]) {
        self.teams = teams.keys.sorted().compactMap { teams[$0].map(Set.init) }
    }

    /// Whether `a` and `b` are members of one configured team.
    public func sameTeam(_ a: String, _ b: String) -> Bool {
        teams.contains { $0.contains(a) && $0.contains(b) }
    }
}
