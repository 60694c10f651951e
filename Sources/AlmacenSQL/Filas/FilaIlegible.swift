import Persistencia
import Torneo

/// A row a store cannot read: a value marcador never writes (a state, a kind, a side) that
/// another tool or a newer marcador left in it. The read fails with a sentence naming the
/// table and the row, never a crash of the process (issue 40).
public struct FilaIlegible: ErrorDeTienda, Sendable, Hashable {
    public var tabla: String
    public var columna: String
    public var valor: String
    /// The row's `id`, when the query read one.
    public var fila: Int?

    public var explicacion: String {
        let cual = fila.map { "la fila \($0) de «\(tabla)»" } ?? "una fila de «\(tabla)»"
        return "\(cual) tiene en «\(columna)» un valor que marcador no conoce "
            + "(«\(TextoSeguro.mostrable(valor))»)"
    }
}

extension FilaSQL {
    /// Text column `columna` read as `T`; a value marcador never writes is a `FilaIlegible`
    /// naming `tabla` and the row (its `id` column, or `clave`, when the query has it).
    func almacenado<T: RawRepresentable>(_ columna: String, tabla: String, clave: String = "id")
        throws(FilaIlegible) -> T where T.RawValue == String
    {
        try almacenado(indice(columna), columna: columna, tabla: tabla, clave: clave)
    }

    /// The same by position (readers that find their columns once).
    func almacenado<T: RawRepresentable>(
        _ i: Int, columna: String, tabla: String, clave: String = "id"
    ) throws(FilaIlegible) -> T where T.RawValue == String {
        let texto = string(i)
        guard let valor = T(rawValue: texto) else {
            throw FilaIlegible(
                tabla: tabla, columna: columna, valor: texto,
                fila: posicion(de: clave).flatMap { isNull($0) ? nil : int($0) })
        }
        return valor
    }
}
