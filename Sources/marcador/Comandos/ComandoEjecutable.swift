import Almacen

/// A command that runs: its behaviour sits in `ejecutar` (`run()` in swift-argument-parser).
@MainActor
protocol Comando: ComandoDeclarado {
    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida
    /// What `ejecutar` would refuse (a usage error, an unknown match) on the data as
    /// `--reiniciar-datos` will leave it, checked on `semilla` before anything is wiped.
    func validarTrasReinicio(en semilla: DatabaseQueue) throws
}

extension Comando {
    func validarTrasReinicio(en semilla: DatabaseQueue) throws {}
}
