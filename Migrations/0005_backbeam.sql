-- Backbeam API (Backbeam.io compatible): projects, their two environments ("spaces"), key pairs, the
-- schemaless field catalogue, objects with typed fields, relationships, full-text and geo indexes, and the
-- login data of users. Times are Unix epoch milliseconds. Every table is prefixed bb_.

-- Projects created at run time (CLI or admin API). Projects declared in the configuration are not stored
-- here: the configuration is authoritative for them and for their keys.
CREATE TABLE bb_projects (
    name       TEXT PRIMARY KEY,
    created_at INTEGER NOT NULL
) WITHOUT ROWID;

-- Key pairs of created projects. The secret is kept as is: the HMAC needs it.
CREATE TABLE bb_keys (
    project    TEXT NOT NULL REFERENCES bb_projects(name),
    env        TEXT NOT NULL CHECK (env IN ('dev', 'pro')),
    shared_key TEXT NOT NULL,
    secret     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (project, env, shared_key)
) WITHOUT ROWID;

-- One row per project environment, declared or created: the data namespace every other table is keyed by.
CREATE TABLE bb_spaces (
    id      INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    env     TEXT NOT NULL CHECK (env IN ('dev', 'pro')),
    UNIQUE (project, env)
);

-- Entities that hold or held objects (the per-environment entity limit counts these).
CREATE TABLE bb_entities (
    space  INTEGER NOT NULL REFERENCES bb_spaces(id),
    entity TEXT NOT NULL,
    PRIMARY KEY (space, entity)
) WITHOUT ROWID;

-- The field catalogue (spec 4.3): field -> type, learned from the first write (or declared for an index
-- before any value exists: type NULL). `id` names the field inside objects' `data` ("f<id>"), in index
-- expressions and in the full-text scope, so that no client-chosen name ever appears in SQL text.
-- type is the wire suffix (t, ta, rt, s, n, d, b, c, j, l, r); many = 1 for to-many references; target is
-- the entity a reference points to (the first referenced object's, without a schema).
CREATE TABLE bb_fields (
    id     INTEGER PRIMARY KEY,
    space  INTEGER NOT NULL REFERENCES bb_spaces(id),
    entity TEXT NOT NULL,
    name   TEXT NOT NULL,
    type   TEXT,
    many   INTEGER NOT NULL DEFAULT 0,
    target TEXT,
    UNIQUE (space, entity, name)
);

-- Objects. `data` holds the value fields as a JSON object keyed "f<field id>" with the values in their
-- response form (numbers as numbers, booleans as booleans, #j embedded, #l as its object), reached by
-- json_extract in queries and declared expression indexes. `vals` and `refs` hold the same value fields and
-- the to-one references already rendered as response members ("name#t":"Bar Pepe",...;
-- "author#r":{"id":..,"type":..},...), and `login` the login_* members of users, so that a read copies bytes
-- instead of building JSON. seq is the object's internal key (links, references, full-text rows).
CREATE TABLE bb_objects (
    seq        INTEGER PRIMARY KEY,
    space      INTEGER NOT NULL,
    id         TEXT NOT NULL,
    entity     TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    data       TEXT NOT NULL DEFAULT '{}',
    vals       TEXT NOT NULL DEFAULT '',
    refs       TEXT NOT NULL DEFAULT '',
    login      TEXT NOT NULL DEFAULT ''
);
-- Ids are unique across all entities of an environment (schemaless references resolve id -> entity).
CREATE UNIQUE INDEX bb_objects_id ON bb_objects(space, id);
-- The default order of every query: created_at, then id.
CREATE INDEX bb_objects_entity ON bb_objects(space, entity, created_at, id);

-- To-one references: owner's field -> target object.
CREATE TABLE bb_refs (
    owner  INTEGER NOT NULL,
    field  INTEGER NOT NULL,
    target INTEGER NOT NULL,
    PRIMARY KEY (owner, field)
) WITHOUT ROWID;
CREATE INDEX bb_refs_target ON bb_refs(target, field);

-- To-many links with the time each was added (join first/last N orders by it; id breaks ties in insertion
-- order). linked_at may be NULL for imported links: they order by the member's created_at.
CREATE TABLE bb_links (
    id        INTEGER PRIMARY KEY,
    owner     INTEGER NOT NULL,
    field     INTEGER NOT NULL,
    member    INTEGER NOT NULL,
    linked_at INTEGER,
    UNIQUE (owner, field, member)
);
CREATE INDEX bb_links_order ON bb_links(owner, field, linked_at, id);
CREATE INDEX bb_links_member ON bb_links(member, field);

-- Coordinates of location fields (address-only locations have no row), for near and bounding queries.
CREATE TABLE bb_geo (
    object  INTEGER NOT NULL,
    field   INTEGER NOT NULL,
    lat     REAL NOT NULL,
    lon     REAL NOT NULL,
    geohash TEXT NOT NULL,
    PRIMARY KEY (object, field)
) WITHOUT ROWID;
CREATE INDEX bb_geo_field ON bb_geo(field, lat, lon);

-- Full-text index of t, ta and rt fields for BQL `like`: one row per (object, field). `scope` holds one token
-- naming the field ("f<field id>") so that a search is restricted to one field inside FTS5 itself; `body` is
-- the text (HTML tags stripped for #rt). bb_text maps the FTS rowid to the object and field.
CREATE VIRTUAL TABLE bb_fts USING fts5(scope, body, tokenize = 'unicode61 remove_diacritics 2');
CREATE TABLE bb_text (
    rowid  INTEGER PRIMARY KEY,
    object INTEGER NOT NULL,
    field  INTEGER NOT NULL,
    UNIQUE (object, field)
);

-- Indexes declared by the admin API or the configuration (spec 5.6), per entity field. Each is backed by an
-- expression index bb_ix_<field id> on bb_objects, created and dropped by the store.
CREATE TABLE bb_indexes (
    space      INTEGER NOT NULL REFERENCES bb_spaces(id),
    entity     TEXT NOT NULL,
    name       TEXT NOT NULL,
    field      INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (space, entity, name)
) WITHOUT ROWID;

-- Login data of users (spec 4.7, 5.4): the login email (unique per environment, case-insensitively) and the
-- bcrypt hash of the password. One row per user object that has either.
CREATE TABLE bb_users (
    object         INTEGER PRIMARY KEY,
    space          INTEGER NOT NULL,
    email          TEXT,
    email_folded   TEXT,
    password_hash  TEXT,
    email_verified INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX bb_users_email ON bb_users(space, email_folded) WHERE email_folded IS NOT NULL;

-- Social identities linked to users: provider short name (tw, fb, gp, ln, gh) and the provider's user id;
-- login_data is the JSON object of the user's login_<short>_<key> strings for that provider.
CREATE TABLE bb_identities (
    space       INTEGER NOT NULL,
    provider    TEXT NOT NULL,
    provider_id TEXT NOT NULL,
    object      INTEGER NOT NULL,
    login_data  TEXT NOT NULL DEFAULT '{}',
    linked_at   INTEGER NOT NULL,
    PRIMARY KEY (space, provider, provider_id)
) WITHOUT ROWID;
CREATE INDEX bb_identities_object ON bb_identities(object);

-- Sessions: only the SHA-256 (hex) of the session code is stored.
CREATE TABLE bb_sessions (
    token_hash TEXT PRIMARY KEY,
    space      INTEGER NOT NULL,
    object     INTEGER NOT NULL,
    created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX bb_sessions_object ON bb_sessions(object);

-- Email verification and password reset codes, stored hashed, single use.
CREATE TABLE bb_codes (
    code_hash  TEXT PRIMARY KEY,
    space      INTEGER NOT NULL,
    object     INTEGER NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('verification', 'reset')),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
) WITHOUT ROWID;
CREATE INDEX bb_codes_object ON bb_codes(object);
