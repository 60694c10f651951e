/// The key of a connection's prepared statements (SQLite's cache, PostgreSQL's named
/// statements): SQL text, hashed by its length and five of its 8-byte words
/// instead of every byte.
///
/// Every statement goes through the cache, and SipHash over a few hundred bytes of SQL was the
/// largest single cost marcador added to SQLite's own work in a played minute (issue 25).
/// Texts that share the sample only share a bucket: equality still compares them whole (and a
/// text passed again from the same storage, a literal or a kept `String`, compares by identity).
public struct StatementKey: Hashable {
    public let sql: String

    public init(_ sql: String) { self.sql = sql }

    public static func == (a: StatementKey, b: StatementKey) -> Bool { a.sql == b.sql }

    public func hash(into hasher: inout Hasher) {
        let muestra: UInt64? = sql.utf8.withContiguousStorageIfAvailable { bytes in
            var muestra = UInt64(bytes.count)
            guard bytes.count >= 8, let base = UnsafeRawPointer(bytes.baseAddress) else {
                for byte in bytes { muestra = muestra &* 31 &+ UInt64(byte) }
                return muestra
            }
            // Mixed here and handed to the hasher once: each `combine` is a SipHash round.
            let ultimo = bytes.count - 8
            for desde in [0, ultimo / 4, ultimo / 2, ultimo - ultimo / 4, ultimo] {
                let palabra = base.loadUnaligned(fromByteOffset: desde, as: UInt64.self)
                muestra = (muestra ^ palabra) &* 0x9E37_79B9_7F4A_7C15
            }
            return muestra
        }
        if let muestra { hasher.combine(muestra) } else { hasher.combine(sql) }
    }
}
