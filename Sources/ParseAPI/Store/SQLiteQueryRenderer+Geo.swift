import Core

/// Geo operators (spec §7.7) in plain SQL: great-circle distance with SQLite's math functions, boxes as
/// range checks, polygons by counting ray crossings over a bound list of edges.
extension SQLiteQueryRenderer {
    /// Distance in radians between the field's point and `p`; its parameters are appended to `list`.
    static func distanceExpr(_ ref: FieldRef, _ p: GeoPoint, into list: inout [SQLScalar]) -> String {
        let lat = ref.sqlMember("latitude"), lng = ref.sqlMember("longitude")
        list += [.real(p.latitude), .real(p.latitude), .real(p.longitude)]
        return "(2 * asin(min(1, sqrt(pow(sin((radians(\(lat)) - radians(?)) / 2), 2) + cos(radians(?)) * "
            + "cos(radians(\(lat))) * pow(sin((radians(\(lng)) - radians(?)) / 2), 2)))))"
    }

    mutating func near(_ ref: FieldRef, _ p: GeoPoint, _ distances: [Double]) -> String {
        var cond = "\(ref.sqlMember("__type")) = 'GeoPoint'"
        for d in distances {
            let expr = Self.distanceExpr(ref, p, into: &args)
            args.append(.real(d))
            cond += " AND \(expr) <= ?"
        }
        return cond
    }

    mutating func withinBox(_ ref: FieldRef, _ sw: GeoPoint, _ ne: GeoPoint) -> String {
        let lat = ref.sqlMember("latitude"), lng = ref.sqlMember("longitude")
        args += [.real(sw.latitude), .real(ne.latitude), .real(sw.longitude), .real(ne.longitude)]
        // A south-west longitude east of the north-east one wraps across the antimeridian.
        let lngCond = sw.longitude <= ne.longitude ? "(\(lng) >= ? AND \(lng) <= ?)" : "(\(lng) >= ? OR \(lng) <= ?)"
        return "\(ref.sqlMember("__type")) = 'GeoPoint' AND \(lat) >= ? AND \(lat) <= ? AND \(lngCond)"
    }

    /// Points on an edge or inside: an odd number of crossings of a ray towards +longitude, or on a vertex.
    mutating func pointInPolygon(lat: String, lng: String, _ pts: [GeoPoint]) -> String {
        var edges: [JSON] = []
        for (i, a) in pts.enumerated() {
            let b = pts[(i + 1) % pts.count]
            edges.append(.array([JSON.double(a.latitude), JSON.double(a.longitude), JSON.double(b.latitude),
                                 JSON.double(b.longitude)]))
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

    /// A Polygon field containing a bound point.
    mutating func polygonContains(_ ref: FieldRef, _ p: GeoPoint) -> String {
        let coords = SQLPath.path(ref.path + ["coordinates"])
        // Edges of the stored (closed) polygon: element k and element k + 1.
        let source = "json_each(o.data, \(coords))"
        // Placeholder order in the crossing test: lat, lat, lng, lat; then lat, lng in the vertex test.
        args += [.real(p.latitude), .real(p.latitude), .real(p.longitude), .real(p.latitude), .real(p.latitude),
                 .real(p.longitude)]
        let pathPrefix = String(coords.dropLast())  // the quoted path without its closing quote
        let nextEl = { (i: Int) in "json_extract(o.data, \(pathPrefix)[' || (e.key + 1) || '][\(i)]')" }
        let a = "json_extract(e.value, '$[0]')", b = "json_extract(e.value, '$[1]')"
        let c = nextEl(0), d = nextEl(1)
        let crossing = "(\(a) > ?) != (\(c) > ?) AND ? <= (\(d) - \(b)) * (? - \(a)) / (\(c) - \(a)) + \(b)"
        return "\(ref.sqlMember("__type")) = 'Polygon' AND "
            + "(((SELECT count(*) FROM \(source) AS e WHERE e.key < json_array_length(o.data, \(coords)) - 1 AND \(crossing)) % 2 = 1) "
            + "OR EXISTS (SELECT 1 FROM \(source) AS e WHERE \(a) = ? AND \(b) = ?))"
    }
}
