import Empuje
import FoundationEssentials
import Persistencia
import Torneo

/// Builds the channel implementations from what is stored.
public enum FabricaDeCanales {
    /// The channel for `configurado`, or why it cannot work on this machine.
    public static func crear(
        _ configurado: CanalConfigurado, entorno: [String: String], registro: any Registro,
        cambios: (any Cambios)? = nil, empuje: CredencialesDeEmpuje = CredencialesDeEmpuje(),
        conexion: Int = 0,
        ahora: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) -> Result<any Notificador, FalloDeCanal> {
        let ajustes = AjustesDeCanal.leer(configurado.ajustes)
        let nombre = configurado.nombre
        func fallo(_ motivo: String) -> Result<any Notificador, FalloDeCanal> {
            .failure(FalloDeCanal(canal: nombre, motivo: motivo))
        }
        switch configurado.tipo {
        case .registro:
            return .success(CanalRegistro(canal: nombre, registro: registro))
        case .escritorio:
            if let motivo = CanalEscritorio.indisponibilidad(entorno: entorno) {
                return fallo(motivo)
            }
            return .success(
                CanalEscritorio(canal: nombre, entorno: entorno, limite: ajustes.limite ?? 10))
        case .webhook:
            guard let url = ajustes.url else { return fallo("no tiene URL") }
            do {
                _ = try DireccionWeb(url)
            } catch {
                return fallo("la URL \(error.mensaje)")
            }
            return .success(
                CanalWebhook(
                    canal: nombre, url: url, limite: ajustes.limite ?? 10,
                    ntfy: ajustes.ntfy ?? false))
        case .apns:
            guard let directorio = ajustes.directorio else { return fallo("no tiene directorio") }
            if !existeFichero(directorio) {
                return fallo("el directorio «\(TextoSeguro.limpio(directorio))» no existe")
            }
            return .success(
                CanalAPNs(canal: nombre, directorio: directorio, bundle: ajustes.bundle))
        case .navegador:
            guard let cambios else { return fallo("este proceso no escribe en la base") }
            return .success(CanalNavegador(canal: nombre, cambios: cambios))
        case .dispositivoAPNs:
            guard let credenciales = empuje.apns else {
                return fallo("falta configurar APNs (marcador empuje apns)")
            }
            guard let token = ajustes.token, Dispositivo.tokenValido(token) else {
                return fallo("no tiene un token de dispositivo válido")
            }
            return .success(
                CanalDispositivoAPNs(
                    canal: nombre, token: token, credenciales: credenciales,
                    limite: ajustes.limite ?? 10, conexion: conexion, ahora: ahora))
        case .webpush:
            guard let credenciales = empuje.webPush else {
                return fallo("falta configurar Web Push (marcador empuje webpush)")
            }
            guard let url = ajustes.url, let endpoint = try? DireccionWeb(url),
                let p256dh = ajustes.p256dh.flatMap(Base64URL.descodificar),
                let auth = ajustes.auth.flatMap(Base64URL.descodificar)
            else { return fallo("su suscripción no es válida") }
            return .success(
                CanalWebPush(
                    canal: nombre, endpoint: endpoint, p256dh: p256dh, auth: auth,
                    credenciales: credenciales, limite: ajustes.limite ?? 10,
                    conexion: conexion, ahora: ahora))
        }
    }

    /// Every active stored channel that works here, and the reasons of those that do not.
    public static func activos(
        _ configurados: [CanalConfigurado], entorno: [String: String], registro: any Registro,
        cambios: (any Cambios)? = nil, empuje: CredencialesDeEmpuje = CredencialesDeEmpuje(),
        ahora: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) -> (canales: [CanalActivo], fallos: [FalloDeCanal]) {
        var canales: [CanalActivo] = []
        var fallos: [FalloDeCanal] = []
        for configurado in configurados where configurado.activo {
            switch crear(
                configurado, entorno: entorno, registro: registro, cambios: cambios,
                empuje: empuje, ahora: ahora)
            {
            case .success(let canal):
                canales.append(
                    CanalActivo(
                        notificador: canal, firma: configurado.firma,
                        horasTranquilas: configurado.horasTranquilas))
            case .failure(let fallo): fallos.append(fallo)
            }
        }
        return (canales, fallos)
    }
}

extension CanalConfigurado {
    /// What identifies this configuration: a lane is rebuilt when it changes (a new URL).
    public var firma: String {
        "\(tipo.rawValue) \(ajustes) \(horasTranquilas?.description ?? "")"
    }
}

/// A channel that cannot work on this machine, and why.
public struct FalloDeCanal: Error, Sendable, Hashable {
    public let canal: String
    public let motivo: String
}
