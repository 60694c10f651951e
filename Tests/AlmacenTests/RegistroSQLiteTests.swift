import Testing

@testable import Almacen

@Suite("RegistroSQLite")
struct RegistroSQLiteTests {
    @Test func guardaLasLineasEnOrdenConSuMomentoYPartido() throws {
        let registro = RegistroSQLite(try Almacen.enMemoria(), eco: false)
        registro.anotar("primera", partido: 1)
        registro.anotar("segunda")
        registro.anotar("tercera", partido: 2)
        let todas = try registro.lineas()
        #expect(todas.map(\.linea) == ["primera", "segunda", "tercera"])
        #expect(todas.allSatisfy { $0.momento.hasSuffix("Z") && $0.momento.count == 24 })
        #expect(try registro.lineas(partido: 2).map(\.linea) == ["tercera"])
        #expect(try registro.lineas(limite: 2).map(\.linea) == ["segunda", "tercera"])
    }
}
