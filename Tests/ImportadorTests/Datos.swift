import Foundation

/// The public-domain openfootball files in `../shared/data/openfootball`, next to the package.
enum Datos {
    static let carpeta: String = {
        let aqui = URL(fileURLWithPath: #filePath)
        let paquete = aqui.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return paquete.deletingLastPathComponent().appendingPathComponent(
            "shared/data/openfootball"
        ).path
    }()

    static func bytes(_ nombre: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: carpeta + "/" + nombre)))
    }
}
