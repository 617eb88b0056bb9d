import Storage

/// SQL text and its bound values, built together: every value a client sent goes into `args` and appears
/// in `text` only as `?`, so no value is ever spliced into SQL.
struct SQLFragment {
    var text: String = ""
    var args: [SQLValue] = []

    init(_ text: String = "", _ args: [SQLValue] = []) {
        self.text = text
        self.args = args
    }

    /// Appends text that carries no client data.
    mutating func sql(_ s: String) { text += s }

    /// Appends `?` bound to `value`.
    mutating func bind(_ value: SQLValue) {
        text += "?"
        args.append(value)
    }

    /// Appends another fragment, its values after the ones already here (text order is bind order).
    mutating func append(_ other: SQLFragment) {
        text += other.text
        args += other.args
    }

    /// The expression of a value field of the object aliased `alias`: `json_extract(o.data, '$.f12')`.
    /// The path is built from the catalogue's integer id, never from the field's name, and has exactly the
    /// text of the declared indexes' expressions (`IndexSQL`), which the planner needs to use them.
    static func fieldValue(alias: String, fieldID: Int64) -> String {
        "json_extract(\(alias).data, '$.f\(fieldID)')"
    }
}
