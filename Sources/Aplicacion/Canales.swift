import Avisos
import Persistencia
import Torneo

/// A channel as `avisos`, `avisos canales` and their `--json` show it.
public struct EstadoDeCanal: Sendable, Encodable {
    public var nombre: String
    public var tipo: String
    public var activo: Bool
    /// It works on this machine.
    public var disponible: Bool
    /// Why not, when it does not.
    public var motivo: String?
    /// Its settings as they may be shown (a webhook URL keeps only scheme, host and port).
    public var ajustes: String
    public var sigue: FiltrosDeCanal
}

/// What a user asks a channel to follow, in their own words (names found by the core).
public struct Seguimiento: Sendable, Hashable {
    public var equipos: [String]
    public var competiciones: [String]
    public var partidos: [Int]

    public init(equipos: [String] = [], competiciones: [String] = [], partidos: [Int] = []) {
        self.equipos = equipos
        self.competiciones = competiciones
        self.partidos = partidos
    }

    public var vacio: Bool { equipos.isEmpty && competiciones.isEmpty && partidos.isEmpty }
}

/// The channels of delivery.md and their following (§10).
extension Nucleo {
    /// Every configured channel, with whether it works here.
    public func canales() throws -> [EstadoDeCanal] {
        let empuje = try credencialesDeEmpuje()
        return try tienda.buzon.canales().map { canal in
            var motivo: String?
            if case .failure(let fallo) = FabricaDeCanales.crear(
                canal, entorno: entorno, registro: registro(eco: false), cambios: tienda.cambios,
                empuje: empuje)
            {
                motivo = fallo.motivo
            }
            return EstadoDeCanal(
                nombre: canal.nombre, tipo: canal.tipo.rawValue, activo: canal.activo,
                disponible: motivo == nil, motivo: motivo, ajustes: Self.visibles(canal),
                sigue: canal.filtros)
        }
    }

    /// The longest delay a channel may ask (`--retraso`): an hour, more than any stream lags.
    public static let retrasoMaximo: Double = 3600

    /// Adds a channel after checking its name, what it follows and that it works here.
    /// - Returns: the name it was stored under.
    /// - Throws: `Fallo.uso` for a bad or taken name (unless `reemplazar`),
    ///   `Fallo.noDisponible` for a channel this machine cannot serve.
    @discardableResult
    public func anadirCanal(
        _ tipo: TipoDeCanal, nombre elegido: String?, ajustes: AjustesDeCanal,
        seguimiento: Seguimiento = Seguimiento(), reemplazar: Bool = false,
        avisar: Set<ClaseDeAviso>? = nil, horasTranquilas: HorasTranquilas? = nil,
        retraso: Double = 0, antes: Antelacion? = nil
    ) throws -> String {
        let nombre = elegido ?? tipo.rawValue
        guard !nombre.isEmpty, nombre.count <= 64, !TextoSeguro.tieneControl(nombre),
            nombre != TipoDeCanal.nombreTerminal
        else {
            throw Fallo.uso(
                "\(citado(nombre)) no vale como nombre de canal "
                    + "(de 1 a 64 caracteres, sin caracteres de control; «terminal» está reservado)."
            )
        }
        guard retraso.isFinite, (0...Self.retrasoMaximo).contains(retraso) else {
            throw Fallo.uso(
                "El retraso de un canal va de 0 a \(Int(Self.retrasoMaximo)) segundos, no "
                    + "\(Textos.segundos(retraso)).")
        }
        if tipo.esDispositivo {
            throw Fallo.uso("Los dispositivos se añaden con «marcador dispositivos añadir».")
        }
        if tipo == .webhook { try Self.comprobarURLDeWebhook(ajustes.url) }
        var configurado = CanalConfigurado(
            nombre: nombre, tipo: tipo, ajustes: ajustes.json,
            filtros: try filtros(de: seguimiento))
        configurado.avisar = avisar ?? ClaseDeAviso.porDefecto
        configurado.horasTranquilas = horasTranquilas
        configurado.retraso = retraso
        configurado.antes = antes?.segundos
        if case .failure(let fallo) = FabricaDeCanales.crear(
            configurado, entorno: entorno, registro: registro(eco: false),
            cambios: tienda.cambios)
        {
            throw Fallo.noDisponible(
                "El canal \(tipo.rawValue) no está disponible en esta máquina: \(fallo.motivo).")
        }
        guard try tienda.buzon.guardar(configurado, reemplazar: reemplazar) else {
            throw Fallo.uso(
                "Ya hay un canal llamado \(citado(nombre)). Elige otro --nombre, "
                    + "o añade --reemplazar para sustituirlo.")
        }
        return nombre
    }

    /// Removes a channel; its pending deliveries are discarded.
    public func quitarCanal(_ nombre: String) throws {
        guard try tienda.buzon.quitarCanal(nombre) else { throw Self.sinCanal(nombre) }
    }

    /// Pauses or resumes a channel without deleting it.
    public func activarCanal(_ nombre: String, activo: Bool) throws {
        guard try tienda.buzon.activarCanal(nombre, activo: activo) else {
            throw Self.sinCanal(nombre)
        }
    }

    /// The channel follows `seguimiento` too; with `quitar`, stops following it (`todo`:
    /// everything, so it receives every goal again).
    /// - Returns: what it follows now.
    @discardableResult
    public func cambiarSeguimiento(
        _ nombre: String, _ seguimiento: Seguimiento, quitar: Bool = false, todo: Bool = false
    ) throws -> FiltrosDeCanal {
        let buzon = tienda.buzon
        guard let canal = try buzon.canales().first(where: { $0.nombre == nombre }) else {
            throw Self.sinCanal(nombre)
        }
        let nuevos: FiltrosDeCanal
        if todo {
            nuevos = FiltrosDeCanal()
        } else if quitar {
            nuevos = canal.filtros.quitando(try filtros(de: seguimiento))
        } else {
            nuevos = canal.filtros.sumando(try filtros(de: seguimiento))
        }
        _ = try buzon.cambiarFiltros(nombre, nuevos)
        return nuevos
    }

    /// `seguimiento` with each name found among the stored ones (without case or accents).
    public func filtros(de seguimiento: Seguimiento) throws -> FiltrosDeCanal {
        for partido in seguimiento.partidos { _ = try partidoExistente(partido) }
        return FiltrosDeCanal(
            equipos: try seguimiento.equipos.map(buscarEquipo),
            competiciones: try seguimiento.competiciones.map(buscarCompeticion),
            partidos: seguimiento.partidos)
    }

    /// The channel `nombre`, which must exist (`avisos probar --canal`).
    public func canalExistente(_ nombre: String) throws -> CanalConfigurado {
        guard let canal = try tienda.buzon.canales().first(where: { $0.nombre == nombre }) else {
            throw Self.sinCanal(nombre)
        }
        return canal
    }

    /// A webhook needs an `http(s)` URL with a valid host and port (safety.md).
    public static func comprobarURLDeWebhook(_ url: String?) throws(Fallo) {
        guard let url else { throw .uso("Un canal webhook necesita --url URL.") }
        do {
            _ = try DireccionWeb(url)
        } catch {
            throw .uso("La URL del webhook \(error.mensaje): «\(DireccionWeb.visible(url))».")
        }
    }

    static func sinCanal(_ nombre: String) -> Fallo {
        .noEncontrado("No hay ningún canal llamado \(citado(nombre)).")
    }

    /// Settings as they may be shown: webhook URLs keep only scheme, host and port.
    static func visibles(_ canal: CanalConfigurado) -> String {
        let ajustes = AjustesDeCanal.leer(canal.ajustes)
        var partes: [String] = []
        if let url = ajustes.url { partes.append("url=" + CanalWebhook.urlVisible(url)) }
        if let directorio = ajustes.directorio { partes.append("directorio=" + directorio) }
        if let bundle = ajustes.bundle { partes.append("bundle=" + bundle) }
        if let limite = ajustes.limite { partes.append("limite=\(Textos.segundos(limite)) s") }
        if ajustes.ntfy == true { partes.append("ntfy") }
        if canal.avisar != ClaseDeAviso.porDefecto {
            partes.append("avisar=" + ClaseDeAviso.texto(canal.avisar))
        }
        if let horas = canal.horasTranquilas { partes.append("horas-tranquilas=\(horas)") }
        if canal.retraso > 0 { partes.append("retraso=\(Textos.segundos(canal.retraso)) s") }
        if canal.avisar.contains(.recordatorio) {
            let antes = canal.antes.flatMap { Antelacion(segundos: $0) }
            partes.append("antes=\(antes?.description ?? "15 min")")
        }
        return partes.joined(separator: " ")
    }
}
