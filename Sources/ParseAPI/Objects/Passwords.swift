import Core
import Auth

/// New-password rules and policy (spec §9.10).
enum Passwords {
    static func check(_ password: String, username: String?, config: ParseConfig) throws {
        guard !password.isEmpty, !password.utf8.contains(0), password.utf8.count <= 72 else {
            throw ParseError(142, "Password must be a non-empty string of at most 72 bytes without NUL characters.")
        }
        if let pattern = config.passwordPattern {
            let program = try ParseRegex.compile(pattern, options: "", allowLookaround: true)
            if !program.matches(password) {
                throw ParseError(142, config.passwordValidationError ?? "Password does not meet the Password Policy requirements.")
            }
        }
        if config.passwordDoNotAllowUsername, let username, !username.isEmpty, password.contains(username) {
            throw ParseError(142, "Password cannot contain your username.")
        }
    }

    /// bcrypt through the system libcrypt, cost from configuration.
    static func hash(_ password: String, config: ParseConfig) throws -> String {
        do {
            return try PasswordHasher.hash(password, cost: config.bcryptCost)
        } catch {
            throw ParseError.internalError
        }
    }

    /// A fixed valid hash, verified against when the user does not exist so timing is comparable.
    static let dummyHash = "$2b$10$CCCCCCCCCCCCCCCCCCCCC.07SoMsclJg8ImIR6hQwcm7q7cPtwvQ6"
}
