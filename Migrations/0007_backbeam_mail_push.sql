-- Backbeam API, users and push (spec 5.4, 5.5, 8): the mail outbox and push subscriptions with their
-- notification outbox. Times are Unix epoch milliseconds. Every table is prefixed bb_.

-- Every email the mailer was given, written in the transaction that created its code (spec 8). state is
-- queued until the mailer handled it after commit: logged (the default mailer), sent (SMTP), or failed after
-- the last attempt; a failed attempt leaves it queued until next_attempt_at. sender is the project's
-- email.from (NULL: the mailer's own).
CREATE TABLE bb_mail_outbox (
    id              INTEGER PRIMARY KEY,
    space           INTEGER NOT NULL,
    recipient       TEXT NOT NULL,
    sender          TEXT,
    kind            TEXT NOT NULL CHECK (kind IN ('verification', 'lostpassword')),
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    state           TEXT NOT NULL DEFAULT 'queued',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX bb_mail_outbox_space ON bb_mail_outbox(space, id);
CREATE INDEX bb_mail_outbox_queued ON bb_mail_outbox(state, next_attempt_at) WHERE state = 'queued';

-- Push subscriptions (spec 5.5.2): (gateway, token, channel) triples per environment, not tied to users.
CREATE TABLE bb_push_subscriptions (
    space      INTEGER NOT NULL,
    gateway    TEXT NOT NULL CHECK (gateway IN ('apn', 'gcm')),
    token      TEXT NOT NULL,
    channel    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (space, gateway, token, channel)
) WITHOUT ROWID;
-- /push/send resolves a channel's subscribers.
CREATE INDEX bb_push_subscriptions_channel ON bb_push_subscriptions(space, channel, gateway);

-- One row per notification built by /push/send (spec 5.5.3): the channel, the gateway, the tokens (a JSON
-- array) and the payload (JSON text). state is queued until the sender handled it: logged (the default
-- sender), sent, or failed.
CREATE TABLE bb_push_outbox (
    id         INTEGER PRIMARY KEY,
    space      INTEGER NOT NULL,
    channel    TEXT NOT NULL,
    gateway    TEXT NOT NULL CHECK (gateway IN ('apn', 'gcm')),
    tokens     TEXT NOT NULL,
    payload    TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    state      TEXT NOT NULL DEFAULT 'queued'
);
CREATE INDEX bb_push_outbox_space ON bb_push_outbox(space, id);
