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

    @Test func loNormalQuedaIgual() {
        for texto in ["Iván", "Cigüeñas FC", "Mandžukić", "李伟", "🙂", "a\\b", "«x»"] {
            #expect(TextoSeguro.limpio(texto) == texto)
            #expect(!TextoSeguro.tieneControl(texto))
        }
    }

    @Test func elResultadoNuncaTieneControles() {
        var todos = ""
        for valor in 0..<0x100 { todos.unicodeScalars.append(Unicode.Scalar(UInt8(valor))) }
        #expect(!TextoSeguro.tieneControl(TextoSeguro.limpio(todos)))
    }
}
