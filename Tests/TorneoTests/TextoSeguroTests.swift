import Testing

@testable import Torneo

@Suite("TextoSeguro")
struct TextoSeguroTests {
    @Test func losControlesSeVenEscapados() {
        #expect(TextoSeguro.limpio("a\u{1B}[2Jb") == "a\\x1B[2Jb")
        #expect(TextoSeguro.limpio("\u{1B}]52;c;eA==\u{07}") == "\\x1B]52;c;eA==\\x07")
        #expect(TextoSeguro.limpio("uno\ndos\r") == "uno\\x0Ados\\x0D")
        #expect(TextoSeguro.limpio("n\u{00}l") == "n\\x00l")
        #expect(TextoSeguro.limpio("\u{9B}31m") == "\\u009B31m")
        #expect(TextoSeguro.limpio("\u{7F}") == "\\x7F")
    }

    /// Characters that reorder or hide what a reader sees (a name that shows as another, a log
    /// line that reads backwards) are escaped like C0 and C1 (safety.md).
    @Test func laBidiYLosDeAnchoCeroSeVenEscapados() {
        #expect(TextoSeguro.limpio("a\u{202E}bc") == "a\\u202Ebc")
        #expect(TextoSeguro.limpio("x\u{200B}y\u{200D}z\u{FEFF}") == "x\\u200By\\u200Dz\\uFEFF")
        #expect(TextoSeguro.limpio("\u{2066}uno\u{2069}") == "\\u2066uno\\u2069")
        #expect(TextoSeguro.limpio("l\u{2028}p\u{061C}") == "l\\u2028p\\u061C")
        #expect(TextoSeguro.tieneControl("\u{200E}"))
        // Their neighbours in the same blocks are ordinary text.
        for texto in ["a\u{2010}b", "«\u{2014}»", "\u{2070}", "\u{FEFE}", "\u{0627}"] {
            #expect(!TextoSeguro.tieneControl(texto), "\(texto)")
            #expect(TextoSeguro.limpio(texto) == texto)
        }
    }

    @Test func loNormalQuedaIgual() {
        for texto in ["Iván", "Cigüeñas FC", "Mandžukić", "李伟", "🙂", "a\\b", "«x»"] {
            #expect(TextoSeguro.limpio(texto) == texto)
            #expect(!TextoSeguro.tieneControl(texto))
        }
    }

    @Test func elResultadoNuncaTieneControles() {
        var todos = ""
        for valor in 0..<0x100 { todos.unicodeScalars.append(Unicode.Scalar(UInt8(valor))) }
        for valor in [0x061C, 0x2000, 0x200B, 0x202E, 0x2060, 0x2069, 0x206F, 0xFEFF] {
            todos.unicodeScalars.append(Unicode.Scalar(UInt32(valor))!)
        }
        #expect(!TextoSeguro.tieneControl(TextoSeguro.limpio(todos)))
        // The fast byte check and the per-character rule agree on every character around them.
        for valor in Array(0...0x300) + Array(0x0600...0x0700) + Array(0x2000...0x2100)
            + Array(0xFE00...0xFFFD)
        {
            guard let escalar = Unicode.Scalar(UInt32(valor)) else { continue }
            #expect(
                TextoSeguro.tieneControl(String(Character(escalar)))
                    == TextoSeguro.esControl(escalar), "U+\(String(valor, radix: 16))")
        }
    }
}
