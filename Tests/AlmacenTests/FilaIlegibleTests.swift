import Almacen
import ContratoDeTienda
import Testing

@testable import AlmacenSQL

/// architecture.md: a row another tool wrote with a value marcador never writes is an error that
/// names the table, the row and the value — never a trap in a row mapper.
@Suite("Filas ilegibles")
struct FilaIlegibleTests {
    @Test func unEstadoDesconocidoSeNombra() async throws {
        let queue = try Almacen.enMemoria()
        let tienda = TiendaSQLite(queue)
        let ejecucion = try await ContratoDeTienda.jugarPartidoUno(tienda)
        try queue.write { db in
            try db.execute("PRAGMA ignore_check_constraints = ON")
            try db.execute("UPDATE ejecucion SET estado = 'rara' WHERE id = ?", ejecucion)
        }
        #expect(
            throws: FilaIlegible(
                tabla: "ejecucion", columna: "estado", valor: "rara", fila: ejecucion)
        ) {
            try tienda.ejecuciones.ultima(partido: 1)
        }
        let error = FilaIlegible(tabla: "ejecucion", columna: "estado", valor: "rara", fila: 3)
        #expect(
            error.explicacion
                == "la fila 3 de «ejecucion» tiene en «estado» un valor que marcador no conoce («rara»)"
        )
        // What another tool wrote is shown safely: no escape reaches the terminal.
        let hostil = FilaIlegible(tabla: "evento", columna: "lado", valor: "\u{1B}[2J", fila: nil)
        #expect(!hostil.explicacion.contains("\u{1B}"))
        #expect(hostil.explicacion.hasPrefix("una fila de «evento» tiene en «lado»"))
    }
}
