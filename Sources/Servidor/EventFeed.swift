/// Where the server's event streams come from. Called on the server's loop thread only, so an
/// implementation may read its store synchronously (each call is one short query).
public protocol EventFeed: Sendable {
    /// The newest event id now: where streaming starts when the server starts.
    func latest() throws -> Int
    /// Events after `id`, oldest first, at most `limit`.
    func events(after id: Int, limit: Int) throws -> [ServerSentEvent]
    /// What a client that last saw `lastEventID` must get before joining the live stream,
    /// which is at `current`: the events in between, or something telling it to reload when
    /// they are no longer kept.
    func replay(after lastEventID: Int, upTo current: Int) throws -> [ServerSentEvent]
    /// Whether `events(after:limit:)` is worth calling this tick (a store that announces its
    /// changes says when; by default, always).
    func hayNovedades() -> Bool
    /// What a client that last saw an id past `current` (the newest there is) gets: `nil`
    /// lets it wait for that id; an event tells it to reload.
    func ahead(of current: Int) -> ServerSentEvent?
    /// Bytes every new stream starts with (an event without an id), if any.
    func saludo() -> [UInt8]?
}

extension EventFeed {
    public func hayNovedades() -> Bool { true }
    public func ahead(of current: Int) -> ServerSentEvent? { nil }
    public func saludo() -> [UInt8]? { nil }
}
