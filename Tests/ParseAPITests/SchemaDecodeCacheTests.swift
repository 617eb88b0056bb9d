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

    /// Requests look the schema up with the row's bytes: equal bytes find it, any difference (or a NULL
    /// column where text was stored) does not.
    func testLookupByStoredBytes() {
        let cache = SchemaDecodeCache()
        let schema = ClassSchema(className: "Bytes")
        let stored = SchemaDecodeCache.Stored(fields: #"{"n":{"type":"Number"}}"#, clp: "", indexes: nil)
        cache.store(schema, stored)
        func lookup(_ fields: String?, _ clp: String?, _ indexes: String?) -> ClassSchema? {
            let f = fields.map { Array($0.utf8) }, c = clp.map { Array($0.utf8) }, i = indexes.map { Array($0.utf8) }
            return f.withOptionalBuffer { fb in c.withOptionalBuffer { cb in i.withOptionalBuffer { ib in
                cache.schema("Bytes", fields: fb, clp: cb, indexes: ib)
            } } }
        }
        XCTAssertEqual(lookup(#"{"n":{"type":"Number"}}"#, "", nil), schema)
        XCTAssertNil(lookup(#"{"n":{"type":"String"}}"#, "", nil))
        XCTAssertNil(lookup(#"{"n":{"type":"Number"}}"#, nil, nil))
        XCTAssertNil(lookup(#"{"n":{"type":"Number"}}"#, "", "{}"))
        XCTAssertNil(lookup(#"{"n":{"type":"Number"}} "#, "", nil))
    }

    func testCacheStaysBounded() {
        let cache = SchemaDecodeCache()
        let stored = SchemaDecodeCache.Stored(fields: "{}", clp: nil, indexes: nil)
        for i in 0..<2_000 { cache.store(ClassSchema(className: "C\(i)"), stored) }
        XCTAssertNotNil(cache.schema("C1999", stored))
        XCTAssertLessThanOrEqual(cache.count, 512)
    }
}

private extension Optional where Wrapped == [UInt8] {
    func withOptionalBuffer<T>(_ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T {
        switch self {
        case .none: return body(nil)
        case .some(let bytes): return bytes.withUnsafeBufferPointer { body($0) }
        }
    }
}
