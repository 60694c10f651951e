/// The head of a request as it came off the wire: the request line and the headers
/// (RFC 9112 §2–§6), checked strictly enough that what reaches the handler is unambiguous, and
/// leniently where clients differ (a bare LF ends a line, as the RFC allows a recipient to read).
struct HTTPRequestHead: Equatable {
    var method: HTTPRequest.Method
    var path: String
    var query: [String: String]
    var headers: [String: String]
    var repeatedHeaders: Set<String>
    /// HTTP/1.0 (no chunked answers; the connection closes unless asked to stay).
    var http10: Bool
    var contentLength: Int
    /// Whether the connection stays open after the answer.
    var keepAlive: Bool
    /// `Expect: 100-continue`: the client waits for an interim answer before its body.
    var expectsContinue: Bool

    /// A head the server refuses on its own, with the status to answer.
    struct Refusal: Error, Equatable {
        var status: Int
    }

    /// Reads a head (`bytes` without the blank line that ends it).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Refusal) -> HTTPRequestHead {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for i in 0..<bytes.count where bytes[i] == 0x0A {
            var end = i
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            lines.append(ArraySlice(bytes[start..<end]))
            start = i + 1
        }
        if start < bytes.count {
            var end = bytes.count
            if bytes[end - 1] == 0x0D { end -= 1 }
            lines.append(ArraySlice(bytes[start..<end]))
        }
        // A client may send empty lines before the request line (RFC 9112 §2.2).
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        guard let requestLine = lines.first else { throw Refusal(status: 400) }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
            throw Refusal(status: 400)
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw Refusal(status: version.hasPrefix("HTTP/") ? 505 : 400)
        }
        var head = HTTPRequestHead(
            method: HTTPRequest.Method(rawValue: String(decoding: parts[0], as: UTF8.self))
                ?? .other,
            path: "/", query: [:], headers: [:], repeatedHeaders: [],
            http10: version == "HTTP/1.0", contentLength: 0, keepAlive: true,
            expectsContinue: false)
        try head.readTarget(parts[1])
        var lengths: Set<String> = []
        for line in lines.dropFirst() {
            // Folded lines (obsolete) and lines without a name are refused (RFC 9112 §5.2).
            guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex,
                line[line.startIndex..<colon].allSatisfy(isTokenByte)
            else { throw Refusal(status: 400) }
            var value = line[(colon + 1)...]
            while let first = value.first, first == 0x20 || first == 0x09 {
                value = value.dropFirst()
            }
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                throw Refusal(status: 400)
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            let text = String(decoding: value, as: UTF8.self)
            if name == "content-length" { lengths.insert(text) }
            if head.headers[name] == nil {
                head.headers[name] = text
            } else {
                head.repeatedHeaders.insert(name)
            }
        }
        // A body whose end could be read two ways is refused (request smuggling).
        if head.headers["transfer-encoding"] != nil {
            throw Refusal(status: lengths.isEmpty ? 501 : 400)
        }
        if let length = lengths.first {
            guard lengths.count == 1, !length.isEmpty, length.count <= 15,
                length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let number = Int(length)
            else { throw Refusal(status: 400) }
            head.contentLength = number
        }
        let connection = Set(
            (head.headers["connection"] ?? "").lowercased().split(separator: ",").map {
                $0.trimmingSpaces
            })
        head.keepAlive =
            head.http10 ? connection.contains("keep-alive") : !connection.contains("close")
        head.expectsContinue = head.headers["expect"]?.lowercased() == "100-continue"
        return head
    }

    /// The request target: `/path?query` (origin form), `http://host/path` (absolute form,
    /// as proxies send it) or `*` (OPTIONS). Printable ASCII only: a browser percent-encodes
    /// everything else.
    private mutating func readTarget(_ target: ArraySlice<UInt8>) throws(Refusal) {
        guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw Refusal(status: 400)
        }
        var text = String(decoding: target, as: UTF8.self)
        if text == "*" {
            path = "*"
            return
        }
        for scheme in ["http://", "https://"] where text.lowercased().hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            text = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        }
        guard text.hasPrefix("/") else { throw Refusal(status: 400) }
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        if let mark = text.firstIndex(of: "?") {
            query = HTTPRequest.parseQuery(String(text[text.index(after: mark)...]))
            text = String(text[..<mark])
        }
        path = text
    }

    /// RFC 9110 §5.6.2 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(
            drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }
                .reversed())
    }
}
