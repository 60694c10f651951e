/// The one rule for text that comes from data or from a peer (team, player, competition,
/// ground and channel names, error bodies, URLs) on its way to a terminal or a log line
/// (safety.md): control characters are replaced by a visible escape, so a crafted name can
/// never move the cursor, retitle or clear the terminal, write the clipboard (OSC 52), forge a
/// log line, or reorder what a reader sees.
///
/// Control characters are C0, DEL and C1 (ESC, BEL, CR, LF, NUL among them), and the format
/// characters that reorder or hide text: bidirectional embeddings, overrides, isolates and
/// marks (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), zero-width ones (U+200B–U+200D,
/// U+2060–U+2064, U+FEFF) and the line and paragraph separators (U+2028, U+2029).
public enum TextoSeguro {
    /// `texto` with every control character written as `\xHH` (C0, DEL), `\u00HH` (C1) or
    /// `\uHHHH` (the format characters).
    public static func limpio(_ texto: String) -> String {
        guard tieneControl(texto) else { return texto }
        var salida = String.UnicodeScalarView()
        for escalar in texto.unicodeScalars {
            guard esControl(escalar) else {
                salida.append(escalar)
                continue
            }
            let hex = String(escalar.value, radix: 16, uppercase: true)
            let escape: String
            if escalar.value < 0x80 {
                escape = "\\x" + String(repeating: "0", count: max(0, 2 - hex.count)) + hex
            } else {
                escape = "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
            salida.append(contentsOf: escape.unicodeScalars)
        }
        return String(salida)
    }

    /// A name from a live feed made fit to store and show (safety.md, issue 41): real provider
    /// data is not ours to refuse, so instead of the import's refusal the format characters
    /// (bidi marks, zero-width ones) are dropped, the other control characters become spaces,
    /// runs of spaces become one, each character keeps at most `marcas` combining marks, and
    /// the result is cut to `caracteres` characters and `bytes` bytes of UTF-8 (whole
    /// characters). An empty result means the feed gave no usable name.
    public static func saneado(_ texto: String, caracteres: Int, bytes: Int, marcas: Int)
        -> String
    {
        var limpio = String.UnicodeScalarView()
        var espacio = true  // drops leading spaces, and collapses runs
        for escalar in texto.unicodeScalars {
            let valor = escalar.value
            let esBlanco: Bool
            if esControl(escalar) {
                // C0, DEL and C1 (tabs and newlines among them) separate words; the format
                // characters are invisible by design, and go.
                guard valor < 0xA0 || valor == 0x2028 || valor == 0x2029 else { continue }
                esBlanco = true
            } else {
                esBlanco = escalar.properties.isWhitespace
            }
            if esBlanco {
                if !espacio { limpio.append(" ") }
                espacio = true
            } else {
                limpio.append(escalar)
                espacio = false
            }
        }
        if limpio.last == " " { limpio.removeLast() }
        var salida = acotado(String(limpio), caracteres: caracteres, bytes: bytes, marcas: marcas)
        while salida.last == " " { salida.removeLast() }
        return salida
    }

    /// Longest name shown (characters), its size in UTF-8 and the combining marks kept on one
    /// character: the import's limits (safety.md).
    public static let caracteresDeUnNombre = 200
    public static let bytesDeUnNombre = 800
    public static let marcasPorLetra = 3

    /// A name read from a store, as every output shows it (issue 41): whatever wrote the
    /// database, its control characters are visible escapes (`limpio`) and it is no longer
    /// than the import allows, cut with «…» (a 1 MB name made `jugar` print 12 MB). A name
    /// marcador stored itself passes unchanged, at the cost of one scan of its bytes.
    /// - Parameter caracteres: the import's 200 for a name; more for a text made of several
    ///   (a notice's body names a player and a team).
    public static func mostrable(_ texto: String, caracteres: Int = caracteresDeUnNombre)
        -> String
    {
        let limpio = limpio(texto)
        guard limpio.utf8.count > caracteres else { return limpio }
        let cortado = acotado(
            limpio, caracteres: caracteres, bytes: caracteres * 4 - 3, marcas: marcasPorLetra)
        return cortado == limpio ? limpio : cortado + "…"
    }

    /// `texto` cut to whole characters within `caracteres` and `bytes`, each keeping at most
    /// `marcas` combining marks.
    public static func acotado(_ texto: String, caracteres: Int, bytes: Int, marcas: Int)
        -> String
    {
        var salida = ""
        var cuenta = 0
        var ocupados = 0
        for caracter in texto {
            guard cuenta < caracteres else { break }
            var recortado = String.UnicodeScalarView()
            var sobre = 0
            for escalar in caracter.unicodeScalars {
                let categoria = escalar.properties.generalCategory
                if categoria == .nonspacingMark || categoria == .enclosingMark
                    || categoria == .spacingMark
                {
                    sobre += 1
                    if sobre > marcas { continue }
                }
                recortado.append(escalar)
            }
            let trozo = String(recortado)
            guard ocupados + trozo.utf8.count <= bytes else { break }
            salida += trozo
            ocupados += trozo.utf8.count
            cuenta += 1
        }
        return salida
    }

    /// C0 (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F) and the format characters that
    /// reorder or hide text.
    public static func esControl(_ escalar: Unicode.Scalar) -> Bool {
        let valor = escalar.value
        if valor < 0x20 || (valor >= 0x7F && valor <= 0x9F) { return true }
        switch valor {
        case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF:
            return true
        default:
            return false
        }
    }

    /// Whether `texto` holds any control character.
    public static func tieneControl(_ texto: String) -> Bool {
        // Bytes, not scalars: every table cell and log line passes here. In UTF-8, C0 and DEL
        // are single bytes, C1 is 0xC2 followed by 0x80–0x9F, U+061C is 0xD8 0x9C, the format
        // characters of U+2000–U+206F start 0xE2 0x80 or 0xE2 0x81, and U+FEFF is 0xEF 0xBB 0xBF.
        var copia = texto
        return copia.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                if byte < 0x20 || byte == 0x7F { return true }
                if byte >= 0xC2 && i + 1 < bytes.count {
                    let segundo = bytes[i + 1]
                    switch byte {
                    case 0xC2 where segundo <= 0x9F: return true
                    case 0xD8 where segundo == 0x9C: return true
                    case 0xE2 where (segundo == 0x80 || segundo == 0x81) && i + 2 < bytes.count:
                        let tercero = bytes[i + 2]
                        let valor = 0x2000 | (UInt32(segundo & 0x3F) << 6) | UInt32(tercero & 0x3F)
                        if let escalar = Unicode.Scalar(valor), esControl(escalar) { return true }
                    case 0xEF where segundo == 0xBB && i + 2 < bytes.count && bytes[i + 2] == 0xBF:
                        return true
                    default: break
                    }
                }
                i += 1
            }
            return false
        }
    }
}
