import CEvent

/// One client's connection: a libevent buffered socket and where its conversation stands.
/// Lives on the loop's thread only (the loop keeps it; libevent calls back through it).
final class HTTPConnection {
    enum State {
        /// Waiting for a request's head (the first, or the next on a kept-alive connection).
        case head
        /// The head is read; its body of `head.contentLength` bytes is on its way.
        case body(HTTPRequestHead)
        /// An event stream: the server writes, the client only listens.
        case stream
        /// The last answer is being written; then the connection closes.
        case closing
    }

    let events: OpaquePointer
    var state: State = .head
    /// When the head being waited for (or the body) must have arrived; `nil` for a stream.
    var deadline: ContinuousClock.Instant?
    /// A stream's newest event sent.
    var cursor = 0
    /// A stream's chunks are framed (HTTP/1.1) or written raw and ended by closing (HTTP/1.0).
    var chunked = true
    /// The loop that serves it, while it is open (callbacks after closing find none).
    weak var loop: EventLoop?

    init(events: OpaquePointer, deadline: ContinuousClock.Instant) {
        self.events = events
        self.deadline = deadline
    }

    var isStream: Bool {
        if case .stream = state { return true }
        return false
    }

    var isClosing: Bool {
        if case .closing = state { return true }
        return false
    }
}
