import Torneo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Desktop notifications through the freedesktop notification service
/// (https://specifications.freedesktop.org/notification-spec/), by way of `notify-send`.
///
/// The identifier is mapped to a fixed `replaces_id`, so a redelivery of the same goal replaces
/// the notification on screen instead of adding a second one.
public struct CanalEscritorio: Notificador {
    public let canal: String
    let entorno: [String: String]
    let limite: Double

    public init(canal: String = "escritorio", entorno: [String: String], limite: Double = 10) {
        self.canal = canal
        self.entorno = entorno
        self.limite = limite
    }

    /// Why this machine cannot show desktop notifications, or `nil` when it can.
    public static func indisponibilidad(entorno: [String: String]) -> String? {
        if !Subproceso.existe("notify-send", path: entorno["PATH"]) {
            return "falta notify-send (paquete libnotify-bin)"
        }
        let bus = entorno["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        let runtime = entorno["XDG_RUNTIME_DIR"].map { $0 + "/bus" }
        if bus.isEmpty && !(runtime.map(existeFichero) ?? false) {
            return "no hay sesión de D-Bus (DBUS_SESSION_BUS_ADDRESS vacío): no hay escritorio"
        }
        return nil
    }

    /// A stable, positive 31-bit number for the identifier (FNV-1a): the same goal always gets
    /// the same `replaces_id`.
    public static func idDeReemplazo(_ identificador: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in identificador.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return (hash & 0x7FFF_FFFF) | 1
    }

    /// What `notify-send` is given for `aviso`: the body with its markup escaped.
    static func argumentos(_ aviso: AvisoDeGol) -> [String] {
        var argumentos = [
            "--app-name=marcador",
            "--replace-id=\(idDeReemplazo("partido-\(aviso.partidoId)-\(aviso.identificador)"))",
            "--category=im.received",
        ]
        if let local = aviso.adjuntoLocal, aviso.tipoDeAdjunto != "mp4" {
            argumentos.append("--hint=string:image-path:file://\(local)")
        }
        // Quiet hours: low urgency and no sound (the specification's hints).
        if aviso.tranquilo {
            argumentos += ["--urgency=low", "--hint=boolean:suppress-sound:true"]
        }
        return argumentos + ["--", aviso.titulo, sinMarcado(aviso.cuerpo)]
    }

    /// The body as plain text for servers that read it as markup (the specification allows
    /// `<b>`, `<a href>`, `<img>`): a name can neither link, load an image nor restyle.
    public static func sinMarcado(_ texto: String) -> String {
        var salida = ""
        salida.reserveCapacity(texto.utf8.count)
        for caracter in texto {
            switch caracter {
            case "&": salida += "&amp;"
            case "<": salida += "&lt;"
            case ">": salida += "&gt;"
            case "\"": salida += "&quot;"
            case "'": salida += "&#39;"
            default: salida.append(caracter)
            }
        }
        return salida
    }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        if let motivo = Self.indisponibilidad(entorno: entorno) {
            throw FalloDeEntrega("escritorio no disponible: \(motivo)", reintentable: true)
        }
        let argumentos = Self.argumentos(aviso)
        do {
            let resultado = try await Subproceso.ejecutar("notify-send", argumentos, limite: limite)
            guard resultado.codigo == 0 else {
                let detalle = resultado.error.trimmingCharacters(in: " \n")
                throw FalloDeEntrega(
                    "notify-send terminó con \(resultado.codigo): \(TextoSeguro.limpio(detalle))",
                    reintentable: true)
            }
        } catch Subproceso.Fallo.tiempoAgotado {
            throw FalloDeEntrega("notify-send no respondió en \(Int(limite)) s", reintentable: true)
        } catch Subproceso.Fallo.noArranca(let motivo) {
            throw FalloDeEntrega("no se pudo ejecutar notify-send: \(motivo)", reintentable: true)
        }
    }
}

func existeFichero(_ ruta: String) -> Bool {
    access(ruta, F_OK) == 0
}
