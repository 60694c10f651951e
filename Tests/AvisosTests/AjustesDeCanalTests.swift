import Foundation
import Testing

@testable import Avisos

/// The hand-written reader and writer of a channel's settings say what the coders said: rows
/// stored before them read the same, and rows they write compare equal to the old ones.
@Suite("AjustesDeCanal")
struct AjustesDeCanalTests {
    private func codificado(_ ajustes: AjustesDeCanal) throws -> String {
        let codificador = JSONEncoder()
        codificador.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try codificador.encode(ajustes), as: UTF8.self)
    }

    static let muestras: [AjustesDeCanal] = {
        var apns = AjustesDeCanal()
        apns.token = String(repeating: "ab", count: 32)
        var web = AjustesDeCanal(url: "https://push.ejemplo.es/w/1?a=b&c=/d")
        web.p256dh = "BPx-_0"
        web.auth = "c2VjcmV0"
        var raro = AjustesDeCanal(
            url: "http://x/\"comillas\"\\barra", directorio: "/tmp/ñandú 🎉\u{2028}",
            bundle: "\u{01}\u{08}\u{09}\u{0A}\u{0B}\u{0C}\u{0D}\u{1F}\u{7F}", ntfy: true)
        raro.token = ""
        return [
            AjustesDeCanal(), apns, web, raro, AjustesDeCanal(ntfy: false),
            AjustesDeCanal(url: "https://ntfy.sh/gol", limite: 2.5, ntfy: true),
            AjustesDeCanal(directorio: "/srv/apns", limite: 5),
        ]
    }()

    @Test(arguments: muestras)
    func escribeComoElCodificador(_ ajustes: AjustesDeCanal) throws {
        #expect(ajustes.json == (try codificado(ajustes)))
        #expect(AjustesDeCanal.leer(ajustes.json) == ajustes)
    }

    @Test(arguments: [
        #"{"url": "https://a", "ntfy": true, "limite": 3}"#, #"{ "token" : null }"#,
        #"{"url": 5}"#, #"{"ntfy": "sí"}"#, #"{"limite": "3"}"#, "[]", "", "{", "nulo",
        #"{"url": "https://a", "otro": [1, {"x": 2}]}"#, #"{"url": "\u00e9\n"}"#,
        #"{"url": "a"} x"#,
    ])
    func leeComoElDescodificador(_ json: String) {
        let esperado =
            (try? JSONDecoder().decode(AjustesDeCanal.self, from: Data(json.utf8)))
            ?? AjustesDeCanal()
        #expect(AjustesDeCanal.leer(json) == esperado, "\(json)")
    }
}
