import Foundation

/// Small real files of each type, built from their bytes (no binary fixtures to keep in sync).
enum Muestras {
    static func hex(_ texto: String) -> Data {
        var datos = Data()
        var indice = texto.startIndex
        while indice < texto.endIndex {
            let siguiente = texto.index(indice, offsetBy: 2)
            datos.append(UInt8(texto[indice..<siguiente], radix: 16)!)
            indice = siguiente
        }
        return datos
    }

    /// A 1×1 RGB PNG with valid CRCs.
    static let png = hex(
        "89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c49444154789c63f8cfc0000003010100c9fe92ef0000000049454e44ae426082"
    )

    /// A 1×1 baseline JFIF JPEG.
    static let jpeg = hex(
        "ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffc0000b080001000101011100ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffda0008010100003f00fbd0ffd9"
    )

    /// The seed's animated GIF (2×2, two frames), as shipped in `seeds/gol.gif`.
    static let gif: Data = {
        let paquete = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? Data(contentsOf: paquete.appendingPathComponent("seeds/gol.gif"))) ?? Data()
    }()

    /// An ISO base media file: an `ftyp` box (isom) followed by an empty `mdat`.
    static let mp4 = hex(
        "0000001c667479706973736f6d0000020069736f6d69736f326d703431" + "000000086d646174")

    /// A 1×1 BMP, a text file and nothing: none of them may be attached.
    static let bmp = hex(
        "424d3a0000000000000036000000280000000100000001000000010018000000000004000000130b0000130b0000000000000000000000ff0000"
    )
    static let texto = Data("esto no es una imagen\n".utf8)
}
