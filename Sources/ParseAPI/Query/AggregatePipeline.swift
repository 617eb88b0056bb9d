import Core

/// The `/aggregate` pipeline subset of spec §17.2 over rendered documents.
struct AggregatePipeline {
    enum Stage {
        case match(JSONObject), group(JSONObject), sort(JSONObject), limit(Int), skip(Int), project(JSONObject), count(String)
    }

    var stages: [Stage] = []

    static let legacy: [String: String] = ["match": "$match", "group": "$group", "sort": "$sort", "limit": "$limit",
                                           "skip": "$skip", "project": "$project", "count": "$count"]
    static let unsupported: Set<String> = ["$lookup", "$unwind", "$geoNear", "$addFields", "$facet", "$out", "$merge",
                                           "$bucket", "$sample", "$replaceRoot", "$redact", "$graphLookup", "$set", "$unset"]

    /// Stages from `pipeline` (array of one-key objects, or an object of stages) or from the other parameters.
    static func parse(_ params: JSONObject) throws -> AggregatePipeline {
        var raw: [(String, JSON)] = []
        if let p = params["pipeline"] {
            var value = p
            if let s = p.stringValue, let parsed = try? JSONParser.parse(s) { value = parsed }
            if let arr = value.arrayValue {
                for item in arr {
                    guard let o = item.objectValue else { throw ParseError(102, "Pipeline stages should be objects.") }
                    guard o.count == 1, let (k, v) = o.first(where: { _ in true }) else {
                        throw ParseError(102, "Pipeline stages should only have one key but found \(o.keys.joined(separator: ", ")).")
                    }
                    raw.append((k, v))
                }
            } else if let o = value.objectValue {
                for (k, v) in o { raw.append((k, v)) }
            } else {
                throw ParseError(102, "pipeline must be an array or an object.")
            }
        } else {
            for (k, v) in params where k != "where" && k != "distinct" { raw.append((k, v)) }
        }
        var p = AggregatePipeline()
        for (name, operandRaw) in raw {
            let stage = legacy[name] ?? name
            guard stage.hasPrefix("$") else { throw ParseError(102, "Invalid aggregate stage '\(name)'.") }
            var operand = operandRaw
            if let s = operandRaw.stringValue, stage != "$count", let parsed = try? JSONParser.parse(s) { operand = parsed }
            switch stage {
            case "$match":
                guard let o = operand.objectValue else { throw ParseError(102, "$match must be an object.") }
                p.stages.append(.match(o))
            case "$group":
                guard let o = operand.objectValue else { throw ParseError(102, "$group must be an object.") }
                if o["_id"] != nil && o["objectId"] != nil { throw ParseError(102, "$group cannot have both _id and objectId.") }
                if o["_id"] == nil && o["objectId"] == nil {
                    throw ParseError(102, "Invalid parameter for query: group. Missing key _id")
                }
                p.stages.append(.group(o))
            case "$sort":
                guard let o = operand.objectValue else { throw ParseError(102, "$sort must be an object.") }
                p.stages.append(.sort(o))
            case "$limit":
                guard let n = operand.int64Value, n > 0 else { throw ParseError(102, "$limit must be a positive integer.") }
                p.stages.append(.limit(Int(clamping: n)))
            case "$skip":
                guard let n = operand.int64Value, n >= 0 else { throw ParseError(102, "$skip must be a non-negative integer.") }
                p.stages.append(.skip(Int(clamping: n)))
            case "$project":
                guard let o = operand.objectValue else { throw ParseError(102, "$project must be an object.") }
                p.stages.append(.project(o))
            case "$count":
                guard let s = operand.stringValue, !s.isEmpty else { throw ParseError(102, "$count must be a field name.") }
                p.stages.append(.count(s))
            default:
                throw ParseError(102, unsupported.contains(stage) || stage.hasPrefix("$")
                                 ? "Unsupported aggregate stage: \(stage)." : "Invalid aggregate stage '\(name)'.")
            }
        }
        return p
    }

    /// A leading `$match` stage (which the caller merges into the query's `where`) and the rest.
    var leadingMatch: JSONObject? {
        guard case .match(let m)? = stages.first else { return nil }
        return m
    }

    func run(_ input: [JSONObject], skippingFirst: Bool) throws -> [JSONObject] {
        var docs = input
        for (i, stage) in stages.enumerated() {
            if i == 0 && skippingFirst { continue }
            switch stage {
            case .match(let cond): docs = try docs.filter { try AggregateValues.matches($0, cond) }
            case .group(let spec): docs = try group(docs, spec)
            case .sort(let spec): docs = sort(docs, spec)
            case .limit(let n): docs = Array(docs.prefix(n))
            case .skip(let n): docs = Array(docs.dropFirst(n))
            case .project(let spec): docs = try project(docs, spec)
            case .count(let name): docs = docs.isEmpty ? [] : [[name: .number(JSONNumber(docs.count))]]
            }
        }
        return docs
    }

    private func group(_ docs: [JSONObject], _ spec: JSONObject) throws -> [JSONObject] {
        let keySpec = spec["_id"] ?? spec["objectId"] ?? .null
        var order: [String] = []
        var groups: [String: (key: JSON, docs: [JSONObject])] = [:]
        for d in docs {
            let key: JSON
            switch keySpec {
            case .string(let ref) where ref.hasPrefix("$"): key = AggregateValues.resolve(ref, in: d) ?? .null
            case .object(let o):
                var k = JSONObject()
                for (name, ref) in o { k[name] = ref.stringValue.flatMap { AggregateValues.resolve($0, in: d) } ?? .null }
                key = .object(k)
            default: key = .null
            }
            let id = key.serialized(sortedKeys: true)
            if groups[id] == nil { order.append(id); groups[id] = (key, []) }
            groups[id]?.docs.append(d)
        }
        var out: [JSONObject] = []
        for id in order {
            guard let g = groups[id] else { continue }
            var result: JSONObject = ["objectId": g.key]
            for (name, accSpec) in spec where name != "_id" && name != "objectId" {
                guard let acc = accSpec.objectValue, acc.count == 1, let (op, arg) = acc.first(where: { _ in true }) else {
                    throw ParseError(102, "Invalid accumulator for \(name).")
                }
                result[name] = try accumulate(op, arg, g.docs)
            }
            out.append(result)
        }
        return out
    }

    private func accumulate(_ op: String, _ arg: JSON, _ docs: [JSONObject]) throws -> JSON {
        let ref = arg.stringValue
        func values() -> [JSON] { docs.compactMap { d in ref.flatMap { AggregateValues.resolve($0, in: d) } } }
        switch op {
        case "$sum", "$avg":
            var sum = 0.0, count = 0
            var allInt = true
            if case .number(let n) = arg {
                sum = n.doubleValue * Double(docs.count); count = docs.count; allInt = n.isInteger
            } else {
                for v in values() { if case .number(let n) = v { sum += n.doubleValue; count += 1; allInt = allInt && n.isInteger } }
            }
            if op == "$avg" { return count == 0 ? .null : (JSONNumber(sum / Double(count)).map { .number($0) } ?? .null) }
            if allInt, abs(sum) < 9e15 { return .number(JSONNumber(Int64(sum))) }
            return JSONNumber(sum).map { .number(Values.normalizeNumber($0)) } ?? .null
        case "$min", "$max":
            let vs = values().filter { !$0.isNull }
            let pick = op == "$min" ? vs.min(by: AggregateValues.less) : vs.max(by: AggregateValues.less)
            return AggregateValues.asDateIfTimestamp(ref ?? "", pick) ?? .null
        case "$count":
            return .number(JSONNumber(docs.count))
        default:
            throw ParseError(102, "Unsupported accumulator: \(op).")
        }
    }

    private func sort(_ docs: [JSONObject], _ spec: JSONObject) -> [JSONObject] {
        docs.sorted { a, b in
            for (field, dir) in spec {
                let x = AggregateValues.resolve("$" + field, in: a), y = AggregateValues.resolve("$" + field, in: b)
                if AggregateValues.same(x, y) { continue }
                let asc = AggregateValues.less(x, y)
                return (dir.doubleValue ?? 1) < 0 ? !asc : asc
            }
            return false
        }
    }

    private func project(_ docs: [JSONObject], _ spec: JSONObject) throws -> [JSONObject] {
        var include: Set<String> = [], exclude: Set<String> = []
        for (k, v) in spec {
            let on: Bool
            switch v {
            case .bool(let b): on = b
            case .number(let n) where n.doubleValue == 0 || n.doubleValue == 1: on = n.doubleValue == 1
            default: throw ParseError(102, "$project supports only inclusion or exclusion of fields.")
            }
            let key = k == "_id" ? "objectId" : k
            if on { include.insert(key) } else { exclude.insert(key) }
        }
        if !include.subtracting(["objectId"]).isEmpty && !exclude.subtracting(["objectId"]).isEmpty {
            throw ParseError(102, "$project cannot mix inclusion and exclusion.")
        }
        return docs.map { d in
            var out = JSONObject()
            for (k, v) in d {
                if exclude.contains(k) { continue }
                if !include.subtracting(["objectId"]).isEmpty && !include.contains(k) && k != "objectId" { continue }
                out[k] = v
            }
            return out
        }
    }
}
