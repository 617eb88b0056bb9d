import XCTest
import Core

/// The Recipe tutorial (Parse data types on Swift) replayed against the real server with the request shapes
/// Parse-Swift 4.14.2 sends (seed document 004).
final class ParseSeedTutorialTests: ParseConformanceCase {

    /// The headers Parse-Swift adds to every call (a fresh request id on POST/PUT).
    func swiftHeaders(write: Bool) -> [(String, String)] {
        var h = ParseServer.headers([("X-Parse-Client-Version", "swift4.14.2"),
                                                ("X-Parse-Installation-Id", "50b60790-5ff0-455b-a37e-fc31c5241960"),
                                                ("Content-Type", "application/json"), ("Accept-Encoding", "deflate, gzip, br")])
        if write { h.append(("X-Parse-Request-Id", UUID().uuidString.lowercased())) }
        return h
    }

    func test_seed_004_recipe_tutorial_flow() throws {
        // ParseHealth.check()
        XCTAssertEqual(try parse.json("POST", "/parse/health", headers: swiftHeaders(write: true), status: 200), ["status": "ok"])
        // handleReloadRecipes on an empty database: Recipe.query().find()
        let empty = try parse.json("GET", "/parse/classes/Recipe?limit=100&skip=0&where=%7B%7D", headers: swiftHeaders(write: false),
                                    status: 200)
        XCTAssertEqual(empty, ["results": []])
        // handleSaveRecipe: a new Recipe
        let created = try parse.json("POST", "/parse/classes/Recipe", headers: swiftHeaders(write: true),
                                      body: ParseObjectTests.recipe, status: 201)
        let id = try XCTUnwrap(created["objectId"]?.stringValue)
        XCTAssertNotNil(created["createdAt"]?.stringValue)
        // handleUpdateRecipe: Recipe(objectId:) with every property set, saved with PUT
        let update = """
            {"category":1,"ingredients":[{"description":"Egg","quantity":3}],"isAvailable":true,"name":"Omelette",\
            "nutritionalInfo":{"Calories":"250"},"price":5.99,"releaseDate":{"__type":"Date","iso":"2023-11-15T22:13:20.123Z"},\
            "servings":5,"sideOptions":["Juice","Coffee"]}
            """
        let updated = try parse.json("PUT", "/parse/classes/Recipe/\(id)", headers: swiftHeaders(write: true), body: update,
                                      status: 200)
        XCTAssertEqual(updated.objectValue?.keys, ["updatedAt"])
        // A second recipe saved through saveAll (batch with the mount in each path).
        let batch = """
            {"requests":[{"body":{"name":"Pancakes","servings":4,"price":9,"isAvailable":false,"category":0,\
            "ingredients":[],"sideOptions":[],"nutritionalInfo":{}},"method":"POST","path":"/parse/classes/Recipe"}],\
            "transaction":false}
            """
        let items = try parse.json("POST", "/parse/batch", headers: swiftHeaders(write: true), body: batch, status: 200)
        XCTAssertNotNil(items[0]?["success"]?["objectId"])
        // Recipe.query("name" == "Omelette").find()
        let q = try parse.json("GET", "/parse/classes/Recipe?limit=100&skip=0&where=%7B%22name%22:%22Omelette%22%7D",
                                headers: swiftHeaders(write: false), status: 200)
        let results = try XCTUnwrap(q["results"]?.arrayValue)
        XCTAssertEqual(results.count, 1)
        let r = try XCTUnwrap(results.first)
        XCTAssertEqual(r["servings"], 5)
        XCTAssertEqual(r["price"], 5.99)
        XCTAssertEqual(r["category"], 1)
        XCTAssertEqual(r["sideOptions"], ["Juice", "Coffee"])
        XCTAssertEqual(r["nutritionalInfo"], ["Calories": "250"])
        XCTAssertEqual(r["releaseDate"], ["__type": "Date", "iso": "2023-11-15T22:13:20.123Z"])
        let ts = try XCTUnwrap(r["updatedAt"]?.stringValue)
        XCTAssertNotNil(ts.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression))
        // Pancakes came back with "price":9 (Double 9.0 is sent as 9) and the right types.
        let all = try parse.json("GET", "/parse/classes/Recipe?limit=100&skip=0&order=%5B%22-createdAt%22%5D&where=%7B%7D",
                                  headers: swiftHeaders(write: false), status: 200)
        XCTAssertEqual(all["results"]?[0]?["name"], "Pancakes")
        XCTAssertEqual(all["results"]?[0]?["price"], 9)
        // usingPostForQuery count
        let counted = try parse.json("POST", "/parse/classes/Recipe", headers: swiftHeaders(write: true),
                                      body: #"{"_method":"GET","count":true,"limit":1,"skip":0,"where":{"isAvailable":true}}"#,
                                      status: 200)
        XCTAssertEqual(counted["count"], 1)
        // keys / excludeKeys / include as JSON arrays
        let limited = try parse.json("GET", "/parse/classes/Recipe?excludeKeys=%5B%22price%22%5D&include=%5B%22author%22%5D"
                                      + "&keys=%5B%22name%22,%22servings%22,%22price%22%5D&limit=10&skip=0&where=%7B%7D",
                                      headers: swiftHeaders(write: false), status: 200)
        XCTAssertEqual(Set(limited["results"]?[0]?.objectValue?.keys ?? []), ["objectId", "name", "servings", "createdAt", "updatedAt"])
        // fetchAll: nested $in
        let fetched = try parse.json("GET", "/parse/classes/Recipe?limit=1&where="
                                      + "%7B%22objectId%22:%7B%22$in%22:%5B%5B%22\(id)%22%5D%5D%7D%7D",
                                      headers: swiftHeaders(write: false), status: 200)
        XCTAssertEqual(fetched["results"]?[0]?["objectId"]?.stringValue, id)
        // recipe.delete(): DELETE with Content-Length: 0
        XCTAssertEqual(try parse.json("DELETE", "/parse/classes/Recipe/\(id)", headers: swiftHeaders(write: false),
                                       body: "", status: 200), [:])
        let after = try parse.json("GET", "/parse/classes/Recipe?limit=100&skip=0&where=%7B%22name%22:%22Omelette%22%7D",
                                    headers: swiftHeaders(write: false), status: 200)
        XCTAssertEqual(after, ["results": []])
    }
}
