/// Collects the objects of one response: each once, in the order first reached, with what the query joined
/// on it (§4.4). An object reached again (a main result that is also some object's author) keeps its first
/// record and gains the new joins, so every field rendered as a bare id has its target in `objects`.
/// Objects are keyed by their internal key (every object of a response is of one environment, where keys
/// and ids correspond one to one), which is cheaper to hash than the id text.
struct PageBuilder {
    private(set) var objects: [ResponseObject] = []
    private var positions: [Int64: Int] = [:]

    /// Adds `record` unless present.
    mutating func add(_ record: ObjectRecord) {
        guard positions[record.seq] == nil else { return }
        positions[record.seq] = objects.count
        objects.append(ResponseObject(record: record))
    }

    /// Marks the to-one `field` of the object with key `seq` as joined (its target is in the response).
    mutating func joinToOne(seq: Int64, field: String) {
        guard let i = positions[seq], !objects[i].joinedToOne.contains(field) else { return }
        objects[i].joinedToOne.append(field)
    }

    /// Attaches a joined to-many relationship to the object with key `seq`.
    mutating func joinToMany(seq: Int64, _ joined: JoinedToMany) {
        guard let i = positions[seq], !objects[i].toMany.contains(where: { $0.field == joined.field }) else { return }
        objects[i].toMany.append(joined)
    }
}
