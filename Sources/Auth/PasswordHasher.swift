import CCrypt
import Core

/// Why a password could not be hashed.
public enum PasswordHashError: Error, Sendable, Equatable {
    /// bcrypt's cost must be 4...31 (2^cost rounds).
    case invalidCost(Int)
    /// The password contains a NUL byte, which the C interface would silently cut the password at.
    case passwordContainsNUL
    /// libcrypt refused to produce a salt or a hash.
    case cryptFailed
}

/// bcrypt password hashes through libxcrypt's `crypt_rn`, compatible with hashes written by Parse
/// Server (bcryptjs writes `$2a$`/`$2b$`), PHP (`$2y$`) and OpenBSD (`$2b$`).
///
/// bcrypt reads only the first 72 bytes of a password. Longer passwords are accepted, not refused, as
/// Parse Server accepts them; the bytes past 72 are cut here before calling libcrypt, which gives the
/// same hash (bcrypt would ignore them) and keeps libcrypt's 512-byte passphrase limit out of reach.
public enum PasswordHasher {
    /// Longest prefix of the password that bcrypt uses.
    static let maxPasswordBytes = 72

    /// A new `$2b$` hash of `password` with a random 16-byte salt and 2^`cost` rounds.
    public static func hash(_ password: String, cost: Int = 10) throws -> String {
        guard (4...31).contains(cost) else { throw PasswordHashError.invalidCost(cost) }
        let phrase = Array(password.utf8.prefix(maxPasswordBytes))
        guard !phrase.contains(0) else { throw PasswordHashError.passwordContainsNUL }
        let setting = try makeSetting(cost: cost)
        guard let hashed = crypt(phrase, setting: setting), BcryptHash(hashed) != nil else {
            throw PasswordHashError.cryptFailed
        }
        return hashed
    }

    /// True when `password` matches the bcrypt `hash` (`$2a$`, `$2b$` or `$2y$`). Anything that is not a
    /// well-formed bcrypt hash, and any password with a NUL byte, gives false. The final comparison takes
    /// the same time wherever the hashes differ.
    public static func verify(_ password: String, hash: String) -> Bool {
        guard BcryptHash(hash) != nil else { return false }
        let phrase = Array(password.utf8.prefix(maxPasswordBytes))
        guard !phrase.contains(0), let computed = crypt(phrase, setting: hash) else { return false }
        return Crypto.constantTimeEquals(Array(computed.utf8), Array(hash.utf8))
    }

    /// `$2b$CC$` followed by 22 salt characters, from `crypt_gensalt_rn` and CSPRNG bytes.
    private static func makeSetting(cost: Int) throws -> String {
        let random = Crypto.randomBytes(16)
        var output = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        let made = random.withUnsafeBufferPointer { rbytes in
            output.withUnsafeMutableBufferPointer { out in
                rbytes.withMemoryRebound(to: CChar.self) { r in
                    crypt_gensalt_rn("$2b$", UInt(cost), r.baseAddress, Int32(r.count), out.baseAddress, Int32(out.count))
                }
            }
        }
        guard made != nil else { throw PasswordHashError.cryptFailed }
        return string(fromCString: output)
    }

    /// Runs `crypt_rn` with a private work area, so concurrent calls never share state.
    private static func crypt(_ phrase: [UInt8], setting: String) -> String? {
        let size = MemoryLayout<crypt_data>.size
        let area = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<crypt_data>.alignment)
        defer {
            // The work area held the password and intermediate state; wipe it before freeing.
            area.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            area.deallocate()
        }
        area.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        var cPhrase = phrase.map { CChar(bitPattern: $0) }
        cPhrase.append(0)
        defer { for i in cPhrase.indices { cPhrase[i] = 0 } }
        // crypt_rn returns NULL on failure (no "*0" failure token), or a pointer into the work area.
        guard let result = crypt_rn(cPhrase, setting, area, Int32(size)) else { return nil }
        return String(cString: result)
    }

    private static func string(fromCString buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Shape check of a bcrypt hash: `$2a$`/`$2b$`/`$2y$`, two-digit cost 04...31, `$`, then 53 characters of
/// bcrypt's base64 alphabet (22 of salt, 31 of hash): 60 characters in all.
struct BcryptHash {
    let cost: Int

    /// The 22 salt characters of a well-formed bcrypt hash (after `$2b$CC$`); nil for anything else.
    static func salt(of text: String) -> String? {
        guard BcryptHash(text) != nil else { return nil }
        return String(decoding: text.utf8.dropFirst(7).prefix(22), as: UTF8.self)
    }

    init?(_ text: String) {
        let b = Array(text.utf8)
        guard b.count == 60, b[0] == UInt8(ascii: "$"), b[1] == UInt8(ascii: "2"),
              [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(b[2]), b[3] == UInt8(ascii: "$"),
              b[6] == UInt8(ascii: "$") else { return nil }
        let tens = Int(b[4]) - 48, ones = Int(b[5]) - 48
        guard (0...9).contains(tens), (0...9).contains(ones) else { return nil }
        cost = tens * 10 + ones
        guard (4...31).contains(cost) else { return nil }
        let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
        guard b[7...].allSatisfy(alphabet.contains) else { return nil }
    }
}
