import Core

/// Geo operators (spec §7.7): operands validated and normalised to points, distances in radians.
extension WhereCompiler {
    static let maxDistanceKeys: [String: Double] = ["$maxDistance": 1, "$maxDistanceInRadians": 1,
                                                   "$maxDistanceInMiles": 1 / 3959.0, "$maxDistanceInKilometers": 1 / 6371.0]

    /// A GeoPoint operand, or a `[latitude, longitude]` pair when allowed; nil when out of range.
    static func point(_ v: JSON?, allowPair: Bool = false) -> GeoPoint? {
        var lat: Double?, lng: Double?
        if let o = v?.objectValue, o["__type"]?.stringValue == "GeoPoint" {
            lat = o["latitude"]?.doubleValue
            lng = o["longitude"]?.doubleValue
        } else if allowPair, let a = v?.arrayValue, a.count == 2 {
            lat = a[0].doubleValue
            lng = a[1].doubleValue
        }
        guard let la = lat, let ln = lng, la >= -90, la <= 90, ln >= -180, ln <= 180 else { return nil }
        return GeoPoint(latitude: la, longitude: ln)
    }

    mutating func nearSphere(_ ref: FieldRef, _ o: JSONObject) throws -> QueryPredicate {
        guard let p = Self.point(o["$nearSphere"]) else { throw ParseError(107, "bad $nearSphere value; should be GeoPoint") }
        var distances: [Double] = []
        for (key, factor) in Self.maxDistanceKeys {
            guard let v = o[key] else { continue }
            guard let d = v.doubleValue, d >= 0 else { throw ParseError(107, "bad \(key) value") }
            distances.append(d * factor)
        }
        nearOrder = (ref, p)
        return .near(ref, p, maxDistances: distances)
    }

    mutating func within(_ ref: FieldRef, _ operand: JSON) throws -> QueryPredicate {
        let bad = ParseError(107, "malformatted $within arg")
        guard let box = operand["$box"]?.arrayValue, box.count == 2, let sw = Self.point(box[0]), let ne = Self.point(box[1]),
              sw.latitude <= ne.latitude else { throw bad }
        return .withinBox(ref, southWest: sw, northEast: ne)
    }

    mutating func geoWithin(_ ref: FieldRef, _ operand: JSON) throws -> QueryPredicate {
        if let poly = operand["$polygon"] {
            var pts: [GeoPoint] = []
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
            return .withinPolygon(ref, pts)
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
            return .withinSphere(ref, center: p, radius: r)
        }
        throw ParseError(107, "bad $geoWithin value")
    }

    mutating func geoIntersects(_ ref: FieldRef, _ operand: JSON) throws -> QueryPredicate {
        guard let p = Self.point(operand["$point"]) else {
            throw ParseError(107, "bad $geoIntersect value; $point should be GeoPoint")
        }
        return .polygonContains(ref, p)
    }
}
