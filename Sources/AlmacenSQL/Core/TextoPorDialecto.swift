/// A statement whose text depends on the store, written once for each dialect.
///
/// Interpolated at every call, the minute's UPDATE cost an allocation, a copy and, in the
/// statement cache, a comparison byte by byte every minute (issue 25). Kept in a global, the
/// same storage comes back each time and the cache knows it at once.
public struct TextoPorDialecto: Sendable {
    private let sqlite: String
    private let postgresql: String

    public init(_ texto: (Dialecto) -> String) {
        sqlite = texto(.sqlite)
        postgresql = texto(.postgresql)
    }

    public subscript(_ dialecto: Dialecto) -> String {
        switch dialecto {
        case .sqlite: sqlite
        case .postgresql: postgresql
        }
    }
}
