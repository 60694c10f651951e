import Almacen
import AlmacenPostgreSQL
import ApoyoDePruebas
import Avisos
import ContratoDeTienda
import Foundation
import Persistencia
import Sistema
import Testing
import Torneo

/// architecture.md, leases that know their holder: on PostgreSQL every connection of a process
/// is named after it (`Propietario.nombreDeSesion`), so a holder of another host whose sessions
/// are all gone is observably gone too, and its deliveries go back at once; while one of its
/// sessions is open, its lease stands. On SQLite the store cannot tell: such a holder keeps its
/// lease until it runs out.
@Suite(
    "Sesiones de marcador · PostgreSQL", .serialized,
    .enabled(if: ServidorPostgres.falta == nil, Comment(rawValue: ServidorPostgres.falta ?? "")))
struct SesionesPostgreSQLTests {
    @Test func unTitularDeOtraMaquinaSinSesionSueltaSusEntregas() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        let tienda = TiendaPG(try await fueraDelPool { try AlmacenPG.abrir(url: url) })
        _ = try await ContratoDeTienda.jugarPartidoUno(tienda)
        let ajeno = Propietario(anfitrion: "otra-maquina", pid: 4242, inicio: 7)
        let texto = Arrendatario(etiqueta: "despachador-ajeno", propietario: ajeno).texto
        let reclamadas = try tienda.buzon.reclamar(ContratoDeTienda.reclamo(texto))
        #expect(reclamadas.count == 5)
        let despachador = Despachador(
            buzon: tienda.buzon, canales: [], registro: tienda.registro(eco: false),
            permitido: { true })

        // This process is seen; the other host's holder is not, until it connects.
        let sesiones = try #require(try tienda.buzon.sesionesDeMarcador())
        #expect(sesiones.contains(Propietario.actual.nombreDeSesion))
        #expect(Propietario.huerfano(texto, sesiones: sesiones) == ajeno)
        let nombre = try #require(
            ajeno.nombreDeSesion.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        // Opened here, on the test's thread, for a moment: the server answers within the socket.
        var suya: ConexionPG? = try ConexionPG(
            url: url + (url.contains("?") ? "&" : "?") + "application_name=" + nombre)
        #expect(try tienda.buzon.sesionesDeMarcador()?.contains(ajeno.nombreDeSesion) == true)
        #expect(despachador.relevarHuerfanos() == 0)
        #expect(try tienda.buzon.arrendatarios() == [texto])

        // Its last session closes (the process died with its host): gone, and taken at once.
        #expect(suya != nil)
        suya = nil
        let cerrada = await sondearQue(limite: .seconds(20)) {
            (try? tienda.buzon.sesionesDeMarcador()?.contains(ajeno.nombreDeSesion)) == false
        }
        #expect(cerrada)
        #expect(despachador.relevarHuerfanos() == 5)
        #expect(try tienda.buzon.arrendatarios().isEmpty)
    }

    /// A URL that names the connections itself hides whose they are: nobody is judged by
    /// sessions then.
    @Test func unaURLQueNombraLasConexionesNoJuzgaANadie() async throws {
        let url = try await ServidorPostgres.compartido().baseNueva()
        let propia = url + (url.contains("?") ? "&" : "?") + "application_name=mi-app"
        let tienda = TiendaPG(try await fueraDelPool { try AlmacenPG.abrir(url: propia) })
        #expect(try tienda.buzon.sesionesDeMarcador() == nil)
    }

    /// SQLite cannot say who is connected: a holder of another host keeps its lease.
    @Test func enSQLiteElArriendoDecide() async throws {
        let tienda = TiendaSQLite(try Almacen.enMemoria())
        _ = try await ContratoDeTienda.jugarPartidoUno(tienda)
        let ajeno = Propietario(anfitrion: "otra-maquina", pid: 4242, inicio: 7)
        let texto = Arrendatario(etiqueta: "despachador-ajeno", propietario: ajeno).texto
        _ = try tienda.buzon.reclamar(ContratoDeTienda.reclamo(texto))
        #expect(try tienda.buzon.sesionesDeMarcador() == nil)
        let despachador = Despachador(
            buzon: tienda.buzon, canales: [], registro: tienda.registro(eco: false),
            permitido: { true })
        #expect(despachador.relevarHuerfanos() == 0)
        #expect(try tienda.buzon.arrendatarios() == [texto])
    }
}
