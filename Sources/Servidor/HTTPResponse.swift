/// What a handler answers: a whole response, or the start of an event stream.
public struct HTTPResponse: Sendable {
    public enum Kind: Sendable {
        case complete(body: [UInt8])
        /// Keep the connection open as a Server-Sent Events stream for a client that last saw
        /// event `lastEventID` (`nil`: a new client, which starts at the newest event); the
        /// server replays what it missed, then streams.
        case eventStream(lastEventID: Int?)
    }

    public var status: Int
    public var headers: [(String, String)]
    public var kind: Kind

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.kind = .complete(body: body)
    }

    public static func eventStream(lastEventID: Int?, headers: [(String, String)] = [])
        -> HTTPResponse
    {
        var response = HTTPResponse(status: 200, headers: headers)
        response.kind = .eventStream(lastEventID: lastEventID)
        return response
    }

    /// The reason phrase of the status line.
    public static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Payload Too Large"
        case 415: "Unsupported Media Type"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 411: "Length Required"
        case 417: "Expectation Failed"
        case 431: "Request Header Fields Too Large"
        case 501: "Not Implemented"
        case 505: "HTTP Version Not Supported"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}
