import Core

/// A `#l` value (§4.2): coordinates, an address, or both.
public struct Location: Sendable, Equatable {
    /// Latitude and longitude in degrees, when the value has coordinates.
    public var coordinates: (lat: Double, lon: Double)?
    /// Altitude; 0 when not given.
    public var altitude: Double
    /// The address, when one was given.
    public var address: String?

    /// A location.
    public init(coordinates: (lat: Double, lon: Double)?, altitude: Double = 0, address: String? = nil) {
        self.coordinates = coordinates
        self.altitude = altitude
        self.address = address
    }

    /// Parses the request forms of the SDKs: iOS `41.648823,-0.889085,0.000000|Zaragoza` (and `|(null)`
    /// without an address), JS `41.6488226,-0.8890853,0|Zaragoza`, Android `41.648823,-0.889085,0.0|`
    /// (Java doubles, exponents possible). Left of the first `|` are coordinates, right of it the address;
    /// `(null)` or empty means none. Without `|`, text that reads as coordinates is coordinates, anything
    /// else an address only (never geocoded). Nil for coordinates out of range or unreadable before a
    /// `|`, or an empty value.
    public static func parse(_ text: String) -> Location? {
        let bytes = text.utf8
        if let bar = bytes.firstIndex(of: UInt8(ascii: "|")) {
            let left = String(decoding: bytes[bytes.startIndex..<bar], as: UTF8.self)
            let right = String(decoding: bytes[bytes.index(after: bar)...], as: UTF8.self)
            let address = (right.isEmpty || right == "(null)") ? nil : right
            if left.isEmpty {
                // `|Zaragoza`: an address with no coordinates at all.
                return address.map { Location(coordinates: nil, address: $0) }
            }
            guard case .valid(let lat, let lon, let alt) = coordinates(left) else { return nil }
            return Location(coordinates: (lat, lon), altitude: alt, address: address)
        }
        switch coordinates(text) {
        case .valid(let lat, let lon, let alt): return Location(coordinates: (lat, lon), altitude: alt)
        case .outOfRange: return nil
        case .notCoordinates: return text.isEmpty ? nil : Location(coordinates: nil, address: text)
        }
    }

    private enum Coordinates {
        case valid(Double, Double, Double)
        case outOfRange
        case notCoordinates
    }

    /// `lat,lon` or `lat,lon,alt` with `#n` numbers; latitude in [-90, 90], longitude in [-180, 180].
    private static func coordinates(_ text: String) -> Coordinates {
        let parts = text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard parts.count == 2 || parts.count == 3 else { return .notCoordinates }
        let numbers = parts.map(FieldValues.number)
        guard let lat = numbers[0], let lon = numbers[1] else { return .notCoordinates }
        let alt: Double
        if parts.count == 3 {
            guard let a = numbers[2] else { return .notCoordinates }
            alt = a
        } else {
            alt = 0
        }
        guard (-90.0...90.0).contains(lat), (-180.0...180.0).contains(lon) else { return .outOfRange }
        return .valid(lat, lon, alt)
    }

    /// The response object: `lat`, `lon` (with coordinates), `alt` (only when non-zero), `addr` (only
    /// with an address), `hash` (the 7-character geohash, with coordinates).
    public var json: JSONObject {
        var object = JSONObject()
        if let coordinates {
            object["lat"] = .double(coordinates.lat)
            object["lon"] = .double(coordinates.lon)
        }
        if altitude != 0 { object["alt"] = .double(altitude) }
        if let address { object["addr"] = .string(address) }
        if let coordinates { object["hash"] = .string(Geohash.encode(lat: coordinates.lat, lon: coordinates.lon)) }
        return object
    }

    /// Equal when coordinates, altitude and address are.
    public static func == (a: Location, b: Location) -> Bool {
        a.coordinates?.lat == b.coordinates?.lat && a.coordinates?.lon == b.coordinates?.lon
            && a.altitude == b.altitude && a.address == b.address
    }
}
