/// The one rule for text that comes from data or from a peer (team, player, competition,
/// ground and channel names, error bodies, URLs) on its way to a terminal or a log line
/// (DESIGN §9): control characters — C0, DEL and C1, ESC, BEL, CR, LF and NUL among them — are
/// replaced by a visible escape, so a crafted name can never move the cursor, retitle or clear
/// the terminal, write the clipboard (OSC 52) or forge a log line.
public enum TextoSeguro {
    /// `texto` with every control character written as `\xHH` (C0, DEL) or `\u00HH` (C1).
    public static func limpio(_ texto: String) -> String {
        guard tieneControl(texto) else { return texto }
        var salida = String.UnicodeScalarView()
        for escalar in texto.unicodeScalars {
            guard esControl(escalar) else {
                salida.append(escalar)
                continue
            }
            let hex = String(escalar.value, radix: 16, uppercase: true)
            let relleno = String(repeating: "0", count: max(0, 2 - hex.count))
            let escape = escalar.value >= 0x80 ? "\\u00" + relleno + hex : "\\x" + relleno + hex
            salida.append(contentsOf: escape.unicodeScalars)
        }
        return String(salida)
    }

    /// C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F).
    public static func esControl(_ escalar: Unicode.Scalar) -> Bool {
        escalar.value < 0x20 || (escalar.value >= 0x7F && escalar.value <= 0x9F)
    }

    /// Whether `texto` holds any control character.
    public static func tieneControl(_ texto: String) -> Bool {
        // Bytes, not scalars: every table cell and log line passes here. In UTF-8, C0 and DEL
        // are single bytes and C1 is 0xC2 followed by 0x80–0x9F.
        var copia = texto
        return copia.withUTF8 { bytes in
            var anteriorEsC2 = false
            for byte in bytes {
                if byte < 0x20 || byte == 0x7F || (anteriorEsC2 && byte <= 0x9F && byte >= 0x80) {
                    return true
                }
                anteriorEsC2 = byte == 0xC2
            }
            return false
        }
    }
}
