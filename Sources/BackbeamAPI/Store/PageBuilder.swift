/// Collects the objects of one response: each once, in the order first reached, with what the query joined
/// on it (§4.4). An object reached again (a main result that is also some object's author) keeps its first
/// record and gains the new joins, so every field rendered as a bare id has its target in `objects`.
struct PageBuilder {
    private(set) var objects: [ResponseObject] = []
    private var positions: [String: Int] = [:]

    /// Adds `record` unless present.
    mutating func add(_ record: ObjectRecord) {
        guard positions[record.id] == nil else { return }
        positions[record.id] = objects.count
        objects.append(ResponseObject(record: record))
    }

    /// Marks the to-one `field` of object `id` as joined (its target is in the response).
    mutating func joinToOne(id: String, field: String) {
        guard let i = positions[id], !objects[i].joinedToOne.contains(field) else { return }
        objects[i].joinedToOne.append(field)
    }

    /// Attaches a joined to-many relationship to object `id`.
    mutating func joinToMany(id: String, _ joined: JoinedToMany) {
        guard let i = positions[id], !objects[i].toMany.contains(where: { $0.field == joined.field }) else { return }
        objects[i].toMany.append(joined)
    }
}
