import Almacen
import FoundationEssentials
import Torneo

/// Settings a stored channel may carry (the JSON object in `canal.ajustes`).
public struct AjustesDeCanal: Codable, Sendable, Hashable {
    public var url: String?
    public var directorio: String?
    public var bundle: String?
    /// Seconds a delivery may take.
    public var limite: Double?
    /// A webhook that speaks ntfy's headers.
    public var ntfy: Bool?

    public init(
        url: String? = nil, directorio: String? = nil, bundle: String? = nil, limite: Double? = nil,
        ntfy: Bool? = nil
    ) {
        self.ntfy = ntfy
        self.url = url
        self.directorio = directorio
        self.bundle = bundle
        self.limite = limite
    }

    public static func leer(_ json: String) -> AjustesDeCanal {
        (try? JSONDecoder().decode(AjustesDeCanal.self, from: Data(json.utf8))) ?? AjustesDeCanal()
    }

    public var json: String {
        let codificador = JSONEncoder()
        codificador.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? codificador.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// Builds the channel implementations from what is stored.
public enum FabricaDeCanales {
    public static let tipos = ["registro", "escritorio", "webhook", "apns"]

    /// The channel for `configurado`, or why it cannot work on this machine.
    public static func crear(
        _ configurado: CanalConfigurado, entorno: [String: String], registro: any Registro
    ) -> Result<any Notificador, FalloDeCanal> {
        let ajustes = AjustesDeCanal.leer(configurado.ajustes)
        switch configurado.tipo {
        case "registro":
            return .success(CanalRegistro(registro: registro))
        case "escritorio":
            if let motivo = CanalEscritorio.indisponibilidad(entorno: entorno) {
                return .failure(FalloDeCanal(canal: configurado.nombre, motivo: motivo))
            }
            return .success(
                CanalEscritorio(
                    canal: configurado.nombre, entorno: entorno, limite: ajustes.limite ?? 10))
        case "webhook":
            guard let url = ajustes.url else {
                return .failure(FalloDeCanal(canal: configurado.nombre, motivo: "no tiene URL"))
            }
            return .success(
                CanalWebhook(
                    canal: configurado.nombre, url: url, limite: ajustes.limite ?? 10,
                    ntfy: ajustes.ntfy ?? false))
        case "apns":
            guard let directorio = ajustes.directorio else {
                return .failure(
                    FalloDeCanal(canal: configurado.nombre, motivo: "no tiene directorio"))
            }
            if !existeFichero(directorio) {
                return .failure(
                    FalloDeCanal(
                        canal: configurado.nombre, motivo: "el directorio «\(directorio)» no existe"
                    ))
            }
            return .success(
                CanalAPNs(canal: configurado.nombre, directorio: directorio, bundle: ajustes.bundle)
            )
        default:
            return .failure(
                FalloDeCanal(
                    canal: configurado.nombre, motivo: "tipo desconocido «\(configurado.tipo)»"))
        }
    }

    /// Every active stored channel that works here, and the reasons of those that do not.
    public static func activos(
        _ buzon: BuzonSQLite, entorno: [String: String], registro: any Registro
    ) throws -> (canales: [any Notificador], fallos: [FalloDeCanal]) {
        var canales: [any Notificador] = []
        var fallos: [FalloDeCanal] = []
        for configurado in try buzon.canales() where configurado.activo {
            switch crear(configurado, entorno: entorno, registro: registro) {
            case .success(let canal): canales.append(canal)
            case .failure(let fallo): fallos.append(fallo)
            }
        }
        return (canales, fallos)
    }
}

/// A channel that cannot work on this machine, and why.
public struct FalloDeCanal: Error, Sendable, Hashable {
    public let canal: String
    public let motivo: String
}
