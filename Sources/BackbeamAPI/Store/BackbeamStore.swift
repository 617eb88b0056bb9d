/// Everything the Backbeam API keeps, behind one protocol (the SQLite implementation is
/// `SQLiteBackbeamStore`). Handlers parse the wire format, call this, and render what it returns.
///
/// Errors: validation failures are thrown as `BackbeamError` (with the wire status), anything else is an
/// internal failure the caller answers with `InternalError`. Every write is one transaction, durable before
/// the method returns.
public protocol BackbeamStore: Sendable {
    // MARK: Projects created at run time (§1.3, §5.6)

    /// Creates `name` with the given key pairs; false when a project of that name exists.
    func createProject(name: String, keys: [BackbeamEnvironment: KeyPair], now: Int64) throws -> Bool
    /// A created project with its keys, or nil.
    func createdProject(named name: String) throws -> StoredProject?
    /// The names of all created projects, sorted.
    func createdProjectNames() throws -> [String]
    /// Adds a key pair to an environment of a created project; false when the project does not exist.
    func addKey(project: String, env: BackbeamEnvironment, pair: KeyPair, now: Int64) throws -> Bool
    /// Revokes a key pair; false when it was not there.
    func revokeKey(project: String, env: BackbeamEnvironment, key: String) throws -> Bool
    /// The space of a project environment, created when `create` is set; nil when absent.
    func space(project: String, env: BackbeamEnvironment, create: Bool) throws -> SpaceID?

    // MARK: Catalogue and indexes (§4.3, §5.6)

    /// The field catalogue of an environment.
    func catalogue(space: SpaceID) throws -> FieldCatalogue
    /// Declares an index on `entity.field` and builds it; false when it already existed.
    func declareIndex(space: SpaceID, entity: String, field: String, now: Int64) throws -> Bool
    /// Drops a declared index; false when there was none.
    func dropIndex(space: SpaceID, entity: String, field: String) throws -> Bool
    /// The declared indexes, sorted by entity and field.
    func indexes(space: SpaceID) throws -> [(entity: String, field: String)]

    // MARK: Objects (§5.2)

    /// A BQL query (list, near or bounding) with its joins.
    func query(_ request: QueryRequest) throws -> ObjectPage
    /// One object of `entity` with the joins of `joins`; nil when there is no such object of that entity.
    func read(space: SpaceID, entity: String, id: String, joins: BQLBoundQuery?, schema: ProjectSchema?,
              maxJoinWindow: Int) throws -> ObjectPage?
    /// `read` without joins for a caller that must not wait (an HTTP I/O thread): the object's rendered
    /// members, or nil when no read connection is free at once, SQLite would wait for a lock, or there is
    /// no such object of that entity (the caller then asks `read`).
    func renderedObjectIfAtHand(space: SpaceID, entity: String, id: String) throws -> [UInt8]?
    /// Creates an object from the commands; returns it as stored.
    func create(_ request: WriteRequest) throws -> ObjectRecord
    /// Applies the commands to an existing object; nil when there is no such object of that entity.
    func update(_ request: WriteRequest) throws -> ObjectRecord?
    /// Deletes an object with the cascades of §5.2.7; returns its last state, nil when absent.
    func delete(space: SpaceID, entity: String, id: String) throws -> ObjectRecord?
    /// Deletes the objects a query selects within its window (§5.2.8); returns how many.
    func remove(_ request: QueryRequest) throws -> Int

    // MARK: Sessions (§3.7)

    /// The id of the user whose session code hashes to `tokenHash` in this environment, or nil.
    func sessionUser(space: SpaceID, tokenHash: String, minCreatedAt: Int64?) throws -> String?
    /// Revokes every session of a user; returns how many.
    func revokeSessions(space: SpaceID, userID: String) throws -> Int
    // MARK: Users (§5.4, §8)

    /// The login data of the user whose login email is `email` (case-insensitively), or nil.
    func userLogin(space: SpaceID, email: String) throws -> UserLogin?
    /// Opens a session for the user `userID`; false when there is no such user.
    func openSession(space: SpaceID, userID: String, sessionHash: String, now: Int64) throws -> Bool
    /// Stores `code` for the user whose login email is `email` (earlier unused codes of its kind stop
    /// working) and queues `mail`, in one transaction; returns the queued mail, nil when there is no such user.
    func issueCode(space: SpaceID, email: String, code: IssuedCode, mail: MailMessage, now: Int64) throws -> MailMessage?
    /// Consumes a live code of one of the accepted kinds (atomically: of two concurrent uses exactly one
    /// succeeds), marks the email verified, applies the password change and opens the session; returns the
    /// user's id, nil when the code is unknown, used, expired or of another kind.
    func redeemCode(space: SpaceID, _ redemption: CodeRedemption) throws -> String?
    /// A verified social identity: log in, link or create (§5.4.6), and open the session, in one transaction.
    func socialLogin(space: SpaceID, _ login: SocialLogin) throws -> SocialOutcome
    /// Mails waiting for the mailer whose next attempt is due at `now`, oldest first, across all environments.
    func queuedMails(limit: Int, now: Int64) throws -> [MailMessage]
    /// Records what the mailer did with a mail (`logged`, `sent`, `failed`).
    func setMailState(id: Int64, state: String) throws
    /// Counts a failed delivery attempt: the mail waits until `retryAt`, or is `failed` when that is nil.
    func mailAttemptFailed(id: Int64, retryAt: Int64?) throws
    /// Recorded mails of an environment, newest first, optionally to one recipient (case-insensitively).
    func mailOutbox(space: SpaceID, recipient: String?, limit: Int) throws -> [MailMessage]

    // MARK: Push (§5.5)

    /// Subscribes the token to each channel (already subscribed ones are left alone).
    func subscribe(space: SpaceID, gateway: PushGateway, token: String, channels: [String], now: Int64) throws
    /// Unsubscribes the token from the channels, or from every channel when `channels` is nil.
    func unsubscribe(space: SpaceID, gateway: PushGateway, token: String, channels: [String]?) throws
    /// The token's channels, sorted.
    func subscribedChannels(space: SpaceID, gateway: PushGateway, token: String) throws -> [String]
    /// Moves every subscription of the old tokens to `new`, merging channels (§5.5.6); returns how many moved.
    func repointTokens(space: SpaceID, gateway: PushGateway, old: [String], new: String) throws -> Int
    /// Resolves the channel's subscribers and queues one notification per gateway that has any, in one
    /// transaction; returns how many were queued.
    func queuePush(space: SpaceID, channel: String, message: PushMessage, now: Int64) throws -> Int
    /// Push outbox rows: of one environment (or all), one channel (or all), only queued ones (oldest first)
    /// or all (newest first).
    func pushOutbox(space: SpaceID?, channel: String?, onlyQueued: Bool, limit: Int) throws -> [PushNotification]
    /// Records what the sender did with a notification.
    func setPushState(id: Int64, state: String) throws
}
