import Torneo

extension CanalConfigurado {
    static let columnas = "nombre, tipo, activo, ajustes, avisar, horas_tranquilas, retraso, antes"

    /// A row of `canal` (`columnas`) with what it follows; `nil` for a type this binary does
    /// not know (written by a newer one), which is left alone.
    init?(fila: some FilaSQL, filtros: FiltrosDeCanal) {
        guard let tipo = TipoDeCanal(rawValue: fila.string("tipo")) else { return nil }
        self.init(
            nombre: fila.string("nombre"), tipo: tipo, activo: fila.bool("activo"),
            ajustes: fila.string("ajustes"), filtros: filtros)
        avisar = Self.avisar(fila.optionalString("avisar"))
        horasTranquilas = fila.optionalString("horas_tranquilas").flatMap(HorasTranquilas.init)
        retraso = fila.double("retraso")
        antes = fila.optionalDouble("antes")
    }

    /// The stored `avisar` list (NULL: the default kinds).
    static func avisar(_ texto: String?) -> Set<ClaseDeAviso> {
        texto.flatMap(ClaseDeAviso.leer) ?? ClaseDeAviso.porDefecto
    }

    /// What `avisar` stores: NULL for the default.
    var avisarAlmacenado: String? {
        avisar == ClaseDeAviso.porDefecto ? nil : ClaseDeAviso.texto(avisar)
    }
}
