/// A result's column names, for reading a row by name.
///
/// Mappers read a row's columns mostly in the query's order, so a lookup starts where the last
/// one ended: the column wanted is usually that one, and finding it is one comparison of two
/// short strings, where hashing the name into a dictionary cost more than reading the value
/// (issue 25). Not for sharing between threads: it belongs to one statement or one result.
public final class ColumnNames {
    /// In order; `nil` for a name an earlier column already has, so the first one is found.
    private let nombres: [String?]
    private var siguiente = 0

    public init(_ nombres: some Sequence<String?>) {
        var vistos: Set<String> = []
        self.nombres = nombres.map { nombre in
            guard let nombre, vistos.insert(nombre).inserted else { return nil }
            return nombre
        }
    }

    /// The position of the column named `nombre`, `nil` when there is none.
    public func posicion(de nombre: String) -> Int? {
        var i = siguiente < nombres.count ? siguiente : 0
        for _ in nombres.indices {
            if nombres[i] == nombre {
                siguiente = i + 1
                return i
            }
            i = i + 1 == nombres.count ? 0 : i + 1
        }
        return nil
    }
}
