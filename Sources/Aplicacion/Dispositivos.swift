import Avisos
import Dispatch
import Empuje
import FoundationEssentials
import Persistencia
import Torneo

/// A device as `dispositivos` and its `--json` show it: never its keys, only enough of its
/// token or endpoint to tell it apart.
public struct EstadoDeDispositivo: Sendable, Encodable {
    public var id: String
    /// `apns` or `webpush`.
    public var tipo: String
    public var activo: Bool
    /// It can be delivered to (its provider is configured).
    public var disponible: Bool
    public var motivo: String?
    /// The token's first and last characters, or the push service's origin.
    public var destino: String
    public var sigue: FiltrosDeCanal
    public var avisar: String
    public var horasTranquilas: String?
    public var retraso: Double
}

/// A device to add: an iPhone's token or a browser's subscription.
public enum DispositivoNuevo: Sendable, Hashable {
    case apns(token: String)
    case webPush(Dispositivo.Suscripcion)
}

/// The filters of §10/§15 a device takes, like a channel.
public struct PreferenciasDeDispositivo: Sendable, Hashable {
    public var seguimiento = Seguimiento()
    public var avisar: Set<ClaseDeAviso>?
    public var horasTranquilas: HorasTranquilas?
    public var retraso: Double = 0

    public init(
        seguimiento: Seguimiento = Seguimiento(), avisar: Set<ClaseDeAviso>? = nil,
        horasTranquilas: HorasTranquilas? = nil, retraso: Double = 0
    ) {
        self.seguimiento = seguimiento
        self.avisar = avisar
        self.horasTranquilas = horasTranquilas
        self.retraso = retraso
    }
}

/// Devices (contract.md §19): each is a channel of its own (`apns-dispositivo`, `webpush`) in
/// the outbox, so its deliveries have the leases, order and exactly-once of every channel.
extension Nucleo {
    public func dispositivos() throws -> [EstadoDeDispositivo] {
        let empuje = try credencialesDeEmpuje()
        return try tienda.buzon.dispositivos().map { canal in
            var motivo: String?
            if case .failure(let fallo) = FabricaDeCanales.crear(
                canal, entorno: entorno, registro: registro(eco: false), empuje: empuje)
            {
                motivo = fallo.motivo
            }
            let ajustes = AjustesDeCanal.leer(canal.ajustes)
            let destino: String
            if canal.tipo == .dispositivoAPNs {
                let token = ajustes.token ?? ""
                destino = token.count > 12 ? "\(token.prefix(6))…\(token.suffix(6))" : token
            } else {
                destino = ajustes.url.map(DireccionWeb.visible) ?? ""
            }
            return EstadoDeDispositivo(
                id: canal.nombre, tipo: canal.tipo == .dispositivoAPNs ? "apns" : "webpush",
                activo: canal.activo, disponible: motivo == nil, motivo: motivo,
                destino: destino, sigue: canal.filtros, avisar: ClaseDeAviso.texto(canal.avisar),
                horasTranquilas: canal.horasTranquilas?.description, retraso: canal.retraso)
        }
    }

    /// Adds a device, or updates it when the same token or endpoint is there already.
    /// - Returns: its id, and whether it is new.
    @discardableResult
    public func anadirDispositivo(
        _ nuevo: DispositivoNuevo, _ preferencias: PreferenciasDeDispositivo = .init()
    ) throws -> (id: String, nuevo: Bool) {
        var configurado = try dispositivoConfigurado(nuevo, preferencias)
        configurado.nombre = Self.nombreGuardado(
            configurado,
            antiguos: try tienda.buzon.dispositivosDeNombreAntiguo(
                Dispositivo.nombreAntiguo(configurado.nombre)))
        let existia = try tienda.buzon.existe(configurado.nombre) != nil
        _ = try tienda.buzon.guardar(configurado, reemplazar: true)
        return (configurado.nombre, !existia)
    }

    /// The id `canal` is stored under: its own, or the 40-bit one the same token or endpoint
    /// was given before (`Dispositivo.nombreAntiguo`), if the store has it.
    static func nombreGuardado(_ canal: CanalConfigurado, antiguos: [String: String]) -> String {
        let antiguo = Dispositivo.nombreAntiguo(canal.nombre)
        guard let guardados = antiguos[antiguo] else { return canal.nombre }
        let suyos = AjustesDeCanal.leer(canal.ajustes)
        let otros = AjustesDeCanal.leer(guardados)
        // The same 40 bits of another token are the collision the longer ids are for.
        return suyos.token == otros.token && suyos.url == otros.url ? antiguo : canal.nombre
    }

    /// The channel a device is stored as, after every check.
    func dispositivoConfigurado(
        _ nuevo: DispositivoNuevo, _ preferencias: PreferenciasDeDispositivo
    ) throws -> CanalConfigurado {
        var configurado = try Self.canalDeDispositivo(nuevo, preferencias)
        configurado.filtros = try filtros(de: preferencias.seguimiento)
        return configurado
    }

    /// The channel a device is stored as, checked, but for what it follows (which only the
    /// store can name): an import builds a million of them on every core at once.
    static func canalDeDispositivo(
        _ nuevo: DispositivoNuevo, _ preferencias: PreferenciasDeDispositivo
    ) throws(Fallo) -> CanalConfigurado {
        guard preferencias.retraso.isFinite,
            (0...Self.retrasoMaximo).contains(preferencias.retraso)
        else {
            throw Fallo.uso(
                "El retraso de un dispositivo va de 0 a \(Int(Self.retrasoMaximo)) segundos, no "
                    + "\(Textos.segundos(preferencias.retraso)).")
        }
        var configurado: CanalConfigurado
        do throws(Dispositivo.Fallo) {
            switch nuevo {
            case .apns(let texto):
                let token = try Dispositivo.token(texto)
                var ajustes = AjustesDeCanal()
                ajustes.token = token
                configurado = CanalConfigurado(
                    nombre: Dispositivo.nombre(apns: token), tipo: .dispositivoAPNs,
                    ajustes: ajustes.json)
            case .webPush(let suscripcion):
                try Dispositivo.comprobar(suscripcion)
                var ajustes = AjustesDeCanal(url: suscripcion.endpoint)
                ajustes.p256dh = suscripcion.keys.p256dh
                ajustes.auth = suscripcion.keys.auth
                configurado = CanalConfigurado(
                    nombre: Dispositivo.nombre(webPush: suscripcion.endpoint), tipo: .webpush,
                    ajustes: ajustes.json)
            }
        } catch {
            throw Fallo.datos("No se añade el dispositivo: \(error.mensaje).")
        }
        configurado.avisar = preferencias.avisar ?? ClaseDeAviso.porDefecto
        configurado.horasTranquilas = preferencias.horasTranquilas
        configurado.retraso = preferencias.retraso
        return configurado
    }

    public func quitarDispositivo(_ id: String) throws {
        guard
            try tienda.buzon.existe(id)?.esDispositivo == true,
            try tienda.buzon.quitarCanal(id)
        else {
            throw Fallo.noEncontrado(
                "No hay ningún dispositivo \(citado(id)). Míralos con «marcador dispositivos».")
        }
    }

    /// One device per line, as JSON: `{"apns": "TOKEN", …}` or `{"webpush": {subscription},
    /// …}`, with the filters `equipos`, `competiciones`, `partidos`, `avisar`,
    /// `horasTranquilas`, `retraso`. Every line is checked before any is stored: a bad line
    /// stores none, and says which.
    /// - Returns: how many were added and how many updated.
    public func importarDispositivos(_ bytes: [UInt8]) throws -> (nuevos: Int, cambiados: Int) {
        var lectura = LecturaDeDispositivos(bytes)
        // What each line follows, named by the store in line order, so that the first bad
        // line is the one reported. A million devices follow a handful of teams: each is
        // looked up once.
        var resueltos: [Seguimiento: FiltrosDeCanal] = [:]
        // Taken, not copied: a million channels, each with its retains.
        var configurados: [CanalConfigurado] = []
        swap(&configurados, &lectura.canales)
        for (i, seguimiento) in lectura.seguimientos.enumerated() {
            if let hecho = resueltos[seguimiento] {
                configurados[i].filtros = hecho
                continue
            }
            do {
                let nuevo = try filtros(de: seguimiento)
                resueltos[seguimiento] = nuevo
                configurados[i].filtros = nuevo
            } catch let fallo as Fallo {
                throw Fallo.datos("Línea \(lectura.lineas[i]): \(fallo.mensaje)")
            }
        }
        if let fallo = lectura.fallo { throw Fallo.datos("Línea \(fallo.linea): \(fallo.motivo)") }
        // Devices stored under the first ids keep them (one query: none in a store made since).
        let antiguos = try tienda.buzon.dispositivosDeNombreAntiguo(nil)
        if !antiguos.isEmpty {
            for i in configurados.indices {
                configurados[i].nombre = Self.nombreGuardado(configurados[i], antiguos: antiguos)
            }
        }
        // One transaction for the whole file, all or none, in device-id order: each insert
        // lands next to the last one in the table's and the index's pages instead of on a
        // random page of a million-row tree (four times faster). A device named twice keeps
        // its last line.
        LecturaDeDispositivos.ordenarPorNombre(&configurados)
        let nuevos = try tienda.buzon.guardar(configurados)
        let cambiados = configurados.count - nuevos
        // Freeing a million channels, each with its strings, takes seconds the caller would
        // wait for after its answer is known: they are let go on another thread.
        Self.soltarAParte((consume lectura, consume configurados))
        return (nuevos, cambiados)
    }
}

extension Nucleo {
    /// Drops `valor` on a background thread: the last reference is the block's.
    fileprivate static func soltarAParte(_ valor: consuming some Sendable) {
        let valor = valor
        DispatchQueue.global(qos: .background).async { withExtendedLifetime(valor) {} }
    }

    /// A user's small file (a `.p8`, a subscription, a list of devices), whole, or why not.
    public static func leerFicheroDeUsuario(_ ruta: String, maximo: Int) throws -> [UInt8] {
        try leerBytes(ruta, maximo: maximo)
    }
}
