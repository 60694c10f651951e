import Avisos
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
        let configurado = try dispositivoConfigurado(nuevo, preferencias)
        let existia = try tienda.buzon.existe(configurado.nombre) != nil
        _ = try tienda.buzon.guardar(configurado, reemplazar: true)
        return (configurado.nombre, !existia)
    }

    /// The channel a device is stored as, after every check.
    /// - Parameter resolver: what a `Seguimiento` names, as stored (`filtros(de:)`; an import
    ///   asks it once per distinct one, not once per line).
    func dispositivoConfigurado(
        _ nuevo: DispositivoNuevo, _ preferencias: PreferenciasDeDispositivo,
        resolver: ((Seguimiento) throws -> FiltrosDeCanal)? = nil
    ) throws -> CanalConfigurado {
        guard preferencias.retraso.isFinite,
            (0...Self.retrasoMaximo).contains(preferencias.retraso)
        else {
            throw Fallo.uso(
                "El retraso de un dispositivo va de 0 a \(Int(Self.retrasoMaximo)) segundos, no "
                    + "\(Textos.segundos(preferencias.retraso)).")
        }
        var configurado: CanalConfigurado
        do {
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
        configurado.filtros = try (resolver ?? filtros(de:))(preferencias.seguimiento)
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
    public func importarDispositivos(_ texto: String) throws -> (nuevos: Int, cambiados: Int) {
        struct Linea: Decodable {
            var apns: String?
            var webpush: Dispositivo.Suscripcion?
            var equipos: [String]?
            var competiciones: [String]?
            var partidos: [Int]?
            var avisar: String?
            var horasTranquilas: String?
            var retraso: Double?
        }
        var configurados: [CanalConfigurado] = []
        // A million devices follow a handful of teams: each is looked up once.
        var resueltos: [Seguimiento: FiltrosDeCanal] = [:]
        func resolver(_ seguimiento: Seguimiento) throws -> FiltrosDeCanal {
            if let hecho = resueltos[seguimiento] { return hecho }
            let nuevo = try filtros(de: seguimiento)
            resueltos[seguimiento] = nuevo
            return nuevo
        }
        let decodificador = JSONDecoder()
        for (numero, linea) in texto.utf8.split(
            separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false
        ).enumerated() {
            // Bytes, not characters: a million lines are read in seconds.
            let limpia = Data(linea.filter { $0 != UInt8(ascii: "\r") })
            if limpia.allSatisfy({ [0x20, 0x09, 0x0B, 0x0C].contains($0) }) { continue }
            func mal(_ motivo: String) -> Fallo {
                .datos("Línea \(numero + 1): \(motivo)")
            }
            guard let leida = try? decodificador.decode(Linea.self, from: limpia) else {
                throw mal(
                    "no es un dispositivo en JSON ({\"apns\": \"TOKEN\"} o {\"webpush\": {…}}).")
            }
            let nuevo: DispositivoNuevo
            if let token = leida.apns, leida.webpush == nil {
                nuevo = .apns(token: token)
            } else if let suscripcion = leida.webpush, leida.apns == nil {
                nuevo = .webPush(suscripcion)
            } else {
                throw mal("lleva «apns» o «webpush», uno de los dos.")
            }
            var preferencias = PreferenciasDeDispositivo(
                seguimiento: Seguimiento(
                    equipos: leida.equipos ?? [], competiciones: leida.competiciones ?? [],
                    partidos: leida.partidos ?? []), retraso: leida.retraso ?? 0)
            if let avisar = leida.avisar {
                guard let clases = ClaseDeAviso.leer(avisar) else {
                    throw mal("«avisar» no son clases de aviso: \(TextoSeguro.limpio(avisar)).")
                }
                preferencias.avisar = clases
            }
            if let horas = leida.horasTranquilas {
                guard let leidas = HorasTranquilas(horas) else {
                    throw mal("«horasTranquilas» va como 23:00-08:00.")
                }
                preferencias.horasTranquilas = leidas
            }
            do {
                configurados.append(
                    try dispositivoConfigurado(nuevo, preferencias, resolver: resolver))
            } catch let fallo as Fallo {
                throw mal(fallo.mensaje)
            }
        }
        // One transaction for the whole file, all or none, in device-id order: each insert
        // lands next to the last one in the table's and the index's pages instead of on a
        // random page of a million-row tree. A device named twice keeps its last line.
        let ordenados = configurados.indices.sorted {
            (configurados[$0].nombre, $0) < (configurados[$1].nombre, $1)
        }.map { configurados[$0] }
        let nuevos = try tienda.buzon.guardar(ordenados)
        return (nuevos, Set(configurados.map(\.nombre)).count - nuevos)
    }
}

extension Nucleo {
    /// A user's small file (a `.p8`, a subscription, a list of devices), whole, or why not.
    public static func leerFicheroDeUsuario(_ ruta: String, maximo: Int) throws -> [UInt8] {
        try leerBytes(ruta, maximo: maximo)
    }
}
