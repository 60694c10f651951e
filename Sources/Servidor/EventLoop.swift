import CEvent

#if canImport(Glibc)
    import Glibc
#endif

/// The server's loop: created, run and destroyed on its one thread, never shared, so its
/// state needs no lock. libevent calls back into it through the pointer it was given.
final class EventLoop {
    private let api: marcador_event_api
    private let configuration: HTTPServerConfiguration
    private let state: SharedState
    private let base: OpaquePointer
    private let http: OpaquePointer
    private var timer: OpaquePointer?
    let port: Int
    /// Open event streams, by identity.
    private var streams: [ObjectIdentifier: EventStreamClient] = [:]
    /// The newest event every stream has been sent (or skipped, being ahead of it).
    private var cursor = 0
    private var lastKeepAlive = ContinuousClock.now
    private var feedFailing = false

    init(api: marcador_event_api, configuration: HTTPServerConfiguration, state: SharedState)
        throws
    {
        self.api = api
        self.configuration = configuration
        self.state = state
        guard let base = api.base_new() else { throw HTTPServerError.cannotListen(errno: errno) }
        guard let http = api.http_new(base) else {
            api.base_free(base)
            throw HTTPServerError.cannotListen(errno: errno)
        }
        self.base = base
        self.http = http
        api.set_max_headers_size(http, configuration.maxHeaderBytes)
        api.set_max_body_size(http, configuration.maxBodyBytesHardLimit)
        api.set_timeout(http, configuration.timeoutSeconds)
        // Every method reaches the handler, which answers 405 with `Allow` where one does
        // not belong (libevent's own 501 page is English and has none of our headers).
        api.set_allowed_methods(http, UInt16(0x1FF))
        let socket: Int32
        do {
            socket = try Self.listeningSocket(
                configuration.address, configuration.port, backlog: configuration.listenBacklog)
        } catch {
            api.http_free(http)
            api.base_free(base)
            throw error
        }
        guard let bound = api.accept_socket_with_handle(http, socket) else {
            let codigo = errno
            close(socket)
            api.http_free(http)
            api.base_free(base)
            throw HTTPServerError.cannotListen(errno: codigo)
        }
        port = Self.localPort(api.bound_socket_get_fd(bound)) ?? configuration.port
        cursor = (try? configuration.feed.latest()) ?? 0
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
            close(socket)
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
        api.set_gencb(
            http,
            { request, context in
                guard let request, let context else { return }
                Unmanaged<EventLoop>.fromOpaque(context).takeUnretainedValue().handle(request)
            }, me)
        timer = api.event_new(
            base, -1, Int16(EV_PERSIST),
            { _, _, context in
                guard let context else { return }
                Unmanaged<EventLoop>.fromOpaque(context).takeUnretainedValue().tick()
            }, me)
        var interval = Self.timeval(configuration.tick)
        if let timer { _ = api.event_add(timer, &interval) }
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
        // Streams first: freeing the server closes their connections, and their close
        // callbacks must not reach clients that are gone.
        for stream in streams.values { api.connection_set_closecb(stream.connection, nil, nil) }
        streams.removeAll()
        state.streams.store(0, ordering: .relaxed)
        if let timer { api.event_free(timer) }
        if let waker { api.event_free(waker) }
        api.http_free(http)
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

    // MARK: - Requests

    private func handle(_ raw: OpaquePointer) {
        let request = read(raw)
        let response = configuration.handler(request)
        let headers = api.request_get_output_headers(raw)
        for (name, value) in response.headers { _ = api.add_header(headers, name, value) }
        switch response.kind {
        case .complete(let body):
            guard let buffer = api.buffer_new() else { return }
            // HEAD: the headers GET would send, its length included, and no body.
            if request.method == .head {
                _ = api.add_header(headers, "Content-Length", String(body.count))
            } else {
                body.withUnsafeBytes { _ = api.buffer_add(buffer, $0.baseAddress, $0.count) }
            }
            api.send_reply(
                raw, Int32(response.status), HTTPResponse.reason(response.status), buffer)
            api.buffer_free(buffer)
        case .eventStream(let lastEventID):
            openStream(raw, lastEventID: lastEventID)
        }
    }

    private func read(_ raw: OpaquePointer) -> HTTPRequest {
        let method: HTTPRequest.Method
        switch api.request_get_command(raw) {
        case EVHTTP_REQ_GET: method = .get
        case EVHTTP_REQ_HEAD: method = .head
        case EVHTTP_REQ_POST: method = .post
        case EVHTTP_REQ_PUT: method = .put
        case EVHTTP_REQ_DELETE: method = .delete
        case EVHTTP_REQ_PATCH: method = .patch
        case EVHTTP_REQ_OPTIONS: method = .options
        case EVHTTP_REQ_TRACE: method = .trace
        case EVHTTP_REQ_CONNECT: method = .connect
        default: method = .other
        }
        var path = "/"
        var query: [String: String] = [:]
        if let uri = api.request_get_evhttp_uri(raw) {
            if let texto = api.uri_get_path(uri) { path = String(cString: texto) }
            if let texto = api.uri_get_query(uri) {
                query = HTTPRequest.parseQuery(String(cString: texto))
            }
        }
        var headers: [String: String] = [:]
        var repeated: Set<String> = []
        var item = api.request_get_input_headers(raw)?.pointee.tqh_first
        while let header = item {
            if let key = header.pointee.key, let value = header.pointee.value {
                let name = String(cString: key).lowercased()
                if headers[name] == nil {
                    headers[name] = String(cString: value)
                } else {
                    repeated.insert(name)
                }
            }
            item = header.pointee.next.tqe_next
        }
        var body: [UInt8] = []
        if let input = api.request_get_input_buffer(raw) {
            let length = api.buffer_get_length(input)
            if length > 0 {
                body = [UInt8](repeating: 0, count: length)
                let copied = body.withUnsafeMutableBytes {
                    api.buffer_copyout(input, $0.baseAddress, length)
                }
                body.removeLast(length - max(0, copied))
            }
        }
        var request = HTTPRequest(
            method: method, path: path, query: query, headers: headers, body: body, serverPort: port
        )
        request.repeatedHeaders = repeated
        return request
    }

    // MARK: - Event streams

    private func openStream(_ raw: OpaquePointer, lastEventID: Int?) {
        let headers = api.request_get_output_headers(raw)
        _ = api.add_header(headers, "Content-Type", "text/event-stream; charset=utf-8")
        _ = api.add_header(headers, "Cache-Control", "no-store")
        api.send_reply_start(raw, 200, "OK")
        guard let connection = api.request_get_connection(raw) else { return }
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
        let client = EventStreamClient(request: raw, connection: connection, cursor: start)
        client.loop = self
        streams[ObjectIdentifier(client)] = client
        state.streams.store(streams.count, ordering: .relaxed)
        api.connection_set_closecb(
            connection,
            { _, context in
                guard let context else { return }
                let client = Unmanaged<EventStreamClient>.fromOpaque(context)
                    .takeUnretainedValue()
                client.loop?.closed(client)
            }, Unmanaged.passUnretained(client).toOpaque())
        send(first, to: client)
    }

    private func closed(_ client: EventStreamClient) {
        api.connection_set_closecb(client.connection, nil, nil)
        streams[ObjectIdentifier(client)] = nil
        state.streams.store(streams.count, ordering: .relaxed)
    }

    private func send(_ bytes: [UInt8], to client: EventStreamClient) {
        guard let buffer = api.buffer_new() else { return }
        bytes.withUnsafeBytes { _ = api.buffer_add(buffer, $0.baseAddress, $0.count) }
        api.send_reply_chunk(client.request, buffer)
        api.buffer_free(buffer)
    }

    /// Every tick: stop if asked, stream new events, keep streams alive, end stuck ones.
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
            closed(client)
            api.send_reply_end(client.request)
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
                if !own.isEmpty { send(own, to: client) }
            }
            client.cursor = max(client.cursor, newest)
        }
        cursor = newest
    }

    private func backlog(_ client: EventStreamClient) -> Int {
        guard let events = api.connection_get_bufferevent(client.connection),
            let output = api.bufferevent_get_output(events)
        else { return 0 }
        return api.buffer_get_length(output)
    }
}

/// One open event stream.
final class EventStreamClient {
    let request: OpaquePointer
    let connection: OpaquePointer
    var cursor: Int
    weak var loop: EventLoop?

    init(request: OpaquePointer, connection: OpaquePointer, cursor: Int) {
        self.request = request
        self.connection = connection
        self.cursor = cursor
    }
}
