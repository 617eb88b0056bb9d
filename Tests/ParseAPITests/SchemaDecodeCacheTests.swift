import XCTest
@testable import ParseAPI

final class SchemaDecodeCacheTests: XCTestCase {
    func testEntryIsReturnedOnlyForTheSameStoredText() {
        let cache = SchemaDecodeCache()
        var schema = ClassSchema(className: "CacheProbe")
        schema.fields.append(("title", FieldDefinition(type: .string)))
        let stored = SchemaDecodeCache.Stored(fields: #"{"title":{"type":"String"}}"#, clp: nil, indexes: nil)
        XCTAssertNil(cache.schema("CacheProbe", stored))
        cache.store(schema, stored)
        XCTAssertEqual(cache.schema("CacheProbe", stored), schema)
        // A changed schema has different text: never answered from the old decoding.
        var changed = stored
        changed.fields = #"{"title":{"type":"String"},"rating":{"type":"Number"}}"#
        XCTAssertNil(cache.schema("CacheProbe", changed))
        changed = stored
        changed.clp = #"{"find":{}}"#
        XCTAssertNil(cache.schema("CacheProbe", changed))
        XCTAssertNil(cache.schema("OtherClass", stored))
    }

    func testCacheStaysBounded() {
        let cache = SchemaDecodeCache()
        let stored = SchemaDecodeCache.Stored(fields: "{}", clp: nil, indexes: nil)
        for i in 0..<2_000 { cache.store(ClassSchema(className: "C\(i)"), stored) }
        XCTAssertNotNil(cache.schema("C1999", stored))
        XCTAssertLessThanOrEqual(cache.count, 512)
    }
}
