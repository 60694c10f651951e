import Aplicacion

/// A command that runs: its behaviour sits in `ejecutar` (`run()` in swift-argument-parser),
/// which parses nothing more and calls the core.
@MainActor
protocol Comando: ComandoDeclarado {
    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida

    /// What `ejecutar` would refuse, found on `ensayo`: the data as `--reiniciar-datos` will
    /// leave it, before anything is wiped. By default the whole command runs there (its writes
    /// land in memory, its output nowhere); commands with effects outside the store check
    /// their inputs instead.
    func validarTrasReinicio(en ensayo: Contexto) async throws

    /// A command that runs for long (`jugar`, `avisos vigilar`, `avisos enviar`, `servir`)
    /// rides out a store that goes away: on PostgreSQL it reconnects for up to 60 s
    /// (architecture.md); any other fails at once with 74.
    static var largaDuracion: Bool { get }

    /// A command that allocates on several threads at once (the fan-out to devices of
    /// `avisos vigilar`, `avisos enviar` and `servir`; the parts of `dispositivos importar`'s
    /// file, read on every core) gets several malloc arenas.
    static var asignaEnVariosHilos: Bool { get }
}

extension Comando {
    static var largaDuracion: Bool { false }
    static var asignaEnVariosHilos: Bool { false }

    func validarTrasReinicio(en ensayo: Contexto) async throws {
        _ = try await ejecutar(en: ensayo)
    }
}
