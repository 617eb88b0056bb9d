-- Datastore API (Dropbox Datastore compatible): users, hashed tokens, datastores, delta log,
-- materialised records and the grants derived from each datastore's :acl table.

-- uids are assigned in sequence and never reused (AUTOINCREMENT): :acl names users as u<uid>.
CREATE TABLE ds_user (
    uid        INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
);

-- Only the SHA-256 hex of a token is stored. source: cli | admin | static.
CREATE TABLE ds_token (
    token_hash TEXT PRIMARY KEY,
    uid        INTEGER NOT NULL REFERENCES ds_user(uid),
    source     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
) WITHOUT ROWID;
CREATE INDEX ds_token_uid ON ds_token(uid);

-- One row per incarnation; rows of deleted datastores stay (deleted = 1) so a handle is never reused.
CREATE TABLE ds_datastore (
    handle       TEXT PRIMARY KEY,
    dsid         TEXT NOT NULL,
    owner_uid    INTEGER NOT NULL REFERENCES ds_user(uid),
    shareable    INTEGER NOT NULL,
    rev          INTEGER NOT NULL,
    size         INTEGER NOT NULL,
    record_count INTEGER NOT NULL,
    info_json    TEXT,
    deleted      INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL
) WITHOUT ROWID;
-- Serialise creation: one live private datastore per (owner, dsid), one live shareable per dsid.
CREATE UNIQUE INDEX ds_datastore_private ON ds_datastore(owner_uid, dsid) WHERE shareable = 0 AND deleted = 0;
CREATE UNIQUE INDEX ds_datastore_shareable ON ds_datastore(dsid) WHERE shareable = 1 AND deleted = 0;

-- The delta log: changes stored as validated, compact JSON text (values verbatim); nonce '' when none.
CREATE TABLE ds_delta (
    handle       TEXT NOT NULL,
    rev          INTEGER NOT NULL,
    changes_json TEXT NOT NULL,
    nonce        TEXT NOT NULL,
    PRIMARY KEY (handle, rev)
) WITHOUT ROWID;

-- The materialised snapshot; size is the record's accounted size.
CREATE TABLE ds_record (
    handle      TEXT NOT NULL,
    tid         TEXT NOT NULL,
    rid         TEXT NOT NULL,
    fields_json TEXT NOT NULL,
    size        INTEGER NOT NULL,
    PRIMARY KEY (handle, tid, rid)
) WITHOUT ROWID;

-- Derived from :acl records in the same transaction as every commit; principal is public, team or u<uid>.
CREATE TABLE ds_grant (
    handle    TEXT NOT NULL,
    principal TEXT NOT NULL,
    role      INTEGER NOT NULL,
    PRIMARY KEY (handle, principal)
) WITHOUT ROWID;
CREATE INDEX ds_grant_principal ON ds_grant(principal, role, handle);
