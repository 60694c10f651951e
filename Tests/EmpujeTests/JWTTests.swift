import Empuje
import Foundation
import Testing

/// ES256 tokens as APNs and VAPID read them: signed by the key, refused under another key or
/// after a byte changed, and a `.p8` read as Apple writes it (made here by the openssl tool).
@Suite("JWT ES256")
struct JWTTests {
    @Test func unaFirmaSeVerificaConSuClaveYNoConOtra() throws {
        let clave = try ClaveP256.nueva()
        let otra = try ClaveP256.nueva()
        let token = try JWT.firmar(
            cabecera: [("kid", .texto("ABC123DEFG"))],
            reclamaciones: [("iss", .texto("DEF123GHIJ")), ("iat", .entero(1_764_950_400))],
            clave: clave)
        #expect(JWT.verificar(token, publica: clave.publica))
        #expect(!JWT.verificar(token, publica: otra.publica))
        let partes = token.split(separator: ".").map(String.init)
        #expect(partes.count == 3)
        #expect(
            Base64URL.descodificar(partes[0]).map { String(decoding: $0, as: UTF8.self) }
                == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
        #expect(
            Base64URL.descodificar(partes[1]).map { String(decoding: $0, as: UTF8.self) }
                == #"{"iss":"DEF123GHIJ","iat":1764950400}"#)
        // Another claim under the same signature is refused.
        let cambiado =
            partes[0] + "."
            + Base64URL.codificar(Array(#"{"iss":"DEF123GHIJ","iat":1764950401}"#.utf8)) + "."
            + partes[2]
        #expect(!JWT.verificar(cambiado, publica: clave.publica))
    }

    @Test func lasReclamacionesSeEscapan() throws {
        let clave = try ClaveP256.nueva()
        let token = try JWT.firmar(
            cabecera: [], reclamaciones: [("sub", .texto("mailto:\"a\"\u{1}@b"))], clave: clave)
        let carga = token.split(separator: ".").map(String.init)[1]
        #expect(
            Base64URL.descodificar(carga).map { String(decoding: $0, as: UTF8.self) }
                == #"{"sub":"mailto:\"a\"\u0001@b"}"#)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
    func unP8DeAppleSeLeeYFirma() throws {
        let carpeta = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jwt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: carpeta, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: carpeta) }
        let p8 = carpeta.appendingPathComponent("AuthKey.p8").path
        let publicaPEM = carpeta.appendingPathComponent("publica.pem").path
        try openssl([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", p8,
        ])
        try openssl(["pkey", "-in", p8, "-pubout", "-out", publicaPEM])
        let clave = try ClaveP256(p8: String(contentsOfFile: p8, encoding: .utf8))
        // The signature checks out with the openssl tool too (DER, from r || s).
        let datos = Array("cabecera.reclamaciones".utf8)
        let firma = try clave.firmar(datos)
        #expect(ClaveP256.verificar(publica: clave.publica, datos: datos, firma: firma))
        let der = Self.der(firma)
        let ficheroDatos = carpeta.appendingPathComponent("datos").path
        let ficheroFirma = carpeta.appendingPathComponent("firma").path
        _ = FileManager.default.createFile(atPath: ficheroDatos, contents: Data(datos))
        _ = FileManager.default.createFile(atPath: ficheroFirma, contents: Data(der))
        try openssl([
            "dgst", "-sha256", "-verify", publicaPEM, "-signature", ficheroFirma, ficheroDatos,
        ])
        // Not a P-256 PKCS#8 key: refused, never a crash.
        try openssl([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", p8,
        ])
        #expect(throws: ClaveP256.Fallo.noEsUnaClaveP256) {
            try ClaveP256(p8: String(contentsOfFile: p8, encoding: .utf8))
        }
        #expect(throws: ClaveP256.Fallo.noEsUnaClaveP256) {
            try ClaveP256(p8: "-----BEGIN PRIVATE KEY-----\nAAAA\n")
        }
        #expect(throws: ClaveP256.Fallo.noEsUnaClaveP256) { try ClaveP256(p8: "") }
    }

    func openssl(_ argumentos: [String]) throws {
        let proceso = Process()
        proceso.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        proceso.arguments = argumentos
        proceso.standardOutput = FileHandle.nullDevice
        proceso.standardError = FileHandle.nullDevice
        try proceso.run()
        proceso.waitUntilExit()
        #expect(proceso.terminationStatus == 0, "openssl \(argumentos.joined(separator: " "))")
    }

    /// An ECDSA signature in DER (SEQUENCE of two INTEGERs), as openssl reads it.
    static func der(_ firma: [UInt8]) -> [UInt8] {
        func entero(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var valor = Array(bytes.drop { $0 == 0 })
            if valor.isEmpty { valor = [0] }
            if valor[0] & 0x80 != 0 { valor.insert(0, at: 0) }
            return [0x02, UInt8(valor.count)] + valor
        }
        let cuerpo = entero(firma[0..<32]) + entero(firma[32..<64])
        return [0x30, UInt8(cuerpo.count)] + cuerpo
    }
}
