import Persistencia

extension LineaDeRegistro {
    init(fila: some FilaSQL) {
        self.init(
            id: fila.int("id"), momento: fila.string("momento"),
            partidoId: fila.optionalInt("partido_id"), linea: fila.string("linea"))
    }
}
