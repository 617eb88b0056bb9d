import XCTest
import Core

/// Queries: parameters, the `where` language, keys/include/order (spec §7).
final class ParseQueryTests: ParseConformanceCase {
    func results(_ cls: String, _ query: String, headers: [(String, String)] = ParseServer.headers(),
                 file: StaticString = #filePath, line: UInt = #line) throws -> [JSON] {
        try parse.expect(200, "GET", "/parse/classes/\(cls)?\(query)", headers: headers, file: file, line: line)["results"]?
            .arrayValue ?? []
    }

    func w(_ json: String) -> String { "where=" + q(json) }

    func seedRecipes() throws {
        for body in [#"{"name":"Omelette","servings":2,"price":9.5,"category":0,"sideOptions":["Toast","Salad"],"releaseDate":{"__type":"Date","iso":"2023-11-14T22:13:20.123Z"},"tags":["apple","banana"]}"#,
                     #"{"name":"Soup","servings":4,"price":5,"category":1,"sideOptions":["Bread"]}"#,
                     #"{"name":"Cake","servings":8,"price":25,"category":2,"sideOptions":["Cream","Toast"],"releaseDate":null}"#] {
            _ = try parse.create("Recipe", body)
        }
    }

    func names(_ r: [JSON]) -> [String] { r.compactMap { $0["name"]?.stringValue } }

    func test_PA_054_limit_and_count() throws {
        let body = "{\"requests\":[" + (0..<150).map { _ in #"{"method":"POST","path":"/parse/classes/T","body":{"a":1}}"# }
            .joined(separator: ",") + "]}"
        try parse.expect(200, "POST", "/parse/batch", body: body)
        XCTAssertEqual(try results("T", "").count, 100)
        XCTAssertEqual(try results("T", "limit=1000").count, 150)
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/T?limit=0&count=1"), ["results": [], "count": 150])
        let one = try parse.expect(200, "GET", "/parse/classes/T?count=true&limit=1")
        XCTAssertEqual(one["results"]?.arrayValue?.count, 1)
        XCTAssertEqual(one["count"], 150)
        XCTAssertNil(try parse.expect(200, "GET", "/parse/classes/T?count=0")["count"])
    }

    func test_PA_055_limit_validation() throws {
        try parse.expect(200, "GET", "/parse/classes/T?limit=20000")
        for bad in ["limit=-1", "limit=abc", "skip=-3"] {
            XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?\(bad)")["code"], 102)
        }
    }

    func test_PA_056_keys_and_exclude_keys() throws {
        try seedRecipes()
        let expected: Set<String> = ["name", "servings", "objectId", "createdAt", "updatedAt"]
        for keys in [q(#"["name","servings"]"#), "name,servings", "name&keys=servings", "name,%20servings"] {
            let r = try results("Recipe", "keys=\(keys)")
            XCTAssertEqual(r.count, 3)
            for o in r { XCTAssertEqual(Set(o.objectValue?.keys ?? []), expected) }
        }
        XCTAssertTrue(try results("Recipe", "excludeKeys=" + q(#"["price"]"#)).allSatisfy { $0["price"] == nil })
        XCTAssertTrue(try results("Recipe", "excludeKeys=objectId,createdAt").allSatisfy { $0["objectId"] != nil && $0["createdAt"] != nil })
    }

    func test_PA_057_order() throws {
        try seedRecipes()
        XCTAssertEqual(names(try results("Recipe", "order=" + q(#"["-createdAt"]"#))), ["Cake", "Soup", "Omelette"])
        XCTAssertEqual(names(try results("Recipe", "order=-createdAt")), ["Cake", "Soup", "Omelette"])
        _ = try parse.create("Recipe", #"{"name":"Cake","servings":1}"#)
        XCTAssertEqual(try results("Recipe", "order=" + q(#"["name","-servings"]"#)).map { $0["servings"] }, [8, 1, 2, 4])
        XCTAssertEqual(try results("Recipe", "order=name,-servings").map { $0["servings"] }, [8, 1, 2, 4])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Recipe?order=$foo")["code"], 105)
    }

    func test_PA_058_fetch_all_nested_in() throws {
        let a = try parse.create("Recipe", "{}"), b = try parse.create("Recipe", "{}")
        _ = try parse.create("Recipe", "{}")
        let r = try results("Recipe", w(#"{"objectId":{"$in":[["\#(a)","\#(b)"]]}}"#) + "&limit=2")
        XCTAssertEqual(Set(r.compactMap { $0["objectId"]?.stringValue }), [a, b])
    }

    func test_PA_059_array_semantics() throws {
        try seedRecipes()
        XCTAssertEqual(names(try results("Recipe", w(#"{"sideOptions":"Toast"}"#))), ["Omelette", "Cake"])
        XCTAssertEqual(names(try results("Recipe", w(#"{"sideOptions":{"$all":["Toast","Salad"]}}"#))), ["Omelette"])
        XCTAssertEqual(names(try results("Recipe", w(#"{"sideOptions":{"$containedBy":["Toast","Salad","Soup"]}}"#))), ["Omelette"])
        XCTAssertEqual(names(try results("Recipe", w(#"{"sideOptions":{"$nin":["Bread"]}}"#))), ["Omelette", "Cake"])
    }

    func test_PA_060_comparisons() throws {
        try seedRecipes()
        XCTAssertEqual(names(try results("Recipe", w(#"{"category":{"$in":[0,1]},"price":{"$lte":20}}"#))), ["Omelette", "Soup"])
        XCTAssertEqual(names(try results("Recipe", w(#"{"servings":{"$gt":2,"$lt":8}}"#))), ["Soup"])
        XCTAssertEqual(names(try results("Recipe", w(#"{"servings":{"$gte":4}}"#))), ["Soup", "Cake"])
        XCTAssertEqual(names(try results("Recipe", w(#"{"servings":{"$ne":4}}"#))), ["Omelette", "Cake"])
        XCTAssertEqual(names(try results("Recipe", w(#"{"name":{"$gt":"Omelette"}}"#))), ["Soup"])
        XCTAssertEqual(names(try results("Recipe", w(#"{"releaseDate":{"$lt":{"__type":"Date","iso":"2024-01-01T00:00:00.000Z"}}}"#))),
                       ["Omelette"])
        XCTAssertEqual(try results("Recipe", w(#"{"servings":{"$gt":"3"}}"#)), [])
    }

    func test_PA_061_null_and_missing() throws {
        try seedRecipes()
        for clause in [#"{"releaseDate":{"$exists":false}}"#, #"{"releaseDate":null}"#, #"{"releaseDate":{"$eq":null}}"#] {
            XCTAssertEqual(names(try results("Recipe", w(clause))), ["Soup", "Cake"])
        }
        for clause in [#"{"releaseDate":{"$ne":null}}"#, #"{"releaseDate":{"$exists":true}}"#] {
            XCTAssertEqual(names(try results("Recipe", w(clause))), ["Omelette"])
        }
    }

    func test_PA_062_eq_and_capture_query() throws {
        try seedRecipes()
        XCTAssertEqual(try results("Recipe", w(#"{"name":{"$eq":"Omelette"}}"#)), try results("Recipe", w(#"{"name":"Omelette"}"#)))
        let capture = #"{"$or":[{"price":{"$exists":true},"servings":{"$gte":2}},{"name":{"$options":"i","$regex":"^Ome"}}],"releaseDate":{"$exists":false}}"#
        XCTAssertEqual(names(try results("Recipe", w(capture) + "&order=" + q(#"["name","-servings"]"#))), ["Cake", "Soup"])
    }

    func test_PA_063_logical_formats() throws {
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?" + w(#"{"$or":{"a":1}}"#)),
                       ["code": 102, "error": "Bad $or format - use an array value."])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?" + w(#"{"$and":1}"#)),
                       ["code": 102, "error": "Bad $and format - use an array value."])
        for nor in [#"{"$nor":[]}"#, #"{"$nor":1337}"#] {
            XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?" + w(nor)),
                           ["code": 102, "error": "Bad $nor format - use an array of at least 1 value."])
        }
    }

    func test_PA_064_bad_constraints() throws {
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?" + w(#"{"name":{"$foo":1}}"#)),
                       ["code": 107, "error": "bad constraint: $foo"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?" + w(#"{"name":{"$in":"x"}}"#))["code"], 107)
    }

    func test_PA_065_key_injection() throws {
        _ = try parse.create("T", #"{"name":"a"}"#)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?" + w(#"{"$where":"sleep(1000)"}"#)),
                       ["code": 105, "error": "Invalid key name: $where"])
        for clause in [#"{"_hashed_password":{"$exists":true}}"#, #"{"name'; DROP TABLE x;--":1}"#] {
            XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?" + w(clause))["code"], 105)
        }
        XCTAssertEqual(try parse.masterCount("T"), 1)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?" + w(#"{"ACL":{"*":{"read":true}}}"#)),
                       ["code": 102, "error": "Cannot query on ACL."])
    }

    func test_PA_066_parameter_validation() throws {
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?foo=1"), ["code": 102, "error": "Invalid parameter for query: foo"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?where%5Bname%5D%5B%24regex%5D=x"),
                       ["code": 102, "error": "Invalid parameter for query: where[name][$regex]"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?where=notjson")["code"], 107)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?where=%5B1%5D")["code"], 102)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?where=5")["code"], 102)
    }

    func test_PA_067_regex_and_options() throws {
        try seedRecipes()
        XCTAssertEqual(names(try results("Recipe", w(#"{"name":{"$regex":"^ome","$options":"i"}}"#))), ["Omelette"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Recipe?" + w(#"{"name":{"$regex":"a","$options":"g"}}"#)),
                       ["code": 102, "error": "Bad $options value for query: g"])
        XCTAssertEqual(names(try results("Recipe", w(#"{"name":{"$regex":"^ O m e # c","$options":"x"}}"#))), ["Omelette"])
    }

    func test_PA_068_quoted_literals() throws {
        _ = try parse.create("S", #"{"name":"xa.b*cx"}"#)
        _ = try parse.create("S", #"{"name":"aXbbc"}"#)
        _ = try parse.create("S", #"{"name":"a\\Eb"}"#)
        XCTAssertEqual(names(try results("S", w(#"{"name":{"$regex":"\\Qa.b*c\\E"}}"#))), ["xa.b*cx"])
        XCTAssertEqual(names(try results("S", w(#"{"name":{"$regex":"\\Qa\\E\\\\E\\Qb\\E"}}"#))), ["a\\Eb"])
    }

    func test_PA_069_catastrophic_regex_is_linear() throws {
        _ = try parse.create("S", "{\"name\":\"" + String(repeating: "a", count: 100_000) + "b\"}")
        for pattern in ["(a+)+$", "(.*a){20}"] {
            let start = Date()
            let r = try results("S", w("{\"name\":{\"$regex\":\"\(pattern)\"}}"))
            if pattern == "(a+)+$" { XCTAssertEqual(r, []) }
            XCTAssertLessThan(Date().timeIntervalSince(start), 10)
        }
    }

    func test_PA_070_refused_regex_features() throws {
        // A quantifier after a quantifier is a syntax error, as in PCRE: a pattern of stacked ones up to the
        // 4,096-byte limit is refused before anything nests one repetition per quantifier.
        for pattern in [#"(a)\\1"#, "(?=x)", "[", String(repeating: "a", count: 5000), "a**",
                        "a" + String(repeating: "*", count: 4000)] {
            let r = try parse.send("GET", "/parse/classes/S?" + w("{\"name\":{\"$regex\":\"\(pattern)\"}}"))
            XCTAssertEqual(r.status, 400)
            XCTAssertEqual((try JSONParser.parse(r.body))["code"], 102)
            XCTAssertFalse(r.text.lowercased().contains("sqlite"))
        }
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/S?" + w(#"{"name":{"$regex":{"$gt":""}}}"#))["code"], 107)
    }

    func test_PA_071_sensitive_keys() throws {
        _ = try parse.signUp("someone")
        let (_, token) = try parse.signUp("other")
        for clause in [#"{"password":{"$regex":"^a"}}"#, #"{"authData.anonymous":{"$exists":true}}"#] {
            XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/_User?" + w(clause))["code"], 105)
        }
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/_Session?" + w(#"{"sessionToken":{"$regex":"^r"}}"#),
                                        headers: ParseServer.headers(session: token))["code"], 102)
    }

    func test_PA_072_relative_time() throws {
        try seedRecipes()
        XCTAssertEqual(try results("Recipe", w(#"{"createdAt":{"$gt":{"$relativeTime":"3 days ago"}}}"#)).count, 3)
        XCTAssertEqual(try results("Recipe", w(#"{"createdAt":{"$lt":{"$relativeTime":"in 1 day"}}}"#)).count, 3)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Recipe?" + w(#"{"createdAt":{"$eq":{"$relativeTime":"now"}}}"#)),
                       ["code": 107, "error": "$relativeTime can only be used with the $lt, $lte, $gt, and $gte operators"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Recipe?" + w(#"{"createdAt":{"$gt":{"$relativeTime":"3 parsecs ago"}}}"#)),
                       ["code": 107, "error": "bad $relativeTime ($gt) value. Invalid interval: 'parsecs'"])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Recipe?" + w(#"{"servings":{"$gt":{"$relativeTime":"now"}}}"#))["code"], 107)
    }

    func test_PA_073_all_starting_with() throws {
        _ = try parse.create("Tg", #"{"tags":["apple","banana"]}"#)
        _ = try parse.create("Tg", #"{"tags":["apple"]}"#)
        XCTAssertEqual(try results("Tg", w(#"{"tags":{"$all":[{"$regex":"^\\Qa\\E"},{"$regex":"^\\Qb\\E"}]}}"#)).count, 1)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Tg?" + w(#"{"tags":{"$all":[{"$regex":"^a"},"b"]}}"#))["code"], 107)
    }

    func test_PA_074_structural_limits() throws {
        let big = "[" + (0...10_000).map(String.init).joined(separator: ",") + "]"
        let r = try parse.send("POST", "/parse/classes/T", body: #"{"_method":"GET","where":{"a":{"$in":\#(big)}}}"#)
        XCTAssertEqual((try JSONParser.parse(r.body))["code"], 102)
        func nested(_ depth: Int) -> String {
            var s = #"{"a":1}"#
            for _ in 0..<depth { s = #"{"$or":[\#(s)]}"# }
            return s
        }
        let start = Date()
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?" + w(nested(1000)))["code"], 102)
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/T?" + w(nested(11)))["code"], 102)
        try parse.expect(200, "GET", "/parse/classes/T?" + w(nested(10)))
    }

    func test_PA_075_in_query() throws {
        let withImage = try parse.create("Post", #"{"image":"x"}"#), without = try parse.create("Post", "{}")
        _ = try parse.create("Comment", #"{"n":1,"post":{"__type":"Pointer","className":"Post","objectId":"\#(withImage)"}}"#)
        _ = try parse.create("Comment", #"{"n":2,"post":{"__type":"Pointer","className":"Post","objectId":"\#(without)"}}"#)
        _ = try parse.create("Comment", #"{"n":3}"#)
        let inner = #"{"className":"Post","where":{"image":{"$exists":true}}}"#
        XCTAssertEqual(try results("Comment", w(#"{"post":{"$inQuery":\#(inner)}}"#)).map { $0["n"] }, [1])
        XCTAssertEqual(try results("Comment", w(#"{"post":{"$notInQuery":\#(inner)}}"#)).map { $0["n"] }, [2, 3])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Comment?" + w(#"{"post":{"$inQuery":"x"}}"#)),
                       ["code": 102, "error": "improper usage of $inQuery"])
        _ = try parse.create("Digest", #"{"n":1,"posts":[{"__type":"Pointer","className":"Post","objectId":"\#(without)"},{"__type":"Pointer","className":"Post","objectId":"\#(withImage)"}]}"#)
        _ = try parse.create("Digest", #"{"n":2,"posts":[{"__type":"Pointer","className":"Post","objectId":"\#(without)"}]}"#)
        XCTAssertEqual(try results("Digest", w(#"{"posts":{"$inQuery":\#(inner)}}"#)).map { $0["n"] }, [1])
    }

    func test_PA_076_select() throws {
        _ = try parse.create("Team", #"{"city":"Oslo","winPct":0.7}"#)
        _ = try parse.create("Team", #"{"city":"Rome","winPct":0.2}"#)
        _ = try parse.create("Player", #"{"n":1,"hometown":"Oslo"}"#)
        _ = try parse.create("Player", #"{"n":2,"hometown":"Rome"}"#)
        let sel = #"{"query":{"className":"Team","where":{"winPct":{"$gt":0.5}}},"key":"city"}"#
        XCTAssertEqual(try results("Player", w(#"{"hometown":{"$select":\#(sel)}}"#)).map { $0["n"] }, [1])
        XCTAssertEqual(try results("Player", w(#"{"hometown":{"$dontSelect":\#(sel)}}"#)).map { $0["n"] }, [2])
        XCTAssertEqual(try parse.expect(400, "GET", "/parse/classes/Player?" + w(#"{"hometown":{"$select":{"query":{"className":"Team","where":{}}}}}"#)),
                       ["code": 102, "error": "improper usage of $select"])
    }

    func test_PA_077_related_to_and_redirect() throws {
        let (uid, token) = try parse.signUp("liker")
        let post = try parse.create("Post", """
            {"likes":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"\(uid)"}]}}
            """)
        let related = w(#"{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"\#(post)"},"key":"likes"}}"#)
        let users = try results("_User", related, headers: ParseServer.headers(session: token))
        XCTAssertEqual(users.map { $0["objectId"]?.stringValue }, [uid])
        let redirected = try results("Post", "redirectClassNameForKey=likes&" + related, headers: ParseServer.headers(session: token))
        XCTAssertEqual(redirected.first?["className"], "_User")
        let hidden = try parse.create("Post", """
            {"ACL":{},"likes":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"\(uid)"}]}}
            """, headers: ParseServer.headers(master: true))
        XCTAssertEqual(try results("_User", w(#"{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"\#(hidden)"},"key":"likes"}}"#),
                                   headers: ParseServer.headers(session: token)), [])
    }

    func test_PA_078_relation_field_equality() throws {
        let (uid, _) = try parse.signUp("fan")
        _ = try parse.create("Post", """
            {"n":1,"likes":{"__op":"AddRelation","objects":[{"__type":"Pointer","className":"_User","objectId":"\(uid)"}]}}
            """)
        _ = try parse.create("Post", #"{"n":2}"#)
        XCTAssertEqual(try results("Post", w(#"{"likes":{"__type":"Pointer","className":"_User","objectId":"\#(uid)"}}"#)).map { $0["n"] }, [1])
    }

    func test_PA_079_include() throws {
        let (uid, _) = try parse.signUp("author", email: "author@example.com")
        try parse.expect(200, "PUT", "/parse/users/\(uid)", headers: ParseServer.headers(master: true), body: #"{"ACL":{"*":{"read":true}}}"#)
        let author = #"{"__type":"Pointer","className":"_User","objectId":"\#(uid)"}"#
        let post = try parse.create("Post", #"{"title":"t","author":\#(author)}"#)
        _ = try parse.create("Comment", #"{"post":{"__type":"Pointer","className":"Post","objectId":"\#(post)"},"authors":[\#(author)]}"#)
        let r = try results("Post", "include=" + q(#"["author"]"#))
        let a = try XCTUnwrap(r.first?["author"]?.objectValue)
        XCTAssertEqual(a["__type"], "Object")
        XCTAssertEqual(a["className"], "_User")
        XCTAssertEqual(a["username"], "author")
        XCTAssertNil(a["email"]); XCTAssertNil(a["authData"]); XCTAssertNil(a["password"])
        XCTAssertEqual(try results("Post", "include=*").first?["author"]?["__type"], "Object")
        let two = try results("Comment", "include=post.author")
        XCTAssertEqual(two.first?["post"]?["author"]?["username"], "author")
        XCTAssertEqual(try results("Comment", "include=authors").first?["authors"]?[0]?["__type"], "Object")
        let trimmed = try results("Post", "excludeKeys=author.username").first?["author"]
        XCTAssertEqual(trimmed?["__type"], "Object")
        XCTAssertNil(trimmed?["username"])
        let limited = try results("Post", "keys=author.username")
        XCTAssertEqual(Set(limited.first?["author"]?.objectValue?.keys ?? []),
                       ["__type", "className", "objectId", "username", "createdAt", "updatedAt", "ACL"])
    }

    func test_PA_080_include_drops_missing_targets() throws {
        let gone = try parse.create("Target", "{}")
        let secret = try parse.create("Target", #"{"ACL":{}}"#, headers: ParseServer.headers(master: true))
        let p = { (id: String) in #"{"__type":"Pointer","className":"Target","objectId":"\#(id)"}"# }
        _ = try parse.create("Holder", #"{"one":\#(p(gone)),"many":[\#(p(gone))],"hidden":\#(p(secret))}"#)
        try parse.expect(200, "DELETE", "/parse/classes/Target/\(gone)")
        let r = try results("Holder", "include=one,many,hidden").first
        XCTAssertNil(r?["one"])
        XCTAssertEqual(r?["many"], [])
        XCTAssertNil(r?["hidden"])
    }

    func test_PA_081_unknown_class_and_ignored_parameters() throws {
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Nope"), ["results": []])
        XCTAssertEqual(try parse.expect(200, "GET", "/parse/classes/Nope?count=1"), ["results": [], "count": 0])
        _ = try parse.create("Recipe", "{}")
        XCTAssertEqual(try results("Recipe", "explain=true&hint=%22x%22&readPreference=SECONDARY&includeReadPreference=NEAREST&comment=%22c%22").count, 1)
    }

    func test_PA_082_form_encoded_where() throws {
        _ = try parse.create("Recipe", #"{"name":"Omelette"}"#)
        _ = try parse.create("Recipe", #"{"name":"a b"}"#)
        XCTAssertEqual(names(try results("Recipe", "where=%7B%22name%22%3A+%22Omelette%22%7D&limit=5")), ["Omelette"])
        XCTAssertEqual(names(try results("Recipe", #"where={"name":"a+b"}"#.replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D"))), ["a b"])
    }
}

/// `keys` with sub-keys of Object fields (spec §7.9).
final class ParseKeysSubpathTests: ParseConformanceCase {
    func test_PA_056_object_sub_keys() throws {
        _ = try parse.create("Recipe", #"{"name":"a","nutrition":{"Calories":"200","Protein":"12g"}}"#)
        let r = try parse.expect(200, "GET", "/parse/classes/Recipe?keys=nutrition.Calories")["results"]?[0]
        XCTAssertEqual(r?["nutrition"], ["Calories": "200"])
        XCTAssertNil(r?["name"])
    }
}
