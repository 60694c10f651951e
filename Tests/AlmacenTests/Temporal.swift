import Foundation

/// A private temporary directory for one test, removed when the test's value goes away.
final class CarpetaTemporal {
    let ruta: String

    init() {
        ruta = NSTemporaryDirectory() + "marcador-almacen-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: ruta, withIntermediateDirectories: true)
    }

    func fichero(_ nombre: String) -> String { ruta + "/" + nombre }

    deinit { try? FileManager.default.removeItem(atPath: ruta) }
}
