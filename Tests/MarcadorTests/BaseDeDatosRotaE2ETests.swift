import Foundation
import Testing

/// `--db` pointing at things that are not a usable database: exit 74, a clear message, no
/// crash trace, and the file exactly as it was.
@Suite("Bases de datos inservibles (binario)")
struct BaseDeDatosRotaE2ETests {
    @Test func unaCarpeta() async throws {
        let escenario = Escenario()
        let resultado = try await escenario.marcadorSinDB(["--db", escenario.carpeta, "partidos"])
        #expect(resultado.codigo == 74)
        #expect(
            resultado.error
                == "marcador: Base de datos «\(escenario.carpeta)»: no se puede abrir: es una carpeta, no un fichero.\n"
        )
        #expect(resultado.sinTrazaDeFallo)
    }

    @Test func unFicheroDeBytesAleatorios() async throws {
        let escenario = Escenario()
        var generador = SystemRandomNumberGenerator()
        let ruido = Data((0..<16384).map { _ in UInt8.random(in: 0...255, using: &generador) })
        _ = FileManager.default.createFile(atPath: escenario.db, contents: ruido)
        for comando in [["partidos"], ["registro"], ["partidos", "--json"]] {
            let resultado = try await escenario.marcadorSinDB(["--db", escenario.db] + comando)
            #expect(resultado.codigo == 74)
            #expect(resultado.error.contains("no es una base de datos de marcador"))
            #expect(resultado.sinTrazaDeFallo)
        }
        #expect(escenario.bytes(escenario.db) == ruido)
        #expect(!FileManager.default.fileExists(atPath: escenario.db + "-wal"))
    }

    @Test func unaCarpetaQueNoExiste() async throws {
        let escenario = Escenario()
        let resultado = try await escenario.marcadorSinDB([
            "--db", escenario.carpeta + "/no/hay/x.db", "partidos",
        ])
        #expect(resultado.codigo == 74)
        #expect(resultado.error.contains("no existe"))
    }

    /// A real read-only file system (tmpfs remounted read-only). Needs root to mount; without it
    /// the test says it could not run instead of passing.
    @Test(
        .enabled(
            if: SoloLectura.sePuedeMontar, "hace falta root para montar un tmpfs de solo lectura"))
    func unSistemaDeFicherosDeSoloLectura() async throws {
        let montaje = try SoloLectura()
        defer { montaje.desmontar() }
        let escenario = Escenario()
        let ruta = montaje.ruta + "/marcador.sqlite3"
        #expect(try await escenario.marcadorSinDB(["--db", ruta, "partidos"]).codigo == 0)
        try montaje.soloLectura()
        let antes = escenario.bytes(ruta)
        for comando in [["partidos"], ["registro"]] {
            let resultado = try await escenario.marcadorSinDB(["--db", ruta] + comando)
            #expect(resultado.codigo == 74)
            #expect(resultado.error.contains("solo lectura"))
            #expect(resultado.sinTrazaDeFallo)
        }
        let nueva = try await escenario.marcadorSinDB([
            "--db", montaje.ruta + "/nueva.sqlite3", "partidos",
        ])
        #expect(nueva.codigo == 74)
        #expect(escenario.bytes(ruta) == antes)
    }
}

/// A small tmpfs mounted for one test, which can be remounted read-only.
struct SoloLectura {
    let ruta: String

    static let sePuedeMontar: Bool = {
        guard getuid() == 0 else { return false }
        guard let prueba = try? SoloLectura() else { return false }
        prueba.desmontar()
        return true
    }()

    init() throws {
        ruta = NSTemporaryDirectory() + "marcador-ro-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: ruta, withIntermediateDirectories: true)
        guard Self.sh("mount -t tmpfs -o size=4m tmpfs '\(ruta)'") == 0 else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    func soloLectura() throws {
        guard Self.sh("mount -o remount,ro '\(ruta)'") == 0 else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    func desmontar() {
        _ = Self.sh("umount '\(ruta)'")
        try? FileManager.default.removeItem(atPath: ruta)
    }

    static func sh(_ orden: String) -> Int32 {
        let proceso = Process()
        proceso.executableURL = URL(fileURLWithPath: "/bin/sh")
        proceso.arguments = ["-c", orden + " 2>/dev/null"]
        guard (try? proceso.run()) != nil else { return -1 }
        proceso.waitUntilExit()
        return proceso.terminationStatus
    }
}
