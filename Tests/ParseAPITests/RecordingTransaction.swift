import Core
@testable import ParseAPI

/// A transaction that passes every call to a real one and records the query plans it is asked to run,
/// with the operation (`run`, `count`, `stream`), so that tests can see what a find sends to the store.
final class RecordingTransaction: ParseTransaction {
    let base: any ParseTransaction
    private(set) var plans: [(kind: String, plan: QueryPlan)] = []

    init(_ base: any ParseTransaction) { self.base = base }

    func run(_ query: QueryPlan) throws -> [StoredObject] {
        plans.append(("run", query))
        return try base.run(query)
    }

    func runPlain(_ query: QueryPlan, into out: inout [UInt8], render: (StoredText) throws -> [UInt8]) throws {
        plans.append(("run", query))
        try base.runPlain(query, into: &out, render: render)
    }

    func runCount(_ query: QueryPlan) throws -> Int {
        plans.append(("count", query))
        return try base.runCount(query)
    }

    func stream(_ query: QueryPlan, _ body: (StoredObject) throws -> Bool) throws {
        plans.append(("stream", query))
        try base.stream(query, body)
    }

    // Everything else as the real transaction does it.
    func schema(_ className: String) throws -> ClassSchema? { try base.schema(className) }
    func allSchemas() throws -> [ClassSchema] { try base.allSchemas() }
    func saveSchema(_ schema: ClassSchema) throws { try base.saveSchema(schema) }
    func deleteSchema(_ className: String) throws { try base.deleteSchema(className) }
    func object(_ className: String, _ objectId: String) throws -> StoredObject? { try base.object(className, objectId) }
    func storedObject(_ className: String, _ objectId: String) throws -> StoredText? { try base.storedObject(className, objectId) }
    func storedObject(_ className: String, _ objectId: String, comparingData expected: [UInt8]) throws
        -> (row: StoredText, dataMatches: Bool)? {
        try base.storedObject(className, objectId, comparingData: expected)
    }
    var schemaChanges: Int {
        get { base.schemaChanges }
        set { base.schemaChanges = newValue }
    }
    func schemaAndObject(_ className: String, _ objectId: String, caller: Caller) throws -> SchemaAndObject? {
        try base.schemaAndObject(className, objectId, caller: caller)
    }
    func objects(_ className: String, ids: [String]) throws -> [StoredObject] { try base.objects(className, ids: ids) }
    func insert(_ object: StoredObject, serializedData: String?) throws { try base.insert(object, serializedData: serializedData) }
    func update(_ object: StoredObject, serializedData: String?) throws { try base.update(object, serializedData: serializedData) }
    func delete(_ className: String, _ objectId: String) throws -> Bool { try base.delete(className, objectId) }
    func deleteAll(_ className: String) throws { try base.deleteAll(className) }
    func removeFieldValues(_ className: String, _ field: String) throws { try base.removeFieldValues(className, field) }
    func count(_ className: String) throws -> Int { try base.count(className) }
    func find(_ className: String, path: [String], equals value: SQLScalar, limit: Int) throws -> [StoredObject] {
        try base.find(className, path: path, equals: value, limit: limit)
    }
    func withTimeLimit(until deadline: Deadline, _ body: () throws -> Void) throws { try base.withTimeLimit(until: deadline, body) }
    func addRelation(ownerClass: String, field: String, ownerId: String, memberClass: String, memberIds: [String]) throws {
        try base.addRelation(ownerClass: ownerClass, field: field, ownerId: ownerId, memberClass: memberClass, memberIds: memberIds)
    }
    func removeRelation(ownerClass: String, field: String, ownerId: String, memberIds: [String]) throws {
        try base.removeRelation(ownerClass: ownerClass, field: field, ownerId: ownerId, memberIds: memberIds)
    }
    func relationMembers(ownerClass: String, field: String, ownerId: String) throws -> [String] {
        try base.relationMembers(ownerClass: ownerClass, field: field, ownerId: ownerId)
    }
    func deleteRelations(ownerClass: String, ownerId: String) throws { try base.deleteRelations(ownerClass: ownerClass, ownerId: ownerId) }
    func deleteMemberships(memberClass: String, memberId: String) throws {
        try base.deleteMemberships(memberClass: memberClass, memberId: memberId)
    }
    func deleteRelations(ownerClass: String, field: String?) throws { try base.deleteRelations(ownerClass: ownerClass, field: field) }
    func roleNames(forUser userId: String) throws -> [String] { try base.roleNames(forUser: userId) }
    func file(_ name: String) throws -> FileRecord? { try base.file(name) }
    func insertFile(_ record: FileRecord) throws { try base.insertFile(record) }
    func deleteFile(_ name: String) throws -> Bool { try base.deleteFile(name) }
    func configEntries() throws -> [ConfigEntry] { try base.configEntries() }
    func setConfig(_ entry: ConfigEntry) throws { try base.setConfig(entry) }
    func deleteConfig(_ key: String) throws { try base.deleteConfig(key) }
    func requestIdRecorded(_ id: String, nowMillis: Int) throws -> Bool { try base.requestIdRecorded(id, nowMillis: nowMillis) }
    func recordRequestId(_ id: String, expiresAt: Int, nowMillis: Int) throws {
        try base.recordRequestId(id, expiresAt: expiresAt, nowMillis: nowMillis)
    }
    func setting(_ key: String) throws -> String? { try base.setting(key) }
    func setSetting(_ key: String, _ value: String) throws { try base.setSetting(key, value) }
    func textFields(_ className: String) throws -> [String] { try base.textFields(className) }
    func enableText(_ className: String, _ field: String) throws { try base.enableText(className, field) }
    func syncText(_ className: String, _ objectId: String, _ data: JSONObject?) throws { try base.syncText(className, objectId, data) }
    func clearText(_ className: String, drop: Bool) throws { try base.clearText(className, drop: drop) }
    func textScores(_ search: TextSearch, ids: [String]) throws -> [String: Double] { try base.textScores(search, ids: ids) }
    func createIndex(name: String, className: String, keys: [IndexKey]) throws {
        try base.createIndex(name: name, className: className, keys: keys)
    }
    func dropIndex(name: String, className: String) throws { try base.dropIndex(name: name, className: className) }
}
