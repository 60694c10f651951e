import CEvent
import Sistema
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How to run the server.
public struct HTTPServerConfiguration: Sendable {
    public var address: String
    /// 0 asks the system for a free port (tests, the bench).
    public var port: Int
    /// Runs on the server's loop thread for every request, one at a time.
    public var handler: @Sendable (HTTPRequest) -> HTTPResponse
    public var feed: any EventFeed
    /// How often the loop looks for new events (and for a stop request).
    public var tick: Duration = .milliseconds(25)
    /// A comment line on every stream this often, so proxies and dead peers show up.
    public var keepAlive: Duration = .seconds(15)
    /// Bodies past this are refused by the handler (so the answer is the handler's own); the
    /// library itself only cuts off bodies past `maxBodyBytesHardLimit`.
    public var maxBodyBytes = 64 * 1024
    public var maxBodyBytesHardLimit = 4 * 1024 * 1024
    /// Connections the system queues before the loop accepts them: a burst of 10,000 pages
    /// opening their streams at once is not refused.
    public var listenBacklog: Int32 = 16_384
    public var maxHeaderBytes = 16 * 1024
    /// Seconds a connection may go without sending a byte (while a request is due) or without
    /// taking one of the bytes written to it.
    public var timeoutSeconds: Int32 = 60
    /// A stream whose unsent bytes pass this is ended: its client is not reading, and will
    /// get what it missed when it reconnects with `Last-Event-ID`.
    public var maxStreamBacklog = 1 << 20
    /// Told when the feed fails (the store is busy or gone); streaming goes on next tick.
    public var onFeedError: @Sendable (any Error) -> Void = { _ in }
    /// The most connections served at once (event streams included); fewer when the
    /// descriptor limit would not leave room for the rest of the process. While full, the
    /// server accepts nothing more: the system queues new clients (`listenBacklog`).
    public var maxConnections = 10_000
    /// A request's head must have arrived this long after its connection opened (or after
    /// its head, for its body): a client that trickles bytes is cut.
    public var headerDeadline: Duration = .seconds(10)
    /// A kept-alive connection must send its next request's head within this.
    public var idleDeadline: Duration = .seconds(30)
    /// After accept(2) fails (no descriptor left), accepting waits this long.
    public var acceptRetry: Duration = .milliseconds(500)
    /// A condition (full, accept failing) is told at most once per this interval.
    public var warningInterval: Duration = .seconds(10)
    /// Told, on the loop's thread, when the server stops accepting for a while, and why.
    public var onWarning: @Sendable (String) -> Void = { _ in }
    /// The answer to a request the server refuses by itself (400 malformed, 413 too large, 431
    /// head too large, 501 a transfer coding, 505 a version): the handler's page, with every
    /// header its other answers carry. The connection closes after it.
    public var rejection: @Sendable (Int) -> HTTPResponse = { status in
        HTTPResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")],
            body: Array((HTTPResponse.reason(status) + "\n").utf8))
    }

    public init(
        address: String, port: Int, feed: any EventFeed,
        handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse
    ) {
        self.address = address
        self.port = port
        self.feed = feed
        self.handler = handler
    }
}

public enum HTTPServerError: Error, Sendable, Equatable {
    /// libevent 2.1 is not installed (Debian: libevent-2.1-7).
    case libraryMissing
    /// The address could not be bound: taken, not local, not valid.
    case cannotListen(errno: Int32)
}

/// An HTTP/1.1 server on libevent (screen.md): one event-loop thread serves every connection,
/// so an idle event stream costs a socket and a few buffers, never a thread.
///
/// The loop (`EventLoop`) reads each request off libevent's buffered sockets, hands it to the
/// handler, writes the answer back, and keeps the event streams: every tick it reads the feed
/// once and writes the new events to every stream.
public final class HTTPServer: Sendable {
    /// The port it listens on (the one the system chose when asked for 0).
    public let port: Int
    private let state: SharedState

    private init(port: Int, state: SharedState) {
        self.port = port
        self.state = state
    }

    /// Starts listening and serving on a thread of its own.
    public static func start(_ configuration: HTTPServerConfiguration) async throws -> HTTPServer {
        guard let api = EventAPI.loaded else { throw HTTPServerError.libraryMissing }
        let state = SharedState()
        let port = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<Int, any Error>) in
            // Handlers encode JSON and read the store on this thread: a normal-sized stack.
            Hilo.lanzar(pila: 8 << 20) {
                let loop: EventLoop
                do {
                    loop = try EventLoop(api: api, configuration: configuration, state: state)
                } catch {
                    state.finish()
                    continuation.resume(throwing: error)
                    return
                }
                continuation.resume(returning: loop.port)
                loop.run()
                state.finish()
            }
        }
        return HTTPServer(port: port, state: state)
    }

    /// Asks the loop to stop; it does at once, closing every connection.
    public func stop() {
        state.stopRequested.store(true, ordering: .releasing)
        state.wake()
    }

    /// Tells the loop the feed has news now (the program itself committed a change): the
    /// streams get it at once instead of at the next tick. Safe from any thread.
    public func wake() { state.wake() }

    /// Returns once the loop has stopped and every connection is closed.
    public func stopped() async {
        await withCheckedContinuation { continuation in
            let now = state.finished.withLock { finished -> Bool in
                if finished.done { return true }
                finished.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Open event streams now.
    public var streamCount: Int { state.streams.load(ordering: .relaxed) }
}

/// What the loop thread and the rest of the program share.
final class SharedState: Sendable {
    let stopRequested = Atomic<Bool>(false)
    let streams = Atomic<Int>(0)
    /// A pipe whose read end the loop watches: one byte wakes it (libevent's own activation
    /// across threads needs its locking, which this build does not set up).
    let wakePipe: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return (-1, -1) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }()
    let wakeRequested = Atomic<Bool>(false)

    func wake() {
        guard wakePipe.write >= 0,
            wakeRequested.compareExchange(
                expected: false, desired: true, ordering: .acquiringAndReleasing
            )
            .exchanged
        else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wakePipe.write, &byte, 1)
    }
    let finished = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func finish() {
        let waiters = finished.withLock { finished in
            finished.done = true
            defer { finished.waiters = [] }
            return finished.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// libevent's functions, loaded once.
enum EventAPI {
    static let loaded: marcador_event_api? = {
        var api = marcador_event_api()
        return marcador_event_cargar(&api) == 0 ? api : nil
    }()
}
