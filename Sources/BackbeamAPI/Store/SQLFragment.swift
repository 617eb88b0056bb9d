import Storage

/// SQL text and its bound values, built together: every value a client sent goes into `args` and appears
/// in `text` only as `?`, so no value is ever spliced into SQL.
///
/// A fragment that does not record text (`init(recording: false)`) collects the bound values only: a query
/// whose statement text is already known (`QueryPlanCache`) runs the same compilation again for its values
/// without building the text, which was most of a query's compilation cost.
struct SQLFragment {
    var text: String = ""
    var args: [SQLValue] = []
    /// False when only `args` are collected (`text` stays empty).
    let recording: Bool
    /// True when some text was chosen by a bound value rather than by the query's shape alone (a value that
    /// matches nothing, full-text words, a collection): such a text must not be reused for other values.
    var textDependsOnValues = false

    init(_ text: String = "", _ args: [SQLValue] = []) {
        self.text = text
        self.args = args
        recording = true
    }

    /// An empty fragment that records its text, or (`recording` false) only its values.
    init(recording: Bool) {
        self.recording = recording
    }

    /// Appends text that carries no client data (evaluated only when the text is recorded).
    mutating func sql(_ s: @autoclosure () -> String) {
        if recording { text += s() }
    }

    /// Appends `?` bound to `value`.
    mutating func bind(_ value: SQLValue) {
        if recording { text += "?" }
        args.append(value)
    }

    /// Appends another fragment, its values after the ones already here (text order is bind order).
    mutating func append(_ other: SQLFragment) {
        if recording { text += other.text }
        args += other.args
        if other.textDependsOnValues { textDependsOnValues = true }
    }

    /// Notes that the text just written depends on a bound value (see `textDependsOnValues`).
    mutating func dependsOnValues() { textDependsOnValues = true }

    /// The expression of a value field of the object aliased `alias`: `json_extract(o.data, '$.f12')`.
    /// The path is built from the catalogue's integer id, never from the field's name, and has exactly the
    /// text of the declared indexes' expressions (`IndexSQL`), which the planner needs to use them.
    static func fieldValue(alias: String, fieldID: Int64) -> String {
        "json_extract(\(alias).data, '$.f\(fieldID)')"
    }
}
