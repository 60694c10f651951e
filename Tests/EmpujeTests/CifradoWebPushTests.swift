import Empuje
import Testing

/// RFC 8291's own example (Appendix A), byte for byte: the same keys, auth secret and salt
/// must give the same body; and what the module makes by itself differs every time.
@Suite("Cifrado de Web Push (RFC 8291)")
struct CifradoWebPushTests {
    static func b(_ texto: String) -> [UInt8] { Base64URL.descodificar(texto) ?? [] }

    @Test func elEjemploDelApendiceASeReproduceByteAByte() throws {
        let cuerpo = try CifradoWebPush.cifrar(
            Array("When I grow up, I want to be a watermelon".utf8),
            p256dh: Self.b(
                "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
            ),
            auth: Self.b("BTBZMqHH6r4Tts7J_aSIgg"),
            efimera: (
                Self.b("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"),
                Self.b(
                    "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
                )
            ),
            sal: Self.b("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(
            Base64URL.codificar(cuerpo)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
    }

    @Test func sinClavesFijadasCadaMensajeEsOtro() throws {
        let p256dh = Self.b(
            "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
        )
        let auth = Self.b("BTBZMqHH6r4Tts7J_aSIgg")
        let uno = try CifradoWebPush.cifrar(Array("gol".utf8), p256dh: p256dh, auth: auth)
        let otro = try CifradoWebPush.cifrar(Array("gol".utf8), p256dh: p256dh, auth: auth)
        #expect(uno.count == 86 + 3 + 1 + 16)
        #expect(uno != otro)
        #expect(Array(uno[16..<21]) == [0, 0, 0x10, 0, 65])
    }

    @Test func unaSuscripcionConClavesQueNoSonDeLaCurvaSeRechaza() {
        var fuera = [UInt8](repeating: 7, count: 65)
        fuera[0] = 0x04
        #expect(throws: CifradoWebPush.Fallo.claveDeSuscripcionInvalida) {
            try CifradoWebPush.cifrar([1], p256dh: fuera, auth: [UInt8](repeating: 0, count: 16))
        }
        #expect(throws: CifradoWebPush.Fallo.claveDeSuscripcionInvalida) {
            try CifradoWebPush.cifrar([1], p256dh: [4], auth: [])
        }
        #expect(throws: CifradoWebPush.Fallo.demasiadoLargo) {
            try CifradoWebPush.cifrar(
                [UInt8](repeating: 0, count: 4080), p256dh: [UInt8](repeating: 4, count: 65),
                auth: [UInt8](repeating: 0, count: 16))
        }
    }

    @Test(arguments: [[], [0], [0xFF, 0xFE], [1, 2, 3, 4, 5, 6, 7]] as [[UInt8]])
    func base64URLIdaYVuelta(_ bytes: [UInt8]) {
        #expect(Base64URL.descodificar(Base64URL.codificar(bytes)) == bytes)
        #expect(!Base64URL.codificar(bytes).contains("="))
    }
}
