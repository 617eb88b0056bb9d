/// Reads the non-file fields of a multipart body as parameters (§2.2, §7.3 item 3).
enum MultipartFields {
    /// Each field without a filename is a parameter whose value is its body as UTF-8: not percent-decoded
    /// and with `+` kept, because multipart carries raw bytes (the Node SDK posts every signed POST and
    /// PUT this way). File parts are never parameters and never signed.
    static func collect(_ fields: [MultipartField], limits: ParameterLimits, count: inout Int,
                        into out: inout [RawParameter]) throws(ParameterError) {
        for (position, field) in fields.enumerated() where field.filename == nil {
            count += 1
            guard count <= limits.maxParameters else { throw .tooManyParameters(limit: limits.maxParameters) }
            guard field.name.utf8.count <= limits.maxNameBytes else { throw .nameTooLong(limit: limits.maxNameBytes) }
            let (base, form) = ParameterName.split(field.name)
            guard field.value.count <= limits.maxValueBytes else {
                throw .valueTooLong(name: base, limit: limits.maxValueBytes)
            }
            guard let value = String(validating: field.value, as: UTF8.self) else {
                throw .invalidUTF8(source: .body, offset: position)
            }
            out.append(RawParameter(name: base, form: form, value: value, source: .body))
        }
    }
}
