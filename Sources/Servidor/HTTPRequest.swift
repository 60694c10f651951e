/// A request as the handler sees it, copied out of libevent on the loop thread.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case head = "HEAD"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
        case patch = "PATCH"
        case options = "OPTIONS"
        case trace = "TRACE"
        case connect = "CONNECT"
        /// Anything else (libevent parses no other method).
        case other = "OTHER"
    }

    public var method: Method
    /// The path as sent, without the query (`/partidos/1`).
    public var path: String
    /// The query's `name=value` pairs, as sent (not percent-decoded: marcador's are numbers).
    public var query: [String: String]
    /// Header names in lower case; a repeated header keeps its first value.
    public var headers: [String: String]
    /// Names (lower case) of the headers that came more than once.
    public var repeatedHeaders: Set<String> = []
    public var body: [UInt8]
    /// The port the server listens on (what a `Host` header naming it must carry).
    public var serverPort: Int

    public init(
        method: Method, path: String, query: [String: String] = [:],
        headers: [String: String] = [:], body: [UInt8] = [], serverPort: Int = 0
    ) {
        self.serverPort = serverPort
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `a=1&b=2` as a dictionary (the first of repeated names wins).
    static func parseQuery(_ query: String) -> [String: String] {
        var pairs: [String: String] = [:]
        for part in query.split(separator: "&") {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(halves[0])
            if pairs[name] == nil { pairs[name] = halves.count > 1 ? String(halves[1]) : "" }
        }
        return pairs
    }
}
