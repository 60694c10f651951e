import Aplicacion
import Sistema
import Torneo

/// A plain text table with aligned columns, measured in characters (names carry accents).
/// Every cell is made safe for a terminal first (safety.md): data never writes a control byte.
///
/// `marcador partidos` can list 100,000 matches, so rows are not kept as strings: each cell is
/// cleaned and measured once as it is added and its bytes appended, after a one- or two-byte
/// header, to fixed 256 KiB pieces (no doubling copies, no peak twice the size); the table is
/// then written through a 64 KiB buffer.
struct Tabla {
    let cabeceras: [String]
    /// Columns aligned to the right (numbers).
    private let aLaDerecha: [Bool]
    /// Columns left out when no row has anything in them (`FECHA` in a list of seed matches).
    private let opcionales: [Bool]
    private var conDatos: [Bool]
    /// Every cell, row by row: a header (`Tabla.cabeceraDeCelda`) then its bytes.
    private var trozos: [[UInt8]] = []
    private var celdas = 0
    private var anchos: [Int]

    init(cabeceras: [String], aLaDerecha: Set<Int> = [], opcionales: Set<Int> = []) {
        self.cabeceras = cabeceras
        self.aLaDerecha = cabeceras.indices.map(aLaDerecha.contains)
        self.opcionales = cabeceras.indices.map(opcionales.contains)
        conDatos = cabeceras.map { _ in false }
        anchos = cabeceras.map { Tabla.ancho($0) }
    }

    /// Whether column `columna` is written.
    private func visible(_ columna: Int) -> Bool { !opcionales[columna] || conDatos[columna] }

    var estaVacia: Bool { celdas == 0 }

    /// Adds a row; missing cells are empty, cells past the last column are dropped.
    mutating func anadir(_ fila: [String]) {
        for columna in anchos.indices {
            var celda = columna < fila.count ? fila[columna] : ""
            var (tieneControl, esASCII) = celda.withUTF8(Tabla.examinar)
            // Past ASCII, TextoSeguro also knows the invisible characters that reorder text.
            if tieneControl || !esASCII {
                celda = TextoSeguro.limpio(celda)
                esASCII = celda.withUTF8(Tabla.examinar).esASCII
            }
            if !celda.isEmpty { conDatos[columna] = true }
            if celda.utf8.count > Tabla.longitudMaxima { celda = Tabla.recortar(celda) }
            let ancho = esASCII ? celda.utf8.count : celda.count
            anchos[columna] = max(anchos[columna], ancho)
            celda.withUTF8 { guardar($0, esASCII: esASCII) }
        }
    }

    private mutating func guardar(_ utf8: UnsafeBufferPointer<UInt8>, esASCII: Bool) {
        if trozos.isEmpty || trozos[trozos.count - 1].count + utf8.count + 2 > Tabla.tamanoDeTrozo {
            var trozo: [UInt8] = []
            trozo.reserveCapacity(max(Tabla.tamanoDeTrozo, utf8.count + 2))
            trozos.append(trozo)
        }
        let marca: UInt8 = esASCII ? 0 : 0x80
        let ultimo = trozos.count - 1
        if utf8.count < 0x40 {
            trozos[ultimo].append(marca | UInt8(utf8.count))
        } else {
            trozos[ultimo].append(marca | 0x40 | UInt8(utf8.count >> 8))
            trozos[ultimo].append(UInt8(truncatingIfNeeded: utf8.count))
        }
        trozos[ultimo].append(contentsOf: utf8)
        celdas += 1
    }

    /// The whole table, without a final line break.
    func texto(resaltarCabecera: (String) -> String = { $0 }) -> String {
        var salida: [UInt8] = []
        volcar(resaltarCabecera: resaltarCabecera) { salida.append(contentsOf: $0) }
        if salida.last == Tabla.saltoDeLinea { salida.removeLast() }
        return String(decoding: salida, as: UTF8.self)
    }

    /// Writes the table, each line ending in a line break, to standard output.
    func escribir(en terminal: Terminal, resaltarCabecera: (String) -> String = { $0 }) {
        volcar(resaltarCabecera: resaltarCabecera) { terminal.escribir($0) }
    }

    /// Hands the table's bytes to `salida` in pieces of about 64 KiB.
    private func volcar(
        resaltarCabecera: (String) -> String, _ salida: (UnsafeRawBufferPointer) -> Void
    ) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Tabla.tamanoDelBuffer)
        var cabecera: [UInt8] = []
        for (columna, titulo) in cabeceras.enumerated() where visible(columna) {
            var titulo = titulo
            let ancho = Tabla.ancho(titulo)
            titulo.withUTF8 { anadirCelda($0, ancho: ancho, columna, a: &cabecera) }
        }
        recortarEspacios(&cabecera, desde: 0)
        buffer.append(contentsOf: resaltarCabecera(String(decoding: cabecera, as: UTF8.self)).utf8)
        buffer.append(Tabla.saltoDeLinea)
        var columna = 0
        var comienzoDeLinea = buffer.count
        for trozo in trozos {
            trozo.withUnsafeBufferPointer { todos in
                var i = 0
                while i < todos.count {
                    let cabecera = todos[i]
                    var longitud = Int(cabecera & 0x3F)
                    i += 1
                    if cabecera & 0x40 != 0 {
                        longitud = longitud << 8 | Int(todos[i])
                        i += 1
                    }
                    let contenido = UnsafeBufferPointer(rebasing: todos[i..<i + longitud])
                    i += longitud
                    let ancho =
                        cabecera & 0x80 == 0
                        ? longitud : String(decoding: contenido, as: UTF8.self).count
                    anadirCelda(contenido, ancho: ancho, columna, a: &buffer)
                    columna += 1
                    guard columna == anchos.count else { continue }
                    columna = 0
                    recortarEspacios(&buffer, desde: comienzoDeLinea)
                    buffer.append(Tabla.saltoDeLinea)
                    if buffer.count >= Tabla.tamanoDelBuffer - 4096 {
                        buffer.withUnsafeBytes(salida)
                        buffer.removeAll(keepingCapacity: true)
                    }
                    comienzoDeLinea = buffer.count
                }
            }
        }
        if !buffer.isEmpty { buffer.withUnsafeBytes(salida) }
    }

    /// A cell padded to its column's width, after the two spaces that separate columns.
    private func anadirCelda(
        _ contenido: UnsafeBufferPointer<UInt8>, ancho: Int, _ columna: Int, a buffer: inout [UInt8]
    ) {
        guard visible(columna) else { return }
        if (0..<columna).contains(where: visible) { buffer.append(contentsOf: Tabla.separador) }
        let relleno = anchos[columna] - ancho
        if aLaDerecha[columna] {
            Tabla.rellenar(&buffer, relleno)
            buffer.append(contentsOf: contenido)
        } else {
            buffer.append(contentsOf: contenido)
            Tabla.rellenar(&buffer, relleno)
        }
    }

    private static func rellenar(_ buffer: inout [UInt8], _ espacios: Int) {
        var faltan = espacios
        while faltan > 0 {
            let ahora = min(faltan, Tabla.espacios.count)
            buffer.append(contentsOf: Tabla.espacios[..<ahora])
            faltan -= ahora
        }
    }

    /// No spaces at a line's end: a last or empty column must not leave any.
    private func recortarEspacios(_ buffer: inout [UInt8], desde inicio: Int) {
        while buffer.count > inicio && buffer.last == Tabla.espacio { buffer.removeLast() }
    }

    /// One pass over a cell's bytes: whether it holds a control character (C0 and DEL are
    /// single bytes, C1 is 0xC2 then 0x80–0x9F) and whether it is plain ASCII.
    private static func examinar(_ utf8: UnsafeBufferPointer<UInt8>) -> (
        tieneControl: Bool, esASCII: Bool
    ) {
        // Almost every cell is printable ASCII (0x20–0x7E): one branch-free pass says so.
        var fueraDeRango: UInt8 = 0
        for byte in utf8 { fueraDeRango = max(fueraDeRango, byte &- 0x20) }
        if fueraDeRango < 0x5F { return (false, true) }
        var alto: UInt8 = 0
        var control = false
        var anteriorEsC2 = false
        for byte in utf8 {
            alto |= byte
            control = control || byte < 0x20 || byte == 0x7F || (anteriorEsC2 && byte < 0xA0)
            anteriorEsC2 = byte == 0xC2
        }
        return (control, alto < 0x80)
    }

    /// A cell too long to keep whole, cut at a character boundary to fit the header's 14 bits
    /// with «…» after it. Cut by scalars, not characters: one letter under thousands of
    /// combining accents is one character of tens of kilobytes.
    static func recortar(_ celda: String) -> String {
        var corte = String.UnicodeScalarView()
        var bytes = 0
        for escalar in celda.unicodeScalars {
            let tamano = String(escalar).utf8.count
            guard bytes + tamano <= longitudMaxima - 3 else { break }
            corte.append(escalar)
            bytes += tamano
        }
        return String(corte) + "…"
    }

    /// Characters a text takes on screen: its grapheme clusters («Mbappé» is six wide however
    /// the é is encoded).
    static func ancho(_ texto: String) -> Int {
        var texto = texto
        let esASCII = texto.withUTF8 { examinar($0).esASCII }
        return esASCII ? texto.utf8.count : texto.count
    }

    /// The longest cell kept whole, in bytes (a two-byte header holds 14 bits); longer ones,
    /// which no name or message reaches, are cut.
    static let longitudMaxima = 0x3FFF
    private static let tamanoDeTrozo = 256 * 1024
    private static let tamanoDelBuffer = 64 * 1024
    private static let espacio = UInt8(ascii: " ")
    private static let separador: [UInt8] = [espacio, espacio]
    private static let espacios = [UInt8](repeating: espacio, count: 64)
    private static let saltoDeLinea = UInt8(ascii: "\n")
}
