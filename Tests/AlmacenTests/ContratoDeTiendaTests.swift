import Almacen
import ContratoDeTienda
import Testing

@Suite("Contrato de la tienda · SQLite")
struct ContratoSQLiteTests {
    @Test(arguments: ContratoDeTienda.allCases)
    func contrato(_ caso: ContratoDeTienda) async throws {
        try await caso.comprobar(TiendaSQLite(try Almacen.enMemoria()))
    }
}
