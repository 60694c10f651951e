import Foundation
import Testing

@testable import Sistema

/// The importer's own JSON reader: RFC 8259 exactly, and safe with crafted files.
@Suite("AnalizadorJSON")
struct AnalizadorJSONTests {
    func leer(_ texto: String) throws -> ValorJSON { try AnalizadorJSON.leer(Array(texto.utf8)) }

    @Test func valoresDeTodosLosTipos() throws {
        let valor = try leer(
            #" { "a": [1, -2.5, 3e2, 0, -0.5E-1], "b": true, "c": false, "d": null, "e": "x" } "#)
        #expect(
            valor
                == .objeto([
                    "a": .lista([
                        .numero(1), .numero(-2.5), .numero(300), .numero(0), .numero(-0.05),
                    ]),
                    "b": .booleano(true), "c": .booleano(false), "d": .nulo, "e": .texto("x"),
                ]))
        #expect(try leer("[]") == .lista([]))
        #expect(try leer("{}") == .objeto([:]))
        #expect(try leer(#""solo""#) == .texto("solo"))
    }

    @Test func escapesYUnicode() throws {
        #expect(try leer(#""a\"b\\c\/d\b\f\n\r\t""#) == .texto("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try leer(#""Mbapp\u00e9""#) == .texto("Mbappé"))
        #expect(try leer(#""\u00E9 é""#) == .texto("é é"))
        // A character outside the BMP, as a surrogate pair.
        #expect(try leer(#""\ud83d\ude00""#) == .texto("😀"))
        #expect(try leer("\"Müller\"") == .texto("Müller"))
    }

    /// Whatever `JSONSerialization` writes, this reads back to the same values.
    @Test func leeLoQueEscribeFoundation() throws {
        let objeto: [String: Any] = [
            "nombre": "Côte d'Ivoire \"A\"\n", "números": [1, 2.25, -7, 1e10],
            "anidado": ["x": [["y": NSNull()]]],
        ]
        let datos = try JSONSerialization.data(withJSONObject: objeto)
        let valor = try AnalizadorJSON.leer(Array(datos))
        #expect(valor["nombre"] == .texto("Côte d'Ivoire \"A\"\n"))
        #expect(
            valor["números"] == .lista([.numero(1), .numero(2.25), .numero(-7), .numero(1e10)]))
        #expect(valor["anidado"] == .objeto(["x": .lista([.objeto(["y": .nulo])])]))
    }

    @Test(arguments: [
        "", " ", "[", "]", "{", "[1,]", "[1 2]", #"{"a" 1}"#, #"{"a":1,}"#, #"{a:1}"#, "01", "1.",
        ".5", "+1", "-", "1e", "tru", "nul", "True", #""sin cerrar"#, #""\x""#, #""\u12""#,
        #""\ud83d""#, #""\ud83d\u0041""#, #""\udc00""#, "[1] 2", "{} {}", "\"a\u{01}b\"", "NaN",
        "Infinity", "[1, 2, 3]]", "'a'",
    ])
    func rechazaLoQueNoEsJSON(texto: String) {
        #expect(throws: AnalizadorJSON.Fallo.self) { try leer(texto) }
    }

    @Test func rechazaUTF8Invalido() {
        #expect(throws: AnalizadorJSON.Fallo.self) {
            try AnalizadorJSON.leer([0x22, 0x61, 0xFF, 0x62, 0x22])
        }
        #expect(throws: AnalizadorJSON.Fallo.self) {
            try AnalizadorJSON.leer([0x22, 0xC3, 0x22])
        }
    }

    /// A file of 100,000 `[` fails cleanly instead of overflowing the stack.
    @Test func anidamientoProfundoFallaSinReventar() throws {
        let hondo = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: AnalizadorJSON.Fallo.self) { try leer(hondo) }
        let permitido = AnalizadorJSON.profundidadMaxima - 1
        let justo =
            String(repeating: "[", count: permitido) + String(repeating: "]", count: permitido)
        #expect(throws: Never.self) { try leer(justo) }
    }

    @Test func laClaveRepetidaSeQuedaConElUltimoValor() throws {
        #expect(try leer(#"{"a": 1, "a": 2}"#) == .objeto(["a": .numero(2)]))
    }
}
