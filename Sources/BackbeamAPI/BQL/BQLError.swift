/// A BQL query or its parameters refused (§6.1, §6.5): the kind, where, and an English message.
///
/// Syntax, limit and type errors answer 400 `InvalidQuery`; a mismatch between `?` and `params`, too
/// many `params`, or a parameter of the wrong form answers 400 `InvalidParameters` (§6.1, §6.2).
public struct BQLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The text does not follow the grammar.
        case syntax
        /// A bound of `BQLLimits` was exceeded.
        case limit
        /// An operator that the field's type does not support, or an unsortable field.
        case type
        /// The number of `?` differs from the number of `params`, or there are too many `params`.
        case parameterCount
        /// A parameter of the wrong form for its field (`abc` for a number, a malformed id, ...).
        case parameterValue
    }

    /// What went wrong.
    public var kind: Kind
    /// 0-based offset in the query text (in characters; every character before an error position is
    /// ASCII, since anything else is itself an error), or nil when no single place is at fault.
    public var offset: Int?
    /// The English message, ending with the offset when there is one.
    public var message: String

    /// An error; the offset, when given, is appended to `detail` as "at offset N".
    public init(_ kind: Kind, _ detail: String, at offset: Int? = nil) {
        self.kind = kind
        self.offset = offset
        self.message = offset.map { "\(detail) at offset \($0)" } ?? detail
    }

    /// The wire status.
    public var status: BackbeamStatus {
        switch kind {
        case .syntax, .limit, .type: return .invalidQuery
        case .parameterCount, .parameterValue: return .invalidParameters
        }
    }

    /// The Backbeam error answered.
    public var backbeamError: BackbeamError { BackbeamError(status, message) }

    /// The message.
    public var description: String { message }
}
