import Torneo

extension CanalConfigurado {
    /// A row of `canal` (`nombre`, `tipo`, `activo`, `ajustes`) with what it follows; `nil`
    /// for a type this binary does not know (written by a newer one), which is left alone.
    init?(fila: some FilaSQL, filtros: FiltrosDeCanal) {
        guard let tipo = TipoDeCanal(rawValue: fila.string("tipo")) else { return nil }
        self.init(
            nombre: fila.string("nombre"), tipo: tipo, activo: fila.bool("activo"),
            ajustes: fila.string("ajustes"), filtros: filtros)
    }
}
