-- Backbeam file objects (spec 5.3): the content behind each object of entity `file`. The object's metadata
-- (version, filename, mime, size, width, height, title, ...) are ordinary fields of its bb_objects row, so
-- that reads, queries and joins see them like any other field; this table holds what downloads need without
-- parsing them: the blob (a reference counted in quartet_blobs), the version it is, its MIME type and size,
-- and when it was uploaded. Only the current version's content is kept: older version numbers in download
-- URLs serve the current content (5.3.3), so an old blob is released when a new one replaces it.
CREATE TABLE bb_files (
    object      INTEGER PRIMARY KEY,   -- bb_objects.seq of the file object
    space       INTEGER NOT NULL,
    blob        TEXT NOT NULL,         -- SHA-256 hex of the content in the blob store
    version     INTEGER NOT NULL,
    mime        TEXT NOT NULL,
    size        INTEGER NOT NULL,
    uploaded_at INTEGER NOT NULL       -- ms; Last-Modified of downloads
);
