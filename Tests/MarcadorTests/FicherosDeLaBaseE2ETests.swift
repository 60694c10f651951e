import Almacen
import Foundation
import Testing

/// Database files marcador must not adopt (another user's, writable by others, another
/// program's) and a disk that stops taking writes in the middle of a match (issue 26).
@Suite("Ficheros de la base (binario)")
struct FicherosDeLaBaseE2ETests {
    /// Another user's file, even empty, is not adopted: it would then hold this user's webhook
    /// secrets where that user can read them. Needs root to give the file away.
    @Test(.enabled(if: getuid() == 0, "hace falta root para dar el fichero a otro usuario"))
    func unaBaseDeOtroUsuarioNoSeUsa() async throws {
        let escenario = Escenario()
        for contenido in [Data(), nil] {
            try? FileManager.default.removeItem(atPath: escenario.db)
            if let contenido {
                _ = FileManager.default.createFile(atPath: escenario.db, contents: contenido)
            } else {
                // A real marcador database someone else made.
                #expect(try await escenario.marcador("partidos").codigo == 0)
            }
            #expect(chown(escenario.db, 65534, 65534) == 0)
            let antes = escenario.bytes(escenario.db)
            let resultado = try await escenario.marcador(
                "avisos", "canales", "añadir", "webhook", "--url",
                "https://gol:muy-secreto@x.example/gol")
            #expect(resultado.codigo == 74)
            #expect(
                resultado.error
                    == "marcador: Base de datos «\(escenario.db)»: «\(escenario.db)» es de otro "
                    + "usuario (uid 65534): no se usa ni se cambia; usa una base tuya con --db.\n")
            #expect(resultado.sinTrazaDeFallo)
            #expect(escenario.bytes(escenario.db) == antes)
            #expect(!FileManager.default.fileExists(atPath: escenario.db + "-wal"))
        }
    }

    /// A file (or its `-wal`/`-shm`) that group or others may write is refused, untouched.
    @Test(arguments: ["", "-wal", "-shm"])
    func unaBaseQueOtrosPuedenEscribirNoSeUsa(sufijo: String) async throws {
        let escenario = Escenario()
        #expect(try await escenario.marcador("partidos").codigo == 0)
        let fichero = escenario.db + sufijo
        if !FileManager.default.fileExists(atPath: fichero) {
            _ = FileManager.default.createFile(atPath: fichero, contents: nil)
        }
        #expect(chmod(fichero, 0o666) == 0)
        let antes = escenario.bytes(escenario.db)
        let resultado = try await escenario.marcador("gol-a-mano", "1", "local")
        #expect(resultado.codigo == 74)
        #expect(
            resultado.error.contains(
                "otros usuarios pueden escribir en «\(fichero)» (permisos 666)"))
        #expect(resultado.error.contains("chmod 600"))
        #expect(resultado.sinTrazaDeFallo)
        #expect(escenario.bytes(escenario.db) == antes)
        // Put right, it works again.
        #expect(chmod(fichero, 0o600) == 0)
        #expect(try await escenario.marcador("gol-a-mano", "1", "local").codigo == 0)
    }

    /// A SQLite database of another program is recognised by its header and left alone (round
    /// 2 migrated it in silence, adding marcador's tables to it).
    @Test func unaBaseSQLiteDeOtroProgramaNoSeMigra() async throws {
        let escenario = Escenario()
        try Database(path: escenario.db).executeScript(
            """
            CREATE TABLE libro (id INTEGER PRIMARY KEY, titulo TEXT);
            INSERT INTO libro (titulo) VALUES ('Rayuela');
            """)
        let antes = escenario.bytes(escenario.db)
        for comando in [
            ["partidos"], ["jugar", "1", "--ms-por-minuto", "0"], ["avisos", "activar"],
        ] {
            let resultado = try await escenario.marcadorSinDB(["--db", escenario.db] + comando)
            #expect(resultado.codigo == 74, "\(comando)")
            #expect(
                resultado.error
                    == "marcador: Base de datos «\(escenario.db)»: es una base de datos SQLite de "
                    + "otro programa, no de marcador: no se usa ni se cambia.\n")
            #expect(resultado.sinTrazaDeFallo)
        }
        #expect(escenario.bytes(escenario.db) == antes)
        // A marcador database carries the mark in its header.
        let propia = Escenario()
        #expect(try await propia.marcador("partidos").codigo == 0)
        #expect(
            try Database(path: propia.db).scalarInt("PRAGMA application_id")
                == Int(Almacen.idDeAplicacion))
    }

    /// The disk turns immutable (`chattr +i`, on a real ext4 file system in a loop device)
    /// while a match is played: exit 74 with a reason, never a signal, whether SQLite notices
    /// on a write (EPERM) or through its mapped `-shm` (SIGBUS); what was committed stays, and
    /// the match resumes once the disk is writable again.
    @Test(
        .enabled(if: DiscoExt4.sePuedeMontar, "hace falta root, mkfs.ext4 y un dispositivo loop"),
        arguments: [["", "-wal", "-shm"], ["-shm"]])
    func unDiscoQueSeVuelveInmutableAMitadDePartido(ficheros: [String]) async throws {
        let disco = try DiscoExt4()
        defer { disco.desmontar() }
        let escenario = Escenario()
        let ruta = disco.ruta + "/marcador.sqlite3"
        #expect(try await escenario.marcadorSinDB(["--db", ruta, "avisos", "activar"]).codigo == 0)
        // 150 ms a minute: 11 s after minute 15 for the disk to turn (at 50 ms a loaded
        // machine once let the match end first).
        let jugando = try Proceso(
            ["--db", ruta, "jugar", "1", "--ms-por-minuto", "150"], carpeta: escenario.carpeta)
        #expect(await jugando.esperarTexto("minuto 15 con", enSalida: true))
        let rutas = ficheros.map { "'\(ruta)\($0)'" }.joined(separator: " ")
        #expect(DiscoExt4.sh("chattr +i \(rutas)") == 0)
        let cortado = await jugando.esperar()
        _ = DiscoExt4.sh("chattr -i \(rutas)")
        #expect(cortado.senal == nil, "\(cortado.error)")
        #expect(cortado.codigo == 74, "\(cortado.error)")
        #expect(cortado.sinTrazaDeFallo)
        #expect(
            cortado.error.contains("dejó de poder escribirse a mitad de trabajo")
                || cortado.error.contains("error de lectura o escritura en el disco"),
            "\(cortado.error)")
        #expect(try Database(path: ruta).scalarString("PRAGMA integrity_check") == "ok")
        let despues = try await escenario.marcadorSinDB(
            ["--db", ruta, "jugar", "1", "--ms-por-minuto", "0", "--reanudar"])
        #expect(despues.codigo == 0, "\(despues.error)")
        #expect(despues.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (90 minutos).\n"))
        let avisos = try Database(path: ruta).scalarInt(
            "SELECT count(DISTINCT identificador) - count(*) FROM aviso")
        #expect(avisos == 0)
    }
}

/// A small ext4 file system in a loop device: what `chattr +i` needs (tmpfs has no
/// immutable flag).
struct DiscoExt4 {
    let ruta: String
    let imagen: String

    static let sePuedeMontar: Bool = {
        guard getuid() == 0 else { return false }
        guard let prueba = try? DiscoExt4() else { return false }
        prueba.desmontar()
        return true
    }()

    init() throws {
        let base = NSTemporaryDirectory() + "marcador-ext4-" + UUID().uuidString
        ruta = base
        imagen = base + ".img"
        try FileManager.default.createDirectory(atPath: ruta, withIntermediateDirectories: true)
        guard
            Self.sh(
                "truncate -s 32M '\(imagen)' && mkfs.ext4 -q -F '\(imagen)' "
                    + "&& mount -o loop '\(imagen)' '\(ruta)'") == 0
        else {
            try? FileManager.default.removeItem(atPath: ruta)
            try? FileManager.default.removeItem(atPath: imagen)
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    func desmontar() {
        _ = Self.sh("chattr -R -i '\(ruta)'; umount '\(ruta)'")
        try? FileManager.default.removeItem(atPath: ruta)
        try? FileManager.default.removeItem(atPath: imagen)
    }

    static func sh(_ orden: String) -> Int32 { SoloLectura.sh(orden) }
}
