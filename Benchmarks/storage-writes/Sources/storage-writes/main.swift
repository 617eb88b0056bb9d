// storage-writes WRITERS SECONDS BATCH DIR
//
// WRITERS threads each submit one insert job at a time and wait for it to be durable (as a request handler
// does), for SECONDS. BATCH is the writer's maxBatchSize: 1 means one transaction (one fsync) per job,
// anything larger lets group commit fold waiting jobs into one transaction. Prints "jobs/s N".
import Foundation
import Logging
import Storage

let args = CommandLine.arguments
guard args.count == 5, let writers = Int(args[1]), let seconds = Double(args[2]), let batch = Int(args[3]) else {
    FileHandle.standardError.write(Data("usage: storage-writes WRITERS SECONDS BATCH DIR\n".utf8))
    exit(2)
}
let dir = args[4]
try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
var options = StorageOptions(path: dir + "/bench.sqlite3")
options.synchronous = "FULL"
options.maxBatchSize = batch
let storage = try Storage(options: options, logger: Logger(label: "bench"))
try storage.writeAndWait { ctx in
    try ctx.db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
}

final class Counter: @unchecked Sendable {
    let lock = NSLock()
    var value = 0
    func add() { lock.lock(); value += 1; lock.unlock() }
}
let counter = Counter()
let deadline = Date().addingTimeInterval(seconds)
let group = DispatchGroup()
for w in 0..<writers {
    let thread = Thread {
        let body = String(repeating: "x", count: 200)
        while Date() < deadline {
            do {
                try storage.writeAndWait { ctx in
                    try ctx.db.run("INSERT INTO t(body) VALUES(?)", [.text("\(w) \(body)")])
                }
                counter.add()
            } catch {
                FileHandle.standardError.write(Data("write failed: \(error)\n".utf8))
            }
        }
        group.leave()
    }
    group.enter()
    thread.start()
}
group.wait()
storage.close()
print("jobs/s \(Int(Double(counter.value) / seconds))")
