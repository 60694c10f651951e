/// The «¡Gol!» notice for a scripted goal: what every channel shows, whatever it is.
///
/// The identifier `gol-<minuto>-<jugador>` is the notice's identity downstream (collapse id,
/// idempotency key, `replaces_id`): two goals in one minute by different players never collide,
/// and the same goal delivered twice replaces itself instead of appearing twice.
public struct AvisoDeGol: Sendable, Hashable, Codable {
    /// Seconds a notice is worth delivering (a late goal alert is worse than none): the
    /// dispatcher's expiry, APNs' `apns-expiration` and Web Push's `TTL`.
    public static let tiempoDeVida: Double = 600

    public private(set) var identificador: String
    public private(set) var titulo: String
    public private(set) var cuerpo: String
    public private(set) var partidoId: Int
    public private(set) var minuto: MinutoDeJuego
    public private(set) var jugador: String
    /// The player's team (for an own goal, not the team that gains the goal).
    public private(set) var equipo: String
    /// The score right after this goal.
    public private(set) var marcador: Marcador
    public private(set) var adjunto: String?
    /// The stored run that produced it, once it is in the outbox: together with the identifier
    /// it keys idempotent delivery (a relaunch notifies again, a redelivery does not).
    public private(set) var ejecucion: Int?
    /// Set by the dispatcher once the attachment was fetched and recognised: the private local
    /// copy and its type (`gif`, `png`…). `nil` means the original content goes out.
    public private(set) var adjuntoLocal: String?
    public private(set) var tipoDeAdjunto: String?
    /// A goal, or a channel test (`avisos probar`), which has no match, run, player or minute.
    public private(set) var tipo: TipoDeAviso
    /// The side the goal counts for (not the player's, for an own goal): who a fan of a team
    /// cheers. `nil` for a test.
    public private(set) var lado: Lado?
    /// The live match it comes from (`marcador directo`), instead of a run.
    public private(set) var seguimiento: Int?
    /// Delivered in the channel's quiet hours: without sound or banner where the channel can.
    /// Decided when it is delivered, never stored.
    public private(set) var tranquilo: Bool

    public init(
        identificador: String,
        titulo: String,
        cuerpo: String,
        partidoId: Int,
        minuto: MinutoDeJuego,
        jugador: String,
        equipo: String,
        marcador: Marcador,
        adjunto: String? = nil,
        ejecucion: Int? = nil,
        tipo: TipoDeAviso = .gol,
        lado: Lado? = nil,
        seguimiento: Int? = nil,
        adjuntoLocal: String? = nil,
        tipoDeAdjunto: String? = nil,
        tranquilo: Bool = false
    ) {
        self.identificador = identificador
        self.titulo = titulo
        self.cuerpo = cuerpo
        self.partidoId = partidoId
        self.minuto = minuto
        self.jugador = jugador
        self.equipo = equipo
        self.marcador = marcador
        self.adjunto = adjunto
        self.ejecucion = ejecucion
        self.tipo = tipo
        self.lado = lado
        self.seguimiento = seguimiento
        self.adjuntoLocal = adjuntoLocal
        self.tipoDeAdjunto = tipoDeAdjunto
        self.tranquilo = tranquilo
    }

    // A value, never filled in by whoever handles it: each step that learns something (the
    // dispatcher's download, the channel's quiet hours, the live match it belongs to) makes
    // a new notice from the old one.

    /// The same notice with the attachment's private local copy and its type (`gif`, `png`…).
    public func conAdjuntoDescargado(ruta: String, tipo: String) -> AvisoDeGol {
        var aviso = self
        aviso.adjuntoLocal = ruta
        aviso.tipoDeAdjunto = tipo
        return aviso
    }

    /// The same notice without its attachment (it could not be fetched or recognised).
    public func sinAdjunto() -> AvisoDeGol {
        var aviso = self
        aviso.adjunto = nil
        return aviso
    }

    /// The same notice, delivered in a channel's quiet hours (`tranquilo`) or not.
    public func enHorasTranquilas(_ tranquilo: Bool = true) -> AvisoDeGol {
        var aviso = self
        aviso.tranquilo = tranquilo
        return aviso
    }

    /// The same notice under another identifier (a live goal whose own one a standing goal
    /// already holds).
    public func conIdentificador(_ identificador: String) -> AvisoDeGol {
        var aviso = self
        aviso.identificador = identificador
        return aviso
    }

    /// The same notice of live match `seguimiento`, stored as match `partido`.
    public func deSeguimiento(_ seguimiento: Int, partido: Int) -> AvisoDeGol {
        var aviso = self
        aviso.seguimiento = seguimiento
        aviso.partidoId = partido
        return aviso
    }

    public static let tituloDeGol = "¡Gol!"
    public static let tituloDePrueba = "Prueba de marcador"
    public static let tituloDeAnulado = "Gol anulado"
    public static let tituloDeInicio = "Empieza el partido"
    public static let tituloDeDescanso = "Descanso"
    public static let tituloDeFinal = "Final del partido"
    public static let tituloDeCorregido = "Gol corregido"
    public static let tituloDeProrroga = "Prórroga"
    public static let tituloDePenaltis = "Penaltis"
    public static let tituloDeRoja = "Tarjeta roja"
    public static let tituloDeRecordatorio = "Empieza pronto"
    public static let tituloDeAlineaciones = "Alineaciones"

    /// The annulment of `gol` (directo.md): «Gol anulado», body `Gol anulado: Luis (Rayo FC),
    /// minuto 35`, under the goal's identifier, with the score it leaves.
    public static func anulacion(de gol: AvisoDeGol, marcador: Marcador) -> AvisoDeGol {
        var aviso = gol
        aviso.tipo = .anulado
        aviso.titulo = tituloDeAnulado
        aviso.cuerpo = "Gol anulado: " + gol.cuerpo.replacingPrefix("Gol de ", with: "")
        aviso.marcador = marcador
        aviso.adjunto = nil
        return aviso
    }

    /// The correction of a goal already notified (contract.md: a goal keeps its identity): a
    /// new scorer, minute or mark. «Gol corregido», the body in the goal's own format with the
    /// corrected facts, under the identifier `primero` the goal was first notified with, so it
    /// replaces that alert downstream instead of taking the goal away and giving it back.
    public static func correccion(de primero: String, ahora gol: AvisoDeGol) -> AvisoDeGol {
        var aviso = gol
        aviso.tipo = .corregido
        aviso.titulo = tituloDeCorregido
        aviso.identificador = primero
        aviso.adjunto = nil
        return aviso
    }

    /// A goal known only from the score (a feed without goal lists): `Gol de Rayo FC, minuto 35`.
    /// Its identifier numbers the side's goals: `gol-35-Rayo FC-2` is Rayo's second.
    public static func golSinGoleador(
        equipo: String, lado: Lado, numero: Int, minuto: MinutoDeJuego, partidoId: Int,
        marcador: Marcador
    ) -> AvisoDeGol {
        var aviso = AvisoDeGol(
            identificador: "gol-\(minuto)-\(equipo)-\(numero)", titulo: tituloDeGol,
            cuerpo: "Gol de \(equipo), minuto \(minuto)", partidoId: partidoId, minuto: minuto,
            jugador: "", equipo: equipo, marcador: marcador)
        aviso.lado = lado
        return aviso
    }

    /// Kick-off, half-time, extra time, the shoot-out or full time of a live match. The
    /// full-time body says how it was decided (`Argentina 3-3 France (4-2 pen.)`,
    /// `Spain 1-2 Russia (pró.)`): `desenlace` is `ResultadoOficial.desenlace`'s mark.
    public static func momento(
        _ tipo: TipoDeAviso, local: String, visitante: String, partidoId: Int,
        minuto: MinutoDeJuego, marcador: Marcador, desenlace: String? = nil
    ) -> AvisoDeGol {
        let resultado = "\(local) \(marcador) \(visitante)"
        let (titulo, cuerpo): (String, String) =
            switch tipo {
            case .inicio: (tituloDeInicio, "\(local) – \(visitante)")
            case .descanso: (tituloDeDescanso, resultado)
            case .prorroga: (tituloDeProrroga, resultado)
            case .penaltis: (tituloDePenaltis, resultado)
            default:
                (tituloDeFinal, ResultadoOficial.conDesenlace(resultado, desenlace))
            }
        var aviso = AvisoDeGol(
            identificador: tipo.rawValue, titulo: titulo, cuerpo: cuerpo, partidoId: partidoId,
            minuto: minuto, jugador: "", equipo: "", marcador: marcador)
        aviso.tipo = tipo
        return aviso
    }

    /// A sending-off: «Tarjeta roja», body `Antonio Rüdiger (Real Madrid CF), minuto 70`, a
    /// second yellow marked like a goal's marks (`(Real Madrid CF, doble amarilla)`), with the
    /// score it finds.
    public static func roja(_ tarjeta: TarjetaRoja, partidoId: Int, marcador: Marcador)
        -> AvisoDeGol
    {
        var aviso = AvisoDeGol(
            identificador: tarjeta.identificador, titulo: tituloDeRoja,
            cuerpo: "\(tarjeta.jugador) (\(tarjeta.marcas)), minuto \(tarjeta.minuto)",
            partidoId: partidoId, minuto: tarjeta.minuto, jugador: tarjeta.jugador,
            equipo: tarjeta.equipo, marcador: marcador)
        aviso.tipo = .roja
        aviso.lado = tarjeta.lado
        return aviso
    }

    /// A side's lineup, when first published: «Alineaciones», body `Argentina (4-3-3): Emiliano
    /// Martínez, Nahuel Molina, …` (the starters in the feed's order), one per side.
    public static func alineacion(
        equipo: String, lado: Lado, formacion: String?, titulares: [String], partidoId: Int
    ) -> AvisoDeGol {
        let cabecera = formacion.map { "\(equipo) (\($0))" } ?? equipo
        var aviso = AvisoDeGol(
            identificador: "alineacion-\(lado.rawValue)", titulo: tituloDeAlineaciones,
            cuerpo: "\(cabecera): \(titulares.joined(separator: ", "))", partidoId: partidoId,
            minuto: MinutoDeJuego(0), jugador: "", equipo: equipo, marcador: .cero)
        aviso.tipo = .alineacion
        aviso.lado = lado
        return aviso
    }

    /// A match about to kick off: «Empieza pronto», body `Argentina - France, 16:00` with the
    /// kick-off `hora` in the user's zone; one per match (`recordatorio`).
    public static func recordatorio(
        local: String, visitante: String, hora: String, partidoId: Int
    ) -> AvisoDeGol {
        var aviso = AvisoDeGol(
            identificador: "recordatorio", titulo: tituloDeRecordatorio,
            cuerpo: "\(local) - \(visitante), \(hora)", partidoId: partidoId,
            minuto: MinutoDeJuego(0), jugador: "", equipo: "", marcador: .cero)
        aviso.tipo = .recordatorio
        return aviso
    }

    /// The test notice `avisos probar` sends through the outbox.
    public static func prueba(numero: Int) -> AvisoDeGol {
        var aviso = AvisoDeGol(
            identificador: "prueba-\(numero)", titulo: tituloDePrueba,
            cuerpo: "Si lees esto, marcador puede avisarte aquí de cada gol.", partidoId: 0,
            minuto: MinutoDeJuego(0), jugador: "", equipo: "", marcador: .cero)
        aviso.tipo = .prueba
        return aviso
    }

    /// What a goal's body says between its scorer and its minute — the team and the marks
    /// (`Rayo FC, de penalti`; `Russia, en propia puerta`) — for the log line; the team alone
    /// for a body of another shape, `nil` for a notice without a scorer.
    public var marcas: String? {
        guard !jugador.isEmpty else { return nil }
        var resto = Substring(cuerpo)
        if tipo == .anulado, resto.hasPrefix("Gol anulado: ") {
            resto = resto.dropFirst("Gol anulado: ".count)
        }
        let (inicio, fin) = (jugador + " (", "), minuto \(minuto)")
        guard resto.hasPrefix(inicio), resto.hasSuffix(fin),
            resto.count > inicio.count + fin.count
        else { return equipo.isEmpty ? nil : equipo }
        return String(resto.dropFirst(inicio.count).dropLast(fin.count))
    }

    /// The key a receiver deduplicates on: the same goal of the same run, whoever delivers it.
    /// A live match's notices carry `d<seguimiento>` in the run's place; an annulment shares
    /// its goal's key (so it replaces the alert) and says what it is in its `tipo`.
    /// HTTP headers are ASCII, so bytes outside it are percent-encoded (`Iv%C3%A1n`).
    public var claveDeIdempotencia: String {
        let serie = seguimiento.map { "d\($0)" } ?? ejecucion.map(String.init) ?? "0"
        let clave = "marcador-\(partidoId)-\(serie)-\(identificador)"
        let llana = { (byte: UInt8) in byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") }
        // A fan-out asks for it once per device: most keys are ASCII already.
        if clave.utf8.allSatisfy(llana) { return clave }
        let cifras = Array("0123456789ABCDEF".utf8)
        var ascii: [UInt8] = []
        ascii.reserveCapacity(clave.utf8.count * 3)
        for byte in clave.utf8 {
            if llana(byte) {
                ascii.append(byte)
            } else {
                ascii += [UInt8(ascii: "%"), cifras[Int(byte >> 4)], cifras[Int(byte & 0xF)]]
            }
        }
        return String(decoding: ascii, as: UTF8.self)
    }

    /// `gol-35-Luis`; the same player's second goal in the same minute is `gol-80-Mbappé-2`
    /// (safety.md): both are notified, and the first keeps the lessons' exact format.
    public static func identificador(de gol: Gol, repeticion: Int = 1) -> String {
        let base = "gol-\(gol.minuto)-\(gol.jugador.nombre)"
        return repeticion > 1 ? "\(base)-\(repeticion)" : base
    }

    /// The notices of goals scored at the same minute, in order, numbering a player's repeated
    /// goal in one minute.
    public static func avisos(
        de goles: [(gol: Gol, marcador: Marcador)], en partido: Partido
    ) -> [AvisoDeGol] {
        var vistas: [String: Int] = [:]
        return goles.map { gol, marcador in
            let base = identificador(de: gol)
            vistas[base, default: 0] += 1
            return AvisoDeGol(gol: gol, en: partido, marcador: marcador, repeticion: vistas[base]!)
        }
    }

    /// The notice for `gol` of `partido`, with the score it leaves.
    public init(gol: Gol, en partido: Partido, marcador: Marcador, repeticion: Int = 1) {
        var marcas = [gol.jugador.equipo.nombre]
        if gol.enPropiaPuerta { marcas.append("en propia puerta") }
        if gol.penalti { marcas.append("de penalti") }
        self.init(
            identificador: Self.identificador(de: gol, repeticion: repeticion),
            titulo: Self.tituloDeGol,
            cuerpo:
                "\(gol.jugador.nombre) (\(marcas.joined(separator: ", "))), minuto \(gol.minuto)",
            partidoId: partido.id,
            minuto: gol.minuto,
            jugador: gol.jugador.nombre,
            equipo: gol.jugador.equipo.nombre,
            marcador: marcador,
            adjunto: gol.adjunto
        )
        lado = gol.lado
    }
}

/// What a notice is about.
public enum TipoDeAviso: String, Sendable, Hashable, Codable, CaseIterable {
    case gol
    case prueba
    /// A goal of a live feed taken back (VAR): same identifier as the goal.
    case anulado
    /// A goal of a live feed whose scorer, minute or marks changed: same identifier as the
    /// goal as it was first notified.
    case corregido
    /// A live match kicked off, went in at half-time, ended.
    case inicio
    case descanso
    /// A live match went to extra time, then to a shoot-out.
    case prorroga
    case penaltis
    case final
    /// A player of a live match sent off (a straight red or a second yellow).
    case roja
    /// A match with a known kick-off is about to start (`--antes`).
    case recordatorio
    /// A side's lineup of a live-followed match was published.
    case alineacion

    /// The kind a channel chooses with `--avisar`; a test is not chosen, it always goes.
    public var clase: ClaseDeAviso? {
        switch self {
        // A correction goes where its goal went: it replaces that alert.
        case .gol, .corregido: .goles
        case .anulado: .anulados
        // The breaks before extra time and before the shoot-out, like half-time.
        case .prorroga, .penaltis: .descanso
        case .inicio: .inicio
        case .descanso: .descanso
        case .final: .final
        case .roja: .rojas
        case .recordatorio: .recordatorio
        case .alineacion: .alineaciones
        case .prueba: nil
        }
    }

    /// Whether it is about a match (a test is not).
    public var esDePartido: Bool { self != .prueba }
}

extension String {
    /// Without `prefijo` at the start, if it is there.
    func replacingPrefix(_ prefijo: String, with otro: String) -> String {
        hasPrefix(prefijo) ? otro + dropFirst(prefijo.count) : self
    }
}
