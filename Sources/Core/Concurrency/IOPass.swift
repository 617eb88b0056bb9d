import Glibc

/// Resources an event-loop thread keeps from one request to the next within one pass of its loop (the
/// requests of one wake-up), and gives back before it waits for events again.
///
/// Why: under load one wake-up of an I/O thread answers dozens of requests (64 connections gave one
/// `epoll_wait` per 64 point reads), and a resource that costs system calls to take and to give back (a
/// read transaction's WAL lock, in `Storage`) is then taken a fixed number of times per pass instead of
/// once per request, while nothing is held while the thread sleeps. The HTTP server's loop calls
/// `enterPasses` once on its thread and `end` after every pass; on any other thread `isActive` is false and
/// callers do per call what they would have done anyway.
///
/// Everything here is per thread (a POSIX thread-specific slot), so no lock is involved; a value kept by
/// one thread is never seen by another.
public enum IOPass {
    private final class Slot {
        var entries: [(owner: ObjectIdentifier, value: any PassResource)] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // No destructor: `leavePasses` releases the slot; a loop thread always calls it before it exits.
        pthread_key_create(&key, nil)
        return key
    }()

    private static var slot: Slot? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Slot>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Makes the calling thread one that runs passes. Called once by an event loop's thread before its first
    /// pass; a second call keeps the existing slot.
    public static func enterPasses() {
        guard pthread_getspecific(key) == nil else { return }
        pthread_setspecific(key, Unmanaged.passRetained(Slot()).toOpaque())
    }

    /// Ends the current pass and stops running passes on the calling thread (after the loop's last pass).
    public static func leavePasses() {
        end()
        guard let pointer = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        Unmanaged<Slot>.fromOpaque(pointer).release()
    }

    /// Whether the calling thread runs passes (an event loop's thread between `enterPasses` and
    /// `leavePasses`).
    public static var isActive: Bool { pthread_getspecific(key) != nil }

    /// The value `owner` kept for the current pass on the calling thread, if any.
    public static func value(for owner: AnyObject) -> (any PassResource)? {
        guard let slot else { return nil }
        let id = ObjectIdentifier(owner)
        for entry in slot.entries where entry.owner == id { return entry.value }
        return nil
    }

    /// Keeps `value` for `owner` until the current pass ends, when its `endPass` runs (once). Returns false,
    /// keeping nothing, when the calling thread runs no passes or `owner` keeps a value already: the caller
    /// then gives back what it holds itself.
    public static func keep(_ value: any PassResource, for owner: AnyObject) -> Bool {
        guard let slot else { return false }
        let id = ObjectIdentifier(owner)
        if slot.entries.contains(where: { $0.owner == id }) { return false }
        slot.entries.append((id, value))
        return true
    }

    /// Forgets `owner`'s value without running its `endPass` (the owner gave it back itself).
    public static func forget(_ owner: AnyObject) {
        guard let slot else { return }
        let id = ObjectIdentifier(owner)
        slot.entries.removeAll { $0.owner == id }
    }

    /// Ends the calling thread's current pass: every kept value's `endPass` runs, in the order they were
    /// kept, and is forgotten. Cheap when nothing was kept.
    public static func end() {
        guard let slot, !slot.entries.isEmpty else { return }
        let entries = slot.entries
        slot.entries.removeAll(keepingCapacity: true)
        for entry in entries { entry.value.endPass() }
    }
}

/// Something kept for the rest of an event loop's pass (`IOPass.keep`), given back when the pass ends.
public protocol PassResource: AnyObject {
    /// Gives the resource back; called once, on the thread that kept it, when its pass ends.
    func endPass()
}
