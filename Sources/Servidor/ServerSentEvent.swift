/// One event of a `text/event-stream` (WHATWG HTML, "Server-sent events").
public struct ServerSentEvent: Sendable, Hashable {
    /// Sent as `id:`; the browser sends the last one back as `Last-Event-ID` when it reconnects.
    public var id: Int
    /// Sent as `event:`: the name `addEventListener` listens for.
    public var name: String
    /// Sent as `data:` lines (one per line of the text).
    public var data: String

    public init(id: Int, name: String, data: String) {
        self.id = id
        self.name = name
        self.data = data
    }

    /// The event on the wire. A CR or LF inside the name or the data cannot end a field early:
    /// the name loses them, and the data is split into one `data:` line per line.
    public var bytes: [UInt8] {
        var texto = "id: \(id)\nevent: "
        texto += name.filter { $0 != "\n" && $0 != "\r" }
        texto += "\n"
        for linea in data.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            texto += "data: " + linea + "\n"
        }
        texto += "\n"
        return Array(texto.utf8)
    }
}
