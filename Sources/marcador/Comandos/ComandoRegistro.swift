import Almacen
import Torneo

/// `marcador registro`: every line the program logged, newest last.
struct ComandoRegistro: Comando {
    static let nombre = "registro"
    static let resumen = "Muestra el registro: lo que el programa anotó, lo más nuevo al final."
    static let opciones: [Opcion] = [
        .conValor("--partido", "ID", ayuda: "Muestra solo las líneas de ese partido."),
        .conValor("--ultimas", "N", ayuda: "Muestra solo las N líneas más recientes."),
        .bandera("--json", ayuda: "Escribe las líneas en JSON, para otros programas."),
    ]

    let partido: Int?
    let ultimas: Int?

    init(_ argumentos: Argumentos) throws(Fallo) {
        try Self.comprobarPosicionales(argumentos)
        partido = try argumentos.entero("--partido")
        ultimas = try argumentos.entero("--ultimas")
        if let ultimas, ultimas < 1 {
            throw .uso("El valor de --ultimas debe ser 1 o más, no \(ultimas).")
        }
    }

    func validarTrasReinicio(en semilla: DatabaseQueue) throws {
        if let partido { _ = try PartidosSQLite(semilla).partidoExistente(partido) }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        if let partido { _ = try contexto.repositorio.partidoExistente(partido) }
        let lineas = try contexto.registro.lineas(partido: partido, limite: ultimas)
        if contexto.json {
            contexto.terminal.linea(try documentoJSON(lineas))
            return .ok
        }
        for linea in lineas {
            let momento = contexto.terminal.resaltar(linea.momento, .gris)
            contexto.terminal.linea("\(momento)  \(TextoSeguro.limpio(linea.linea))")
        }
        return .ok
    }
}
