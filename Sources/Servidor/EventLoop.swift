import CEvent

#if canImport(Glibc)
    import Glibc
#endif

/// The server's loop: created, run and destroyed on its one thread, never shared, so its
/// state needs no lock. libevent calls back into it through the pointer it was given.
///
/// It accepts connections itself and speaks HTTP/1.1 over libevent's buffered sockets
/// (`HTTPRequestHead` reads each head), so it bounds what the network may cost it (issue 41):
/// at most `maxConnections` at once, below the descriptor limit (accepting pauses while full);
/// a request's head must arrive within `headerDeadline` of the connection and the next one on
/// a kept-alive connection within `idleDeadline` (a client sending a byte a second is cut); a
/// refused accept (no descriptors left) pauses accepting instead of spinning; each condition
/// is logged once per `warningInterval`; and every answer the server gives on its own (400,
/// 413, 431…) is the handler's `rejection`, with its headers.
final class EventLoop {
    private let api: marcador_event_api
    private let configuration: HTTPServerConfiguration
    private let state: SharedState
    private let base: OpaquePointer
    private let socket: Int32
    private var listener: OpaquePointer?
    private var timer: OpaquePointer?
    private var resume: OpaquePointer?
    let port: Int
    /// Every open connection, by identity; the event streams among them.
    private var connections: [ObjectIdentifier: HTTPConnection] = [:]
    private var streams: [ObjectIdentifier: HTTPConnection] = [:]
    /// The newest event every stream has been sent (or skipped, being ahead of it).
    private var cursor = 0
    private var lastKeepAlive = ContinuousClock.now
    private var lastSweep = ContinuousClock.now
    private var feedFailing = false
    /// The most connections served at once: the configured bound, below the descriptor limit
    /// as it is now (an operator may lower it on a running server with `prlimit`).
    private var maxConnections: Int { Self.connectionBound(configuration.maxConnections) }
    /// Why accepting is paused, if it is.
    private var paused: Pause?
    private var warned: [Pause: (at: ContinuousClock.Instant, skipped: Int)] = [:]

    private enum Pause: Hashable {
        case full
        case acceptFailed
    }

    init(api: marcador_event_api, configuration: HTTPServerConfiguration, state: SharedState)
        throws
    {
        self.api = api
        self.configuration = configuration
        self.state = state
        guard let base = api.base_new() else { throw HTTPServerError.cannotListen(errno: errno) }
        let socket: Int32
        do {
            socket = try Self.listeningSocket(
                configuration.address, configuration.port, backlog: configuration.listenBacklog)
        } catch {
            api.base_free(base)
            throw error
        }
        self.base = base
        self.socket = socket
        port = Self.localPort(socket) ?? configuration.port
        cursor = (try? configuration.feed.latest()) ?? 0
    }

    /// `configured`, or fewer: the descriptor limit less what the rest of the process needs
    /// (the store, the dispatcher's sockets and files, a margin), so the server stops taking
    /// connections before the process runs out of descriptors.
    static func connectionBound(_ configured: Int) -> Int {
        guard let (limit, reserve) = descriptorLimit() else { return configured }
        return max(1, min(configured, limit - reserve))
    }

    /// The soft descriptor limit as it is now and the part of it kept for the rest of the
    /// process (an eighth, at least 48); nil when there is no limit.
    static func descriptorLimit() -> (limit: Int, reserve: Int)? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0,
            limit.rlim_cur != rlim_t.max
        else { return nil }
        let descriptors = Int(limit.rlim_cur)
        return (descriptors, max(48, descriptors / 8))
    }

    /// Whether a just-accepted `descriptor` leaves the process within its reserve. The system
    /// hands out the lowest free number, so every number below it is open: a process holding
    /// other descriptors (inherited, the store's) reaches its reserve before `connectionBound`
    /// connections, and counting connections alone would let it run out.
    static func withinReserve(_ descriptor: Int32) -> Bool {
        guard let (limit, reserve) = descriptorLimit() else { return false }
        return Int(descriptor) >= limit - reserve
    }

    /// A non-blocking listening socket on `address` (IPv4 or IPv6) with a deep backlog
    /// (evhttp's own binding listens with 128, and bursts of connects were refused).
    private static func listeningSocket(_ address: String, _ port: Int, backlog: Int32) throws
        -> Int32
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var lista: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(address, String(port), &hints, &lista) == 0, let primera = lista else {
            throw HTTPServerError.cannotListen(errno: EADDRNOTAVAIL)
        }
        defer { freeaddrinfo(lista) }
        let socket = Glibc.socket(
            primera.pointee.ai_family,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw HTTPServerError.cannotListen(errno: errno) }
        var uno: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &uno, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket, primera.pointee.ai_addr, primera.pointee.ai_addrlen) == 0,
            listen(socket, backlog) == 0
        else {
            let codigo = errno
            Glibc.close(socket)
            throw HTTPServerError.cannotListen(errno: codigo)
        }
        return socket
    }

    private static func localPort(_ descriptor: Int32) -> Int? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else { return nil }
        switch Int32(address.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
        default: return nil
        }
    }

    /// Serves until a stop is requested, then closes everything.
    func run() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        listener = api.listener_new(
            base,
            { _, descriptor, _, _, context in
                guard let context else { return }
                Unmanaged<EventLoop>.fromOpaque(context).takeUnretainedValue().accepted(descriptor)
            }, me, UInt32(LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC), 0, socket)
        if let listener {
            api.listener_set_error_cb(listener) { _, context in
                guard let context else { return }
                Unmanaged<EventLoop>.fromOpaque(context).takeUnretainedValue().acceptFailed()
            }
        } else {
            Glibc.close(socket)
        }
        timer = api.event_new(
            base, -1, Int16(EV_PERSIST),
            { _, _, context in
                guard let context else { return }
                Unmanaged<EventLoop>.fromOpaque(context).takeUnretainedValue().tick()
            }, me)
        var interval = Self.timeval(configuration.tick)
        if let timer { _ = api.event_add(timer, &interval) }
        resume = api.event_new(
            base, -1, 0,
            { _, _, context in
                guard let context else { return }
                Unmanaged<EventLoop>.fromOpaque(context).takeUnretainedValue().resumeAccepting()
            }, me)
        let waker: OpaquePointer? =
            state.wakePipe.read >= 0
            ? api.event_new(
                base, state.wakePipe.read, Int16(EV_READ | EV_PERSIST),
                { descriptor, _, context in
                    guard let context else { return }
                    var bytes = [UInt8](repeating: 0, count: 64)
                    while Glibc.read(descriptor, &bytes, bytes.count) > 0 {}
                    Unmanaged<EventLoop>.fromOpaque(context).takeUnretainedValue().woken()
                }, me) : nil
        if let waker { _ = api.event_add(waker, nil) }
        _ = api.base_dispatch(base)
        for connection in Array(connections.values) { close(connection) }
        state.streams.store(0, ordering: .relaxed)
        if let listener { api.listener_free(listener) }
        if let timer { api.event_free(timer) }
        if let resume { api.event_free(resume) }
        if let waker { api.event_free(waker) }
        api.base_free(base)
    }

    private static func timeval(_ duration: Duration) -> timeval {
        let (seconds, attoseconds) = duration.components
        return Glibc.timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
    }

    /// Woken from another thread: stop, or stream what the feed has now.
    private func woken() {
        state.wakeRequested.store(false, ordering: .releasing)
        tick()
    }

    // MARK: - Accepting

    private func accepted(_ descriptor: Int32) {
        var uno: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &uno, 4)
        guard let events = api.socket_new(base, descriptor, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue))
        else {
            Glibc.close(descriptor)
            return
        }
        let connection = HTTPConnection(
            events: events, deadline: .now + configuration.headerDeadline)
        connections[ObjectIdentifier(connection)] = connection
        api.setcb(
            events,
            { _, context in
                guard let context else { return }
                let connection = Unmanaged<HTTPConnection>.fromOpaque(context)
                    .takeUnretainedValue()
                connection.loop?.readable(connection)
            },
            { _, context in
                guard let context else { return }
                let connection = Unmanaged<HTTPConnection>.fromOpaque(context)
                    .takeUnretainedValue()
                connection.loop?.written(connection)
            },
            { _, what, context in
                guard let context else { return }
                let connection = Unmanaged<HTTPConnection>.fromOpaque(context)
                    .takeUnretainedValue()
                connection.loop?.event(connection, what)
            }, Unmanaged.passUnretained(connection).toOpaque())
        connection.loop = self
        setTimeouts(connection, read: true)
        _ = api.enable(events, Int16(EV_READ | EV_WRITE))
        if connections.count >= maxConnections || Self.withinReserve(descriptor) {
            pause(.full)
        }
    }

    /// accept(2) failed for a reason other than "nothing to accept" (EMFILE, ENFILE, ENOBUFS):
    /// accepting pauses a moment instead of being retried at once for ever.
    private func acceptFailed() {
        let reason = errno
        pause(.acceptFailed)
        warn(
            .acceptFailed,
            "no se pueden aceptar conexiones (\(String(cString: strerror(reason)))), con "
                + "\(connections.count) abiertas: se vuelve a intentar en "
                + "\(Self.milliseconds(configuration.acceptRetry)) ms")
        var delay = Self.timeval(configuration.acceptRetry)
        if let resume { _ = api.event_add(resume, &delay) }
    }

    private func pause(_ reason: Pause) {
        if paused == nil, let listener { _ = api.listener_disable(listener) }
        if reason == .full || paused == nil { paused = reason }
        if reason == .full {
            let bound = maxConnections
            let why =
                connections.count >= bound
                ? "el máximo (\(bound))"
                : "y el proceso en su reserva de descriptores "
                    + "(límite \(Self.descriptorLimit()?.limit ?? 0))"
            warn(
                .full,
                "\(connections.count) conexiones abiertas, \(why): "
                    + "no se aceptan más hasta que se cierre alguna")
        }
    }

    /// After a refused accept's pause, or once a connection closed while full.
    private func resumeAccepting() {
        guard paused != nil, connections.count < maxConnections, let listener else { return }
        paused = nil
        _ = api.listener_enable(listener)
    }

    /// One line per condition and `warningInterval`, saying how many were left unsaid.
    private func warn(_ condition: Pause, _ text: String) {
        let now = ContinuousClock.now
        if let last = warned[condition], now - last.at < configuration.warningInterval {
            warned[condition] = (last.at, last.skipped + 1)
            return
        }
        let skipped = warned[condition]?.skipped ?? 0
        warned[condition] = (now, 0)
        configuration.onWarning(text + (skipped > 0 ? " (y \(skipped) veces más)" : ""))
    }

    // MARK: - A connection's conversation

    private func setTimeouts(_ connection: HTTPConnection, read: Bool) {
        var timeout = Glibc.timeval(tv_sec: Int(configuration.timeoutSeconds), tv_usec: 0)
        withUnsafePointer(to: &timeout) { pointer in
            _ = api.set_timeouts(connection.events, read ? pointer : nil, pointer)
        }
    }

    /// Reads what arrived: heads, bodies, and the requests they make, in order (a client may
    /// send the next request before the answer to the last: pipelining).
    private func readable(_ connection: HTTPConnection) {
        guard let input = api.get_input(connection.events) else { return }
        while true {
            let available = api.buffer_get_length(input)
            switch connection.state {
            case .stream, .closing:
                _ = api.buffer_drain(input, available)
                return
            case .head:
                guard available > 0 else { return }
                let scanned = min(available, configuration.maxHeaderBytes + 4)
                guard let bytes = api.buffer_pullup(input, scanned) else { return }
                let buffer = UnsafeBufferPointer(start: bytes, count: scanned)
                guard let (length, terminator) = Self.endOfHead(buffer) else {
                    if available > configuration.maxHeaderBytes { refuse(connection, 431) }
                    return
                }
                let head: HTTPRequestHead
                do {
                    head = try HTTPRequestHead.parse(
                        UnsafeBufferPointer(rebasing: buffer[..<length]))
                } catch {
                    refuse(connection, error.status)
                    return
                }
                _ = api.buffer_drain(input, length + terminator)
                guard head.contentLength <= configuration.maxBodyBytesHardLimit else {
                    refuse(connection, 413)
                    return
                }
                if head.contentLength > 0 {
                    connection.state = .body(head)
                    connection.deadline = .now + configuration.headerDeadline
                    if head.expectsContinue && !head.http10 {
                        write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: connection)
                    }
                    continue
                }
                serve(connection, head, body: [])
            case .body(let head):
                guard available >= head.contentLength else { return }
                var body = [UInt8](repeating: 0, count: head.contentLength)
                if head.contentLength > 0, let bytes = api.buffer_pullup(input, head.contentLength)
                {
                    body.withUnsafeMutableBytes {
                        $0.copyMemory(
                            from: UnsafeRawBufferPointer(start: bytes, count: head.contentLength))
                    }
                }
                _ = api.buffer_drain(input, head.contentLength)
                connection.state = .head
                serve(connection, head, body: body)
            }
        }
    }

    /// Where the head ends in `bytes`: its length and the blank line's (CRLF CRLF, or LF LF).
    static func endOfHead(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int)? {
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x0A {
                if bytes[i + 1] == 0x0A { return (i, 2) }
                if bytes[i + 1] == 0x0D && i + 2 < bytes.count && bytes[i + 2] == 0x0A {
                    // `\n\r\n`: the head's last line ended at i (its CR, if any, before it).
                    return (i, 3)
                }
            }
            i += 1
        }
        return nil
    }

    private func serve(_ connection: HTTPConnection, _ head: HTTPRequestHead, body: [UInt8]) {
        var request = HTTPRequest(
            method: head.method, path: head.path, query: head.query, headers: head.headers,
            body: body, serverPort: port)
        request.repeatedHeaders = head.repeatedHeaders
        let response = configuration.handler(request)
        switch response.kind {
        case .complete(let body):
            answer(
                connection, response, body: head.method == .head ? nil : body,
                length: body.count, keepAlive: head.keepAlive, http10: head.http10)
        case .eventStream(let lastEventID):
            openStream(connection, response, head, lastEventID: lastEventID)
        }
    }

    /// An answer the server gives on its own, built by the handler's `rejection` (its pages and
    /// headers); the connection closes after it.
    private func refuse(_ connection: HTTPConnection, _ status: Int) {
        let response = configuration.rejection(status)
        var body: [UInt8] = []
        if case .complete(let bytes) = response.kind { body = bytes }
        answer(
            connection, response, body: body, length: body.count, keepAlive: false, http10: false)
    }

    private func answer(
        _ connection: HTTPConnection, _ response: HTTPResponse, body: [UInt8]?, length: Int,
        keepAlive: Bool, http10: Bool
    ) {
        var text = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        if response.status >= 200 && response.status != 204 && response.status != 304 {
            text += "Content-Length: \(length)\r\n"
        }
        if !keepAlive {
            text += "Connection: close\r\n"
        } else if http10 {
            text += "Connection: keep-alive\r\n"
        }
        text += "\r\n"
        var bytes = Array(text.utf8)
        if let body { bytes += body }
        write(bytes, to: connection)
        if keepAlive {
            connection.deadline = .now + configuration.idleDeadline
        } else {
            closeAfterWriting(connection)
        }
    }

    private func write(_ bytes: [UInt8], to connection: HTTPConnection) {
        bytes.withUnsafeBytes { _ = api.write(connection.events, $0.baseAddress, $0.count) }
    }

    /// Stops reading; the connection closes once its answer is written.
    private func closeAfterWriting(_ connection: HTTPConnection) {
        connection.state = .closing
        connection.deadline = nil
        _ = api.disable(connection.events, Int16(EV_READ))
        if let output = api.get_output(connection.events), api.buffer_get_length(output) == 0 {
            close(connection)
        }
    }

    private func written(_ connection: HTTPConnection) {
        if connection.isClosing { close(connection) }
    }

    /// End of file, an error or a timeout: an answer still being written goes out first.
    private func event(_ connection: HTTPConnection, _ what: Int16) {
        let pending = api.get_output(connection.events).map { api.buffer_get_length($0) } ?? 0
        if what & Int16(BEV_EVENT_EOF) != 0, pending > 0, !connection.isStream {
            closeAfterWriting(connection)
            return
        }
        close(connection)
    }

    private func close(_ connection: HTTPConnection) {
        let id = ObjectIdentifier(connection)
        guard connections.removeValue(forKey: id) != nil else { return }
        if streams.removeValue(forKey: id) != nil {
            state.streams.store(streams.count, ordering: .relaxed)
        }
        connection.loop = nil
        api.setcb(connection.events, nil, nil, nil, nil)
        api.bufferevent_free(connection.events)
        // A descriptor is free again: accepting resumes now, not at the end of its pause (a
        // failed accept pauses again; the closes pace it, so it never spins).
        if paused != nil { resumeAccepting() }
    }

    // MARK: - Event streams

    private func openStream(
        _ connection: HTTPConnection, _ response: HTTPResponse, _ head: HTTPRequestHead,
        lastEventID: Int?
    ) {
        var text = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
        var names: Set<String> = []
        for (name, value) in response.headers {
            names.insert(name.lowercased())
            text += "\(name): \(value)\r\n"
        }
        if !names.contains("cache-control") { text += "Cache-Control: no-store\r\n" }
        connection.chunked = !head.http10
        text += connection.chunked ? "Transfer-Encoding: chunked\r\n" : "Connection: close\r\n"
        write(Array((text + "\r\n").utf8), to: connection)
        connection.state = .stream
        connection.deadline = nil
        // A stream's client sends nothing more: only a write that cannot go out times it out.
        setTimeouts(connection, read: false)
        var first = Array("retry: 1000\n\n".utf8) + (configuration.feed.saludo() ?? [])
        var start = cursor
        if let lastEventID, lastEventID > cursor, let ahead = configuration.feed.ahead(of: cursor) {
            // A page from another server or store (a restart on another database): it cannot
            // resume here, so it is told to reload, and streams from now.
            first += ahead.bytes
        } else if let lastEventID {
            if lastEventID < cursor {
                do {
                    for event in try configuration.feed.replay(after: lastEventID, upTo: cursor) {
                        first += event.bytes
                    }
                } catch {
                    configuration.onFeedError(error)
                }
            }
            start = max(cursor, lastEventID)
        }
        connection.cursor = start
        streams[ObjectIdentifier(connection)] = connection
        state.streams.store(streams.count, ordering: .relaxed)
        send(first, to: connection)
    }

    private func send(_ bytes: [UInt8], to connection: HTTPConnection) {
        guard !bytes.isEmpty else { return }
        if connection.chunked {
            write(
                Array("\(String(bytes.count, radix: 16))\r\n".utf8) + bytes + [0x0D, 0x0A],
                to: connection)
        } else {
            write(bytes, to: connection)
        }
    }

    /// Every tick: stop if asked, stream new events, keep streams alive, end stuck streams and
    /// connections past their deadline.
    private func tick() {
        if state.stopRequested.load(ordering: .acquiring) {
            _ = api.base_loopbreak(base)
            return
        }
        streamNewEvents()
        let now = ContinuousClock.now
        if now - lastKeepAlive >= configuration.keepAlive {
            lastKeepAlive = now
            let comment = Array(": sigo aquí\n\n".utf8)
            for client in streams.values { send(comment, to: client) }
        }
        for client in Array(streams.values) where backlog(client) > configuration.maxStreamBacklog {
            close(client)
        }
        if now - lastSweep >= .milliseconds(250) {
            lastSweep = now
            for connection in Array(connections.values) {
                if let deadline = connection.deadline, deadline < now { close(connection) }
            }
        }
    }

    private func streamNewEvents() {
        guard configuration.feed.hayNovedades() else { return }
        let events: [ServerSentEvent]
        do {
            if streams.isEmpty {
                // Nobody listens: the cursor moves on and no event is built (a stream that
                // opens later replays what it missed from the store). A server with no page
                // open spent most of its time writing JSON for nobody.
                cursor = try configuration.feed.latest()
                feedFailing = false
                return
            }
            events = try configuration.feed.events(after: cursor, limit: 1_000)
            feedFailing = false
        } catch {
            if !feedFailing { configuration.onFeedError(error) }
            feedFailing = true
            return
        }
        guard let newest = events.last?.id else { return }
        var common: [UInt8] = []
        for event in events { common += event.bytes }
        for client in streams.values {
            if client.cursor <= cursor {
                send(common, to: client)
            } else {
                // Ahead of the stream (it reconnected with an id this server had not reached).
                var own: [UInt8] = []
                for event in events where event.id > client.cursor { own += event.bytes }
                send(own, to: client)
            }
            client.cursor = max(client.cursor, newest)
        }
        cursor = newest
    }

    private func backlog(_ client: HTTPConnection) -> Int {
        guard let output = api.get_output(client.events) else { return 0 }
        return api.buffer_get_length(output)
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1_000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
