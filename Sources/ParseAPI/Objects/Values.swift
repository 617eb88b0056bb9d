import Core

/// Validation and normalisation of written values (spec §4.4-§4.7).
enum Values {
    static func notValid(_ type: String) -> ParseError { ParseError(111, "This is not a valid \(type)") }

    static let nestedKeyError = ParseError(121, "Nested keys should not contain the '$' or '.' characters")

    /// Normalises a value to its stored form: dates to the fixed-width `iso`, pointers and files reduced to
    /// their identifying keys, polygons closed, integral doubles written as integers. Recurses into arrays
    /// and plain objects, checking nested keys.
    static func normalize(_ value: JSON, nested: Bool = false) throws -> JSON {
        switch value {
        case .number(let n):
            // Literals such as 1e400 are valid JSON but not finite doubles (spec §4.4: numbers are finite).
            guard n.doubleValue.isFinite else { throw notValid("Number") }
            return .number(normalizeNumber(n))
        case .array(let items):
            return .array(try items.map { try normalize($0, nested: true) })
        case .object(let o):
            if let t = o["__type"] {
                guard let tag = t.stringValue else { throw notValid("type") }
                return try normalizeTagged(tag, o)
            }
            var out = JSONObject()
            for (k, v) in o {
                if k.utf8.contains(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: ".") }) { throw nestedKeyError }
                out[k] = try normalize(v, nested: true)
            }
            return .object(out)
        default:
            return value
        }
    }

    static func normalizeNumber(_ n: JSONNumber) -> JSONNumber {
        if n.isInteger { return n }
        let d = n.doubleValue
        // 9.0 is returned as 9 (spec §4.6); 2^63 and beyond stay doubles.
        if d.rounded(.towardZero) == d, abs(d) < 9.0e18, let i = Int64(exactly: d) { return JSONNumber(i) }
        return n
    }

    static func normalizeTagged(_ tag: String, _ o: JSONObject) throws -> JSON {
        switch tag {
        case "Date":
            guard let iso = o["iso"]?.stringValue, let ts = ParseDate.normalize(iso) else { throw notValid("Date") }
            return ["__type": "Date", "iso": .string(ts)]
        case "Pointer", "Object":
            guard let cls = o["className"]?.stringValue, let id = o["objectId"]?.stringValue, !id.isEmpty else {
                throw notValid("Pointer")
            }
            try FieldNames.checkClassName(cls)
            return ["__type": "Pointer", "className": .string(cls), "objectId": .string(id)]
        case "Relation":
            guard let cls = o["className"]?.stringValue else { throw notValid("Relation") }
            try FieldNames.checkClassName(cls)
            return ["__type": "Relation", "className": .string(cls)]
        case "GeoPoint":
            guard let lat = o["latitude"]?.doubleValue, let lng = o["longitude"]?.doubleValue,
                  case .number(let latN)? = o["latitude"], case .number(let lngN)? = o["longitude"],
                  lat >= -90, lat <= 90, lng >= -180, lng <= 180 else { throw notValid("GeoPoint") }
            return ["__type": "GeoPoint", "latitude": .number(normalizeNumber(latN)),
                    "longitude": .number(normalizeNumber(lngN))]
        case "Polygon":
            return try normalizePolygon(o["coordinates"])
        case "File":
            guard let name = o["name"]?.stringValue, !name.isEmpty else { throw notValid("File") }
            return ["__type": "File", "name": .string(name)]
        case "Bytes":
            guard let b = o["base64"]?.stringValue, Base64.decode(b) != nil else { throw notValid("Bytes") }
            return ["__type": "Bytes", "base64": .string(b)]
        default:
            throw notValid(tag)
        }
    }

    static func normalizePolygon(_ coords: JSON?) throws -> JSON {
        guard let list = coords?.arrayValue else { throw notValid("Polygon") }
        var points: [[JSON]] = []
        var distinct: Set<String> = []
        for p in list {
            guard let pair = p.arrayValue, pair.count == 2, let lat = pair[0].doubleValue, let lng = pair[1].doubleValue,
                  case .number = pair[0], case .number = pair[1],
                  lat >= -90, lat <= 90, lng >= -180, lng <= 180 else { throw notValid("Polygon") }
            points.append(pair)
            distinct.insert("\(lat),\(lng)")
        }
        guard distinct.count >= 3, let first = points.first, let last = points.last else { throw notValid("Polygon") }
        // Stored closed, as Parse Server (MongoDB) stores and returns it.
        if first[0].doubleValue != last[0].doubleValue || first[1].doubleValue != last[1].doubleValue {
            points.append(first)
        }
        return ["__type": "Polygon", "coordinates": .array(points.map { .array($0) })]
    }

    /// The schema type a normalised value implies; nil for `null`.
    static func type(of value: JSON) -> FieldType? {
        switch value {
        case .null: return nil
        case .bool: return .boolean
        case .number: return .number
        case .string: return .string
        case .array: return .array
        case .object(let o):
            switch o["__type"]?.stringValue {
            case "Date": return .date
            case "Pointer": return .pointer(o["className"]?.stringValue ?? "")
            case "Relation": return .relation(o["className"]?.stringValue ?? "")
            case "GeoPoint": return .geoPoint
            case "Polygon": return .polygon
            case "File": return .file
            case "Bytes": return .bytes
            default: return .object
            }
        }
    }
}
