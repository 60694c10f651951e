/// The attachment types a goal notice can carry, recognised by their first bytes (never by
/// the URL's suffix), with the size limits Apple documents for notification attachments.
public enum TipoDeAdjunto: String, Sendable, Hashable, CaseIterable {
    case jpeg
    case png
    case gif
    case mp4

    /// Recognises the type from the first bytes, or `nil` for anything else (BMP, text, empty…).
    public static func detectar(_ bytes: some Collection<UInt8>) -> TipoDeAdjunto? {
        let inicio = Array(bytes.prefix(12))
        if inicio.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if inicio.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if inicio.starts(with: Array("GIF87a".utf8)) || inicio.starts(with: Array("GIF89a".utf8)) {
            return .gif
        }
        // ISO base media: a box size, then "ftyp" at offset 4.
        if inicio.count >= 12, Array(inicio[4..<8]) == Array("ftyp".utf8) { return .mp4 }
        return nil
    }

    /// Images up to 10 MB, video up to 50 MB.
    public var limite: Int {
        switch self {
        case .jpeg, .png, .gif: 10 * 1024 * 1024
        case .mp4: 50 * 1024 * 1024
        }
    }

    public static let limiteMaximo = TipoDeAdjunto.allCases.map(\.limite).max()!

    public var sufijo: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .gif: "gif"
        case .mp4: "mp4"
        }
    }

    public var mime: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .mp4: "video/mp4"
        }
    }

    /// What the log calls a type that is not one of these.
    static func nombreDeLoDesconocido(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "fichero vacío" }
        if bytes.starts(with: Array("BM".utf8)) { return "BMP" }
        if bytes.prefix(64).allSatisfy({
            $0 == 9 || $0 == 10 || $0 == 13 || ($0 >= 32 && $0 < 127) || $0 >= 0x80
        }) {
            return "texto"
        }
        return "tipo desconocido"
    }
}
