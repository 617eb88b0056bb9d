import Core

/// What a storage wait calls right before it blocks its thread: the HTTP server installs its worker pool's
/// hook here so that a request thread waiting for a commit is replaced by a sleeping worker at once (see
/// `HTTPServer.blockingHook`). Nothing is called until one is set.
final class BlockingHook: Sendable {
    /// The closure lives in a class: a function value kept directly in the generic `Locked` and read
    /// through its `inout` accessor gets wrapped in one more reabstraction thunk on every access.
    private final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    private let hook = Locked<Box?>(nil)

    /// Installs `body` (replacing any earlier one).
    func set(_ body: @escaping @Sendable () -> Void) {
        let box = Box(body)
        hook.withLock { $0 = box }
    }

    /// Calls the installed hook, if any.
    func willBlock() {
        hook.withLock { $0 }?.body()
    }
}
