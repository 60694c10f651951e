import Foundation
import Testing

@Suite("Línea de comandos (binario)")
struct LineaDeComandosE2ETests {
    @Test func unComandoDesconocidoEsUnErrorDeUsoQueNombraLosValidos() async throws {
        let resultado = try await Escenario().marcador("fichar")
        #expect(resultado.codigo == 64)
        #expect(resultado.salida == "")
        #expect(resultado.error.hasPrefix("marcador: Comando desconocido «fichar». Comandos: "))
        #expect(resultado.error.contains("partidos"))
        #expect(resultado.error.contains("registro"))
    }

    @Test func unaOpcionDesconocidaEsUnErrorDeUsoQueNombraLasValidas() async throws {
        let resultado = try await Escenario().marcador("partidos", "--colores")
        #expect(resultado.codigo == 64)
        #expect(resultado.error.contains("Opción desconocida «--colores» para «partidos»"))
        #expect(resultado.error.contains("--json"))
        #expect(resultado.error.contains("--competicion"))
    }

    @Test func faltaElValorDeUnaOpcion() async throws {
        let resultado = try await Escenario().marcadorSinDB(["partidos", "--db"])
        #expect(resultado.codigo == 64)
        #expect(resultado.error.contains("Falta el valor de --db"))
    }

    @Test func sobraUnArgumento() async throws {
        let resultado = try await Escenario().marcador("partidos", "extra")
        #expect(resultado.codigo == 64)
        #expect(resultado.error.contains("Sobra el argumento «extra»"))
    }

    @Test func ayudaGeneralYDeCadaComando() async throws {
        let escenario = Escenario()
        let general = try await escenario.marcador("--help")
        #expect(general.codigo == 0)
        #expect(general.salida.contains("Comandos:"))
        #expect(general.salida.contains("  partidos  "))
        for comando in ["partidos", "registro"] {
            let ayuda = try await escenario.marcador(comando, "--help")
            #expect(ayuda.codigo == 0)
            #expect(ayuda.salida.contains("Uso: marcador \(comando)"))
        }
        #expect(!FileManager.default.fileExists(atPath: escenario.db))
    }

    @Test func version() async throws {
        let resultado = try await Escenario().marcador("--version")
        #expect(resultado.codigo == 0)
        #expect(resultado.salida.hasPrefix("marcador "))
    }

    @Test func registroDeUnPartidoQueNoExiste() async throws {
        let resultado = try await Escenario().marcador("registro", "--partido", "99")
        #expect(resultado.codigo == 66)
        #expect(
            resultado.error
                == "marcador: No existe el partido 99. Mira los que hay con «marcador partidos».\n")
    }

    @Test func unNumeroMalEscrito() async throws {
        let resultado = try await Escenario().marcador("registro", "--partido", "uno")
        #expect(resultado.codigo == 64)
        #expect(
            resultado.error.contains("El valor de --partido debe ser un número entero, no «uno»."))
    }
}
