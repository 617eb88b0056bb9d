-- Parse API tables. Objects of every class share one table; fields live in `data` (JSON text) and are
-- reached with json_extract, so schema-declared indexes become expression indexes on this table.
CREATE TABLE parse_objects (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,  -- creation order: the tie-breaker of every query
    class      TEXT NOT NULL,
    id         TEXT NOT NULL,
    data       TEXT NOT NULL,                      -- user fields plus hidden "_"-prefixed fields
    acl        TEXT,                               -- the ACL as returned to clients; NULL = public
    rperm      TEXT,                               -- JSON array of ACL entries with read; NULL = public
    wperm      TEXT,                               -- JSON array of ACL entries with write; NULL = public
    created_at TEXT NOT NULL,                      -- yyyy-MM-ddTHH:mm:ss.SSSZ, so text order = time order
    updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX parse_objects_class_id ON parse_objects(class, id);
CREATE INDEX parse_objects_class_created ON parse_objects(class, created_at);
CREATE INDEX parse_objects_class_updated ON parse_objects(class, updated_at);
CREATE UNIQUE INDEX parse_users_username ON parse_objects(json_extract(data, '$."_username_folded"'))
    WHERE class = '_User';
CREATE UNIQUE INDEX parse_users_email ON parse_objects(json_extract(data, '$."_email_folded"'))
    WHERE class = '_User';
CREATE INDEX parse_users_anonymous ON parse_objects(json_extract(data, '$."_anonymous_id"'))
    WHERE class = '_User';
CREATE UNIQUE INDEX parse_roles_name ON parse_objects(json_extract(data, '$."name"'))
    WHERE class = '_Role';
CREATE UNIQUE INDEX parse_sessions_token ON parse_objects(json_extract(data, '$."_token_hash"'))
    WHERE class = '_Session';
CREATE INDEX parse_sessions_user ON parse_objects(json_extract(data, '$."user"."objectId"'))
    WHERE class = '_Session';
CREATE INDEX parse_installations_id ON parse_objects(json_extract(data, '$."installationId"'))
    WHERE class = '_Installation';
CREATE INDEX parse_installations_token ON parse_objects(json_extract(data, '$."deviceToken"'))
    WHERE class = '_Installation';

-- Relation members: (owner class, field, owner) -> member of member_class.
CREATE TABLE parse_relations (
    owner_class  TEXT NOT NULL,
    field        TEXT NOT NULL,
    owner_id     TEXT NOT NULL,
    member_class TEXT NOT NULL,
    member_id    TEXT NOT NULL,
    PRIMARY KEY (owner_class, field, owner_id, member_id)
) WITHOUT ROWID;
CREATE INDEX parse_relations_member ON parse_relations(owner_class, field, member_id);
CREATE INDEX parse_relations_member_class ON parse_relations(member_class, member_id);

-- Class schemas: fields, class-level permissions and declared indexes as JSON text.
CREATE TABLE parse_schemas (
    class   TEXT PRIMARY KEY,
    fields  TEXT NOT NULL,
    clp     TEXT,
    indexes TEXT
);

-- File names -> content-addressed blobs.
CREATE TABLE parse_files (
    name         TEXT PRIMARY KEY,
    blob_hash    TEXT NOT NULL,
    size         INTEGER NOT NULL,
    content_type TEXT,
    metadata     TEXT,
    created_at   TEXT NOT NULL
);

-- Global config parameters (GET/PUT /config).
CREATE TABLE parse_config (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL,
    master_only INTEGER NOT NULL DEFAULT 0
);

-- X-Parse-Request-Id records, written in the transaction of the write they guard.
CREATE TABLE parse_idempotency (
    request_id TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL                      -- unix milliseconds
);


-- String fields with a full-text index: one FTS5 table parse_fts_<class>_<field> each, rowid = parse_objects.seq.
CREATE TABLE parse_fts_fields (
    class TEXT NOT NULL,
    field TEXT NOT NULL,
    PRIMARY KEY (class, field)
);
