import Torneo

/// A plain text table with aligned columns, measured in characters (names carry accents).
/// Every cell is made safe for a terminal first (DESIGN §9): data never writes a control byte.
struct Tabla {
    var cabeceras: [String]
    var filas: [[String]] = []
    /// Columns aligned to the right (numbers).
    var aLaDerecha: Set<Int> = []

    func texto(resaltarCabecera: (String) -> String = { $0 }) -> String {
        let filas = self.filas.map { $0.map(TextoSeguro.limpio) }
        var anchos = cabeceras.map(\.count)
        for fila in filas {
            for (i, celda) in fila.enumerated() where i < anchos.count {
                anchos[i] = max(anchos[i], celda.count)
            }
        }
        func formatear(_ celdas: [String]) -> String {
            celdas.enumerated().map { i, celda in
                let relleno = String(repeating: " ", count: anchos[i] - celda.count)
                if aLaDerecha.contains(i) { return relleno + celda }
                return i == celdas.count - 1 ? celda : celda + relleno
            }.joined(separator: "  ").trimmingSuffix(" ")
        }
        var lineas = [resaltarCabecera(formatear(cabeceras))]
        lineas += filas.map(formatear)
        return lineas.joined(separator: "\n")
    }
}

extension String {
    /// Drops trailing `caracter`s (a last empty column must not leave spaces at line ends).
    func trimmingSuffix(_ caracter: Character) -> String {
        var copia = self
        while copia.last == caracter { copia.removeLast() }
        return copia
    }
}
