import Auth

/// The `email` and `password` commands of `user` objects (§4.6 user specials, §5.4.1): taken out of the
/// ordinary commands, validated, and the password hashed with bcrypt (system libcrypt) before the write is
/// queued, so that no hashing ever runs on the storage writer. A password is never stored or answered in
/// any other form.
enum UserCredentials {
    /// Longest password bcrypt reads in full (it ignores bytes after 72).
    static let maxPasswordBytes = 72

    static func extract(_ commands: inout CommandSet, entity: String, cost: Int) throws -> CredentialChange {
        guard entity == "user" else { return CredentialChange() }
        var change = CredentialChange()
        if let i = commands.fields.firstIndex(where: { $0.field == "password" }) {
            let c = commands.fields.remove(at: i)
            try refuseOtherVerbs(c)
            if let password = c.set {
                change.passwordHash = .set(try hashPassword(password, cost: cost))
            } else if c.del {
                change.passwordHash = .delete
            }
        }
        if let i = commands.fields.firstIndex(where: { $0.field == "email" }) {
            let c = commands.fields.remove(at: i)
            try refuseOtherVerbs(c)
            if let email = c.set {
                guard let normalized = EmailAddress.normalized(email) else {
                    throw BackbeamError(.invalidParameters, "The email address is not valid")
                }
                change.email = .set(normalized)
            } else if c.del {
                change.email = .delete
            }
        }
        return change
    }

    /// The bcrypt hash of a new password: 1 to 72 bytes (bcrypt ignores what follows), no NUL, else 400
    /// `InvalidParameters`.
    static func hashPassword(_ password: String, cost: Int) throws -> String {
        guard !password.isEmpty, password.utf8.count <= maxPasswordBytes, !password.utf8.contains(0) else {
            throw BackbeamError(.invalidParameters, "The password must have 1 to 72 bytes")
        }
        return try PasswordHasher.hash(password, cost: cost)
    }

    private static func refuseOtherVerbs(_ c: FieldCommands) throws {
        if c.incr != nil || !c.add.isEmpty || !c.rem.isEmpty || (c.suffix != nil && c.suffix != .text) {
            throw BackbeamError(.invalidParameters, "'\(c.field)' of a user takes only set- and del-")
        }
    }
}
