import Empuje
import Testing

/// A subscription's `p256dh` is checked by the curve's equation alone when it is imported
/// (contract.md §20): what the check accepts must be exactly the points an ECDH can use.
@Suite("Puntos de P-256")
struct ClaveP256Tests {
    @Test func unaClavePublicaNuevaEsUnPunto() throws {
        for _ in 0..<20 {
            #expect(ClaveP256.esPunto(try ClaveP256.nueva().publica))
        }
    }

    /// −P = (X, p − Y) is on the curve too; flipping one bit of Y leaves it.
    @Test func elOpuestoEsUnPuntoYUnBitCambiadoNo() throws {
        let publica = try ClaveP256.nueva().publica
        let p: [UInt8] = [
            0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xFF, 0xFF, 0xFF, 0xFF,
        ]
        var opuesto = publica
        var prestado = 0
        for i in (0..<32).reversed() {
            let resta = Int(p[i]) - Int(publica[33 + i]) - prestado
            opuesto[33 + i] = UInt8((resta + 256) % 256)
            prestado = resta < 0 ? 1 : 0
        }
        #expect(ClaveP256.esPunto(opuesto))
        var cambiado = publica
        cambiado[64] ^= 1
        #expect(!ClaveP256.esPunto(cambiado))
    }

    @Test(arguments: [0x00, 0x02, 0x03, 0x06] as [UInt8])
    func otroPrefijoQueElSinComprimirNoEsUnPunto(_ prefijo: UInt8) throws {
        var publica = try ClaveP256.nueva().publica
        publica[0] = prefijo
        #expect(!ClaveP256.esPunto(publica))
    }

    @Test func unaLongitudQueNoEs65NoEsUnPunto() throws {
        let publica = try ClaveP256.nueva().publica
        #expect(!ClaveP256.esPunto(Array(publica.prefix(33))))
        #expect(!ClaveP256.esPunto(publica + [0]))
        #expect(!ClaveP256.esPunto([]))
        #expect(!ClaveP256.esPunto([UInt8](repeating: 0, count: 65)))
    }
}
