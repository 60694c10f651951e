import Torneo

extension AvisoDeGol {
    /// The columns `init(fila:prefijo:)` reads from `aviso` (qualified with `alias`, named
    /// `prefijo` + column so a join can read them beside another table's).
    static func columnas(de alias: String? = nil, prefijo: String = "") -> String {
        let p = alias.map { $0 + "." } ?? ""
        return [
            "partido_id", "identificador", "titulo", "cuerpo", "minuto", "anadido", "jugador",
            "equipo", "marcador_local", "marcador_visitante", "adjunto", "creado", "ejecucion_id",
            "tipo", "id", "seguimiento_id",
        ].map { "\(p)\($0) AS \(prefijo)\($0)" }.joined(separator: ", ")
    }

    /// A notice as `columnas` reads it, with when it was enqueued (unix seconds).
    static func leer(_ fila: some FilaSQL, prefijo p: String = "") throws -> (
        aviso: AvisoDeGol, id: Int, creado: Double
    ) {
        let tipo: TipoDeAviso = try fila.almacenado(p + "tipo", tabla: "aviso", clave: p + "id")
        let aviso = AvisoDeGol(
            identificador: fila.texto(p + "identificador"), titulo: fila.texto(p + "titulo"),
            cuerpo: fila.texto(p + "cuerpo"),
            // A test notice belongs to no match.
            partidoId: fila.optionalInt(p + "partido_id") ?? 0,
            minuto: MinutoDeJuego(fila.int(p + "minuto"), anadido: fila.int(p + "anadido")),
            jugador: fila.nombre(p + "jugador"), equipo: fila.nombre(p + "equipo"),
            marcador: Marcador(
                local: fila.int(p + "marcador_local"),
                visitante: fila.int(p + "marcador_visitante")),
            adjunto: fila.optionalString(p + "adjunto"),
            ejecucion: fila.optionalInt(p + "ejecucion_id"), tipo: tipo,
            seguimiento: fila.optionalInt(p + "seguimiento_id"))
        return (aviso, fila.int(p + "id"), fila.double(p + "creado"))
    }
}

extension EntregaDeAviso {
    /// One row of `entrega` (`canal`, `estado`, `intentos`, `ultimo_error`).
    init(fila: some FilaSQL) throws {
        self.init(
            canal: fila.string("canal"),
            estado: try fila.almacenado("estado", tabla: "entrega", clave: "aviso_id"),
            intentos: fila.int("intentos"), ultimoError: fila.optionalString("ultimo_error"))
    }
}
