import Core
import Storage

extension SQLiteBackbeamStore {
    public func subscribe(space: SpaceID, gateway: PushGateway, token: String, channels: [String], now: Int64) throws {
        try storage.writeAndWait { ctx in
            for channel in channels {
                // Subscribing twice is a no-op (§5.5.2).
                try ctx.db.run("""
                    INSERT OR IGNORE INTO bb_push_subscriptions (space, gateway, token, channel, created_at) VALUES (?, ?, ?, ?, ?)
                    """, [.integer(space.value), .text(gateway.rawValue), .text(token), .text(channel), .integer(now)])
            }
        }
    }

    public func unsubscribe(space: SpaceID, gateway: PushGateway, token: String, channels: [String]?) throws {
        try storage.writeAndWait { ctx in
            let key: [SQLValue] = [.integer(space.value), .text(gateway.rawValue), .text(token)]
            guard let channels else {
                try ctx.db.run("DELETE FROM bb_push_subscriptions WHERE space = ? AND gateway = ? AND token = ?", key)
                return
            }
            for channel in channels {
                try ctx.db.run("DELETE FROM bb_push_subscriptions WHERE space = ? AND gateway = ? AND token = ? AND channel = ?",
                               key + [.text(channel)])
            }
        }
    }

    public func subscribedChannels(space: SpaceID, gateway: PushGateway, token: String) throws -> [String] {
        try storage.read { db in
            try db.query("""
                SELECT channel FROM bb_push_subscriptions WHERE space = ? AND gateway = ? AND token = ? ORDER BY channel
                """, [.integer(space.value), .text(gateway.rawValue), .text(token)]).compactMap { $0[0].string }
        }
    }

    public func repointTokens(space: SpaceID, gateway: PushGateway, old: [String], new: String) throws -> Int {
        try storage.writeAndWait { ctx -> Int in
            var moved = 0
            for token in old where token != new {
                // Channels the new token already has merge (no duplicates), the rest move over.
                try ctx.db.run("""
                    INSERT OR IGNORE INTO bb_push_subscriptions (space, gateway, token, channel, created_at)
                    SELECT space, gateway, ?, channel, created_at FROM bb_push_subscriptions
                    WHERE space = ? AND gateway = ? AND token = ?
                    """, [.text(new), .integer(space.value), .text(gateway.rawValue), .text(token)])
                moved += try ctx.db.run("DELETE FROM bb_push_subscriptions WHERE space = ? AND gateway = ? AND token = ?",
                                        [.integer(space.value), .text(gateway.rawValue), .text(token)])
            }
            return moved
        }
    }

    public func queuePush(space: SpaceID, channel: String, message: PushMessage, now: Int64) throws -> Int {
        try storage.writeAndWait { ctx -> Int in
            var queued = 0
            for gateway in PushGateway.allCases {
                let tokens = try ctx.db.query("""
                    SELECT token FROM bb_push_subscriptions WHERE space = ? AND channel = ? AND gateway = ? ORDER BY token
                    """, [.integer(space.value), .text(channel), .text(gateway.rawValue)]).compactMap { $0[0].string }
                guard !tokens.isEmpty else { continue }
                try ctx.db.run("""
                    INSERT INTO bb_push_outbox (space, channel, gateway, tokens, payload, created_at) VALUES (?, ?, ?, ?, ?, ?)
                    """, [.integer(space.value), .text(channel), .text(gateway.rawValue),
                          .text(JSON.array(tokens.map(JSON.string)).serialized()),
                          .text(message.payload(for: gateway, tokens: tokens)), .integer(now)])
                queued += 1
            }
            return queued
        }
    }

    public func pushOutbox(space: SpaceID?, channel: String?, onlyQueued: Bool, limit: Int) throws -> [PushNotification] {
        try storage.read { db -> [PushNotification] in
            var sql = "SELECT id, channel, gateway, tokens, payload, created_at, state FROM bb_push_outbox WHERE 1 = 1"
            var args: [SQLValue] = []
            if let space {
                sql += " AND space = ?"
                args.append(.integer(space.value))
            }
            if let channel {
                sql += " AND channel = ?"
                args.append(.text(channel))
            }
            if onlyQueued { sql += " AND state = 'queued'" }
            sql += onlyQueued ? " ORDER BY id LIMIT ?" : " ORDER BY id DESC LIMIT ?"
            args.append(.integer(Int64(limit)))
            return try db.query(sql, args).compactMap { row in
                guard let gateway = row[2].string.flatMap(PushGateway.init(rawValue:)) else { return nil }
                let tokens = (try? JSONParser.parse(row[3].string ?? "[]"))?.arrayValue?.compactMap(\.stringValue) ?? []
                return PushNotification(id: row[0].int64 ?? 0, channel: row[1].string ?? "", gateway: gateway, tokens: tokens,
                                        payload: row[4].string ?? "", createdAt: row[5].int64 ?? 0, state: row[6].string ?? "")
            }
        }
    }

    public func setPushState(id: Int64, state: String) throws {
        try storage.writeAndWait { ctx in
            try ctx.db.run("UPDATE bb_push_outbox SET state = ? WHERE id = ?", [.text(state), .integer(id)])
        }
    }
}
