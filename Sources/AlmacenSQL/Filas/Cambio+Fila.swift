import Persistencia
import Torneo

extension Cambio {
    /// The columns `init(fila:)` reads: the change `c` and, for a notification, its notice
    /// `a` (columns prefixed `aviso_`).
    static let columnas = """
        c.id, c.clase, c.partido_id, c.ejecucion_id, c.estado, c.minuto, c.goles_local,
        c.goles_visitante, c.mano_local, c.mano_visitante, c.duracion, c.imagen, c.ultimo_aviso,
        c.silencioso,
        \(AvisoDeGol.columnas(de: "a", prefijo: "aviso_"))
        """

    init(fila: some FilaSQL) throws {
        let clase: Clase = try fila.almacenado("clase", tabla: "cambio")
        self.init(
            id: fila.int("id"), clase: clase, partidoId: fila.optionalInt("partido_id"),
            imagen: fila.optionalString("imagen"))
        if clase == .partido, let ejecucion = fila.optionalInt("ejecucion_id") {
            instantanea = Instantanea(
                ejecucion: ejecucion,
                estado: try fila.almacenado("estado", tabla: "cambio"),
                minuto: fila.int("minuto"),
                goles: Marcador(
                    local: fila.int("goles_local"), visitante: fila.int("goles_visitante")),
                golesAMano: Marcador(
                    local: fila.int("mano_local"), visitante: fila.int("mano_visitante")),
                duracion: fila.int("duracion"),
                ultimoAviso: fila.optionalString("ultimo_aviso") ?? "ninguno")
        }
        if fila.optionalInt("aviso_id") != nil {
            let leido = try AvisoDeGol.leer(fila, prefijo: "aviso_")
            aviso = leido.aviso.enHorasTranquilas(fila.optionalInt("silencioso") == 1)
            avisoCreado = leido.creado
        }
    }
}
