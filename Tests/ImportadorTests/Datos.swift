import Foundation

/// The public-domain openfootball files copied into `Tests/Recursos/openfootball` (CC0, with
/// their licence beside them): the repository stands alone.
enum Datos {
    static let carpeta: String = {
        let aqui = URL(fileURLWithPath: #filePath)
        return aqui.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Recursos/openfootball").path
    }()

    static func bytes(_ nombre: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: carpeta + "/" + nombre)))
    }
}
