import Core

/// Geo operators (spec §7.7) in plain SQL: great-circle distance with SQLite's math functions, boxes as
/// range checks, polygons by counting ray crossings over a bound list of edges.
extension WhereCompiler {
    static let maxDistanceKeys: [String: Double] = ["$maxDistance": 1, "$maxDistanceInRadians": 1,
                                                   "$maxDistanceInMiles": 1 / 3959.0, "$maxDistanceInKilometers": 1 / 6371.0]

    /// (latitude, longitude) of a GeoPoint operand, or of a `[latitude, longitude]` pair when allowed.
    static func point(_ v: JSON?, allowPair: Bool = false) -> (Double, Double)? {
        var lat: Double?, lng: Double?
        if let o = v?.objectValue, o["__type"]?.stringValue == "GeoPoint" {
            lat = o["latitude"]?.doubleValue
            lng = o["longitude"]?.doubleValue
        } else if allowPair, let a = v?.arrayValue, a.count == 2 {
            lat = a[0].doubleValue
            lng = a[1].doubleValue
        }
        guard let la = lat, let ln = lng, la >= -90, la <= 90, ln >= -180, ln <= 180 else { return nil }
        return (la, ln)
    }

    /// Distance in radians between the field's point and (lat, lng).
    mutating func distanceExpr(_ ref: FieldRef, _ p: (Double, Double), into list: inout [SQLScalar]) -> String {
        let lat = ref.sub("latitude"), lng = ref.sub("longitude")
        list += [.real(p.0), .real(p.0), .real(p.1)]
        return "(2 * asin(min(1, sqrt(pow(sin((radians(\(lat)) - radians(?)) / 2), 2) + cos(radians(?)) * "
            + "cos(radians(\(lat))) * pow(sin((radians(\(lng)) - radians(?)) / 2), 2)))))"
    }

    mutating func nearSphere(_ ref: FieldRef, _ o: JSONObject) throws -> String {
        guard let p = Self.point(o["$nearSphere"]) else { throw ParseError(107, "bad $nearSphere value; should be GeoPoint") }
        var cond = "\(ref.sub("__type")) = 'GeoPoint'"
        for (key, factor) in Self.maxDistanceKeys {
            guard let v = o[key] else { continue }
            guard let d = v.doubleValue, d >= 0 else { throw ParseError(107, "bad \(key) value") }
            var distArgs: [SQLScalar] = []
            let expr = distanceExpr(ref, p, into: &distArgs)
            args += distArgs
            args.append(.real(d * factor))
            cond += " AND \(expr) <= ?"
        }
        var orderArgs: [SQLScalar] = []
        let orderExpr = distanceExpr(ref, p, into: &orderArgs)
        nearOrder = (orderExpr, orderArgs)
        return cond
    }

    mutating func within(_ ref: FieldRef, _ operand: JSON) throws -> String {
        let bad = ParseError(107, "malformatted $within arg")
        guard let box = operand["$box"]?.arrayValue, box.count == 2, let sw = Self.point(box[0]), let ne = Self.point(box[1]),
              sw.0 <= ne.0 else { throw bad }
        let lat = ref.sub("latitude"), lng = ref.sub("longitude")
        args += [.real(sw.0), .real(ne.0), .real(sw.1), .real(ne.1)]
        // A south-west longitude east of the north-east one wraps across the antimeridian.
        let lngCond = sw.1 <= ne.1 ? "(\(lng) >= ? AND \(lng) <= ?)" : "(\(lng) >= ? OR \(lng) <= ?)"
        return "\(ref.sub("__type")) = 'GeoPoint' AND \(lat) >= ? AND \(lat) <= ? AND \(lngCond)"
    }

    mutating func geoWithin(_ ref: FieldRef, _ operand: JSON) throws -> String {
        if let poly = operand["$polygon"] {
            var pts: [(Double, Double)] = []
            if let o = poly.objectValue, o["__type"]?.stringValue == "Polygon" {
                let coords = o["coordinates"]?.arrayValue ?? []
                guard coords.count >= 3 else {
                    throw ParseError(107, "bad $geoWithin value; Polygon.coordinates should contain at least 3 lon/lat pairs")
                }
                for c in coords {
                    guard let p = Self.point(c, allowPair: true) else { throw ParseError(107, "bad $geoWithin value") }
                    pts.append(p)
                }
            } else if let arr = poly.arrayValue {
                guard arr.count >= 3 else {
                    throw ParseError(107, "bad $geoWithin value; $polygon should contain at least 3 GeoPoints")
                }
                for c in arr {
                    guard let p = Self.point(c, allowPair: true) else { throw ParseError(107, "bad $geoWithin value") }
                    pts.append(p)
                }
            } else {
                throw ParseError(107, "bad $geoWithin value; $polygon should be Polygon object or Array of Parse.GeoPoint's")
            }
            return "\(ref.sub("__type")) = 'GeoPoint' AND " + pointInPolygon(lat: ref.sub("latitude"), lng: ref.sub("longitude"), pts)
        }
        if let cs = operand["$centerSphere"] {
            guard let arr = cs.arrayValue, arr.count == 2 else {
                throw ParseError(107, "bad $geoWithin value; $centerSphere should be an array of Parse.GeoPoint and distance")
            }
            guard let p = Self.point(arr[0], allowPair: true) else {
                throw ParseError(107, "bad $geoWithin value; $centerSphere geo point invalid")
            }
            guard let r = arr[1].doubleValue, r >= 0 else {
                throw ParseError(107, "bad $geoWithin value; $centerSphere distance invalid")
            }
            var distArgs: [SQLScalar] = []
            let expr = distanceExpr(ref, p, into: &distArgs)
            args += distArgs
            args.append(.real(r))
            return "\(ref.sub("__type")) = 'GeoPoint' AND \(expr) <= ?"
        }
        throw ParseError(107, "bad $geoWithin value")
    }

    /// Points on an edge or inside: an odd number of crossings of a ray towards +longitude, or on a vertex.
    mutating func pointInPolygon(lat: String, lng: String, _ pts: [(Double, Double)]) -> String {
        var edges: [JSON] = []
        for i in pts.indices {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            edges.append(.array([JSON.double(a.0), JSON.double(a.1), JSON.double(b.0), JSON.double(b.1)]))
        }
        args.append(.text(JSON.array(edges).serialized()))
        args.append(.text(JSON.array(edges).serialized()))
        return crossingSQL(lat: lat, lng: lng, edgesSource: "json_each(?)", a: "json_extract(e.value, '$[0]')",
                           b: "json_extract(e.value, '$[1]')", c: "json_extract(e.value, '$[2]')", d: "json_extract(e.value, '$[3]')")
    }

    /// Ray-casting parity over edges (la1, ln1) -> (la2, ln2), plus an on-vertex check for boundary points.
    func crossingSQL(lat: String, lng: String, edgesSource: String, a: String, b: String, c: String, d: String) -> String {
        let crossing = "((\(a) > \(lat)) != (\(c) > \(lat))) AND \(lng) <= (\(d) - \(b)) * (\(lat) - \(a)) / (\(c) - \(a)) + \(b)"
        return "((SELECT count(*) FROM \(edgesSource) AS e WHERE \(crossing)) % 2 = 1 OR "
            + "EXISTS (SELECT 1 FROM \(edgesSource) AS e WHERE \(a) = \(lat) AND \(b) = \(lng)))"
    }

    mutating func geoIntersects(_ ref: FieldRef, _ operand: JSON) throws -> String {
        guard let p = Self.point(operand["$point"]) else {
            throw ParseError(107, "bad $geoIntersect value; $point should be GeoPoint")
        }
        let coords = SQLPath.path(ref.path + ["coordinates"])
        // Edges of the stored (closed) polygon: element k and element k + 1.
        let source = "json_each(o.data, \(coords))"
        // Placeholder order in polygonContains: lat, lat, lng, lat (crossing test), then lat, lng (vertex test).
        args += [.real(p.0), .real(p.0), .real(p.1), .real(p.0), .real(p.0), .real(p.1)]
        return "\(ref.sub("__type")) = 'Polygon' AND " + polygonContains(source: source, coords: coords)
    }

    /// Crossing parity for a polygon stored in the row, tested against a bound point (lat, lng).
    private func polygonContains(source: String, coords: String) -> String {
        let pathPrefix = String(coords.dropLast())  // the quoted path without its closing quote
        let nextEl = { (i: Int) in "json_extract(o.data, \(pathPrefix)[' || (e.key + 1) || '][\(i)]')" }
        let a = "json_extract(e.value, '$[0]')", b = "json_extract(e.value, '$[1]')"
        let c = nextEl(0), d = nextEl(1)
        let crossing = "(\(a) > ?) != (\(c) > ?) AND ? <= (\(d) - \(b)) * (? - \(a)) / (\(c) - \(a)) + \(b)"
        return "(((SELECT count(*) FROM \(source) AS e WHERE e.key < json_array_length(o.data, \(coords)) - 1 AND \(crossing)) % 2 = 1) "
            + "OR EXISTS (SELECT 1 FROM \(source) AS e WHERE \(a) = ? AND \(b) = ?))"
    }
}
