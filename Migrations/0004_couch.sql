-- Couch API (CouchDB 3 compatible): databases, documents with revision forests, revision bodies,
-- attachment metadata per revision, _local documents and the server's own metadata (spec §7).
-- Document ids, database names and attachment names are stored as TEXT, which SQLite compares with
-- memcmp (BINARY collation): the byte order of their UTF-8 form, the order _all_docs and _all_dbs need.

-- One row per live database. db_id is never reused (AUTOINCREMENT), so a re-created database is a new
-- incarnation: its change topic (couch.db.<db_id>) and rows never mix with the deleted one's.
CREATE TABLE couch_databases (
    db_id             INTEGER PRIMARY KEY AUTOINCREMENT,
    name              TEXT NOT NULL UNIQUE,
    created_us        INTEGER NOT NULL,           -- creation time in µs: instance_start_time
    update_seq        INTEGER NOT NULL DEFAULT 0, -- last sequence number assigned (commit order)
    purge_seq         INTEGER NOT NULL DEFAULT 0,
    revs_limit        INTEGER NOT NULL DEFAULT 1000,
    security          TEXT,                       -- the _security object as compact JSON; NULL: never set
    doc_count         INTEGER NOT NULL DEFAULT 0, -- documents whose winner is live
    doc_del_count     INTEGER NOT NULL DEFAULT 0, -- documents whose winner is a tombstone
    external_size     INTEGER NOT NULL DEFAULT 0, -- bytes of winners' bodies and attachments
    active_size       INTEGER NOT NULL DEFAULT 0, -- bytes of every stored body, tree and attachment
    compacted_seq     INTEGER                     -- update_seq when the last compaction finished
);

-- One row per document: its revision forest (RevTree's compact binary form) and a copy of the winning
-- revision ready to be sent, so that a plain GET is one indexed lookup and a copy of stored bytes.
CREATE TABLE couch_docs (
    doc_rowid INTEGER PRIMARY KEY,
    db_id     INTEGER NOT NULL,
    doc_id    TEXT NOT NULL,
    seq       INTEGER NOT NULL,                   -- sequence of the last write that changed the tree
    rev       TEXT NOT NULL,                      -- the winning revision
    deleted   INTEGER NOT NULL,                   -- 1 when the winner is a tombstone
    body      TEXT NOT NULL,                      -- the winner's body, compact, as in couch_revs
    atts      TEXT,                               -- the winner's _attachments stubs as JSON; NULL: none
    size      INTEGER NOT NULL,                   -- the winner's body and attachment bytes (sizes.external)
    tree      BLOB NOT NULL
);
CREATE UNIQUE INDEX couch_docs_id ON couch_docs (db_id, doc_id);
-- The changes index: exactly one entry per document, at its current sequence.
CREATE UNIQUE INDEX couch_docs_seq ON couch_docs (db_id, seq);

-- Stored bodies of revision nodes (leaves always; ancestors until compaction or stemming removes them).
-- body is the document body without special members, compact, keys in received order and numbers with
-- their original literals.
CREATE TABLE couch_revs (
    rev_rowid INTEGER PRIMARY KEY,
    doc_rowid INTEGER NOT NULL,
    rev       TEXT NOT NULL,
    deleted   INTEGER NOT NULL,
    body      TEXT NOT NULL,
    att_count INTEGER NOT NULL DEFAULT 0          -- rows of this revision in couch_atts
);
CREATE UNIQUE INDEX couch_revs_doc ON couch_revs (doc_rowid, rev);

-- Attachments of a stored revision, in the revision's order (it feeds the revision id). Each row holds
-- one reference to its blob in quartet_blobs; digest is "md5-" + base64 of the MD5 of the stored bytes.
CREATE TABLE couch_atts (
    rev_rowid      INTEGER NOT NULL,
    position       INTEGER NOT NULL,
    name           TEXT NOT NULL,
    content_type   TEXT NOT NULL,
    length         INTEGER NOT NULL,              -- identity length
    digest         TEXT NOT NULL,
    revpos         INTEGER NOT NULL,
    encoding       TEXT,                          -- NULL: identity; 'gzip': stored compressed
    encoded_length INTEGER,                       -- stored length when encoding is set
    blob_hash      TEXT NOT NULL,
    PRIMARY KEY (rev_rowid, position)
) WITHOUT ROWID;

-- _local documents: no tree, no sequence; rev is N of "0-N".
CREATE TABLE couch_local_docs (
    db_id  INTEGER NOT NULL,
    doc_id TEXT NOT NULL,                         -- the whole id, "_local/" prefix included
    rev    INTEGER NOT NULL,
    body   TEXT NOT NULL,
    PRIMARY KEY (db_id, doc_id)
) WITHOUT ROWID;

-- Server metadata: 'uuid' (32 hex digits, GET /) and 'cookie_secret' (32 random bytes, AuthSession HMACs).
CREATE TABLE couch_server (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
) WITHOUT ROWID;
