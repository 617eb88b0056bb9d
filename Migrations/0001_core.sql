-- Shared tables used by every API. Times are Unix epoch milliseconds.
-- The migration history table (quartet_migrations) is created by the migrator itself.

-- Content-addressed blobs on disk (files under <data>/blobs/ab/cd/<sha256 hex>).
-- refcount counts rows elsewhere that point at the blob; unreferenced_since is set when it drops to 0
-- and is what garbage collection ages.
CREATE TABLE quartet_blobs (
    hash TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    refcount INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    unreferenced_since INTEGER
);
CREATE INDEX quartet_blobs_unreferenced ON quartet_blobs (unreferenced_since) WHERE refcount = 0;

-- Instance-wide settings: generated secrets (stored hashed where the protocol allows), instance id.
CREATE TABLE quartet_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Server admin accounts (password_hash is a bcrypt string).
CREATE TABLE quartet_admin_users (
    name TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
