import Almacen

/// A subcommand: its arguments declared together with their help, its behaviour in `ejecutar`.
@MainActor
protocol Comando {
    static var nombre: String { get }
    /// One line for the tool's help.
    static var resumen: String { get }
    static var posicionales: [Posicional] { get }
    static var opciones: [Opcion] { get }
    /// More help shown under the command's usage (subcommands, accepted values).
    static var detalles: String? { get }

    /// Validates the arguments; throws a usage error a user can act on.
    init(_ argumentos: Argumentos) throws(Fallo)

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida

    /// What `ejecutar` would refuse (a usage error, an unknown match) on the data as
    /// `--reiniciar-datos` will leave it, checked on `semilla` before anything is wiped.
    func validarTrasReinicio(en semilla: DatabaseQueue) throws
}

extension Comando {
    func validarTrasReinicio(en semilla: DatabaseQueue) throws {}

    static var posicionales: [Posicional] { [] }
    static var detalles: String? { nil }

    /// Rejects positionals beyond the declared ones, naming the first extra one.
    static func comprobarPosicionales(_ argumentos: Argumentos) throws(Fallo) {
        let obligatorios = posicionales.filter { !$0.opcional }
        if argumentos.posicionales.count < obligatorios.count {
            let falta = obligatorios[argumentos.posicionales.count]
            throw .uso("Falta \(falta.nombre): \(falta.ayuda) Uso: \(uso)")
        }
        if argumentos.posicionales.count > posicionales.count {
            let sobra = argumentos.posicionales[posicionales.count]
            throw .uso("Sobra el argumento «\(sobra)». Uso: \(uso)")
        }
    }

    static var uso: String {
        var partes = ["marcador", nombre]
        partes += posicionales.map { $0.opcional ? "[\($0.nombre)]" : $0.nombre }
        partes += opciones.map { "[\($0.nombres.last!)\($0.valor.map { " " + $0 } ?? "")]" }
        return partes.joined(separator: " ")
    }
}
