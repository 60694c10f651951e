import Aplicacion
import Torneo

/// `marcador goleadores --competicion NOMBRE [--limite N]`: top scorers from the scripts.
struct ComandoGoleadores: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "goleadores",
        resumen: "Los máximos goleadores de una competición, según los guiones de sus partidos.",
        detalles: """
            Los goles en propia puerta no cuentan para quien los marca; los de penalti se cuentan
            y se muestran aparte. Los partidos sin lista de goles en el fichero no suman.
            """)

    @Opcion(
        "--competicion", marcador: "NOMBRE",
        ayuda: "La competición (como sale en «competiciones»).",
        obligatoria: true)
    var competicion: String?

    @Opcion(
        "--limite", marcador: "N", desde: 1,
        ayuda: "Cuántos mostrar, 1 o más, y los empatados con el último (por defecto, 20).")
    var limite: Int?

    @Bandera("--json", ayuda: "Escribe la lista en JSON, para otros programas.")
    var json: Bool

    func validar() throws(Fallo) {
        if competicion == nil { throw .uso("Indica la competición con --competicion NOMBRE.") }
    }

    struct FilaJSON: Encodable {
        var posicion: Int
        var jugador: String
        var equipo: String
        var goles: Int
        var penaltis: Int
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let (nombre, mostradas, partidos, sinLista) = try contexto.nucleo().goleadores(
            competicion: competicion ?? "", limite: limite ?? 20)
        // A file with results only has no scorers to count: said, not shown as an empty table.
        let sinGoleadores = mostradas.isEmpty && sinLista > 0
        let aviso: String? =
            sinGoleadores
            ? "\(citado(nombre)) no trae listas de goles (\(sinLista) de sus "
                + "\(Textos.cuenta(partidos, "partido", "partidos")) solo dan el resultado): "
                + "no hay goleadores que contar."
            : sinLista > 0
                ? "(\(sinLista) de \(partidos) partidos no traen la lista de goles y no cuentan.)"
                : nil
        if json {
            if let aviso { contexto.advertir(aviso) }
            contexto.terminal.linea(
                try documentoJSON(
                    mostradas.map {
                        FilaJSON(
                            posicion: $0.posicion, jugador: $0.fila.jugador,
                            equipo: $0.fila.equipo, goles: $0.fila.goles,
                            penaltis: $0.fila.penaltis)
                    }))
            return .ok
        }
        let t = contexto.terminal
        if sinGoleadores, let aviso {
            t.linea(aviso)
            return .ok
        }
        guard !mostradas.isEmpty else {
            t.linea("No hay goles en los guiones de \(citado(nombre)).")
            return .ok
        }
        t.linea(t.resaltar("\(nombre.limpio) · goleadores", .negrita))
        var tabla = Tabla(
            cabeceras: ["#", "JUGADOR", "EQUIPO", "GOLES", "PENALTIS"], aLaDerecha: [0, 3, 4])
        for (posicion, fila) in mostradas {
            tabla.anadir([
                "\(posicion)", fila.jugador, fila.equipo, "\(fila.goles)", "\(fila.penaltis)",
            ])
        }
        t.linea(tabla.texto())
        if let aviso { t.linea(aviso) }
        return .ok
    }
}
