import Importador
import Sistema
import Torneo

/// Reads football-data.org v4's match list (`{"matches": [...]}`, as `/v4/matches` and
/// `/v4/competitions/{code}/matches` answer): each match's `id`, `utcDate`, `status`,
/// `minute`, `homeTeam`/`awayTeam`, `score` and, where the plan gives them, `goals`.
/// Lenient with what it does not need, strict with what it does: a match without teams or an
/// id is left out and said, never guessed; names are the provider's, made safe (safety.md), and
/// one match that cannot be read never holds back the others (issue 41).
public enum LectorDeFootballData {
    public static func leer(_ bytes: [UInt8], competicion porDefecto: String) throws
        -> LecturaDeFeed
    {
        let raiz: ValorJSON
        do {
            raiz = try ValorJSON.leer(bytes)
        } catch {
            throw FalloDeFeed("la respuesta no es JSON válido")
        }
        guard case .lista(let lista)? = raiz["matches"] else {
            throw FalloDeFeed("la respuesta no trae la lista «matches»")
        }
        let competicionDeLaLista = texto(raiz["competition"]?["name"]).map(
            LectorOpenFootball.nombreSeguro)
        var lectura = LecturaDeFeed(partidos: [])
        for (indice, valor) in lista.enumerated() {
            do {
                lectura.partidos.append(
                    try partido(
                        valor, indice: indice,
                        competicion: competicionDeLaLista.flatMap { $0.isEmpty ? nil : $0 }
                            ?? porDefecto))
            } catch let fallo as FalloDeFeed {
                lectura.descartados.append(fallo.mensaje)
            }
        }
        return lectura
    }

    /// One match as the match resource (`/v4/matches/{id}`) gives it: the list entry's fields
    /// and, where the plan gives them, its `goals` and `bookings`; `nil` when it cannot be read
    /// (the list entry then stands).
    public static func leerDetalle(_ bytes: [UInt8], competicion: String) -> PartidoDelFeed? {
        guard let raiz = try? ValorJSON.leer(bytes) else { return nil }
        let nombre = texto(raiz["competition"]?["name"]).map(LectorOpenFootball.nombreSeguro)
        return try? partido(
            raiz, indice: 0, competicion: nombre.flatMap { $0.isEmpty ? nil : $0 } ?? competicion)
    }

    /// The match resource's address for match `id`, from the list's (`…/v4/competitions/PD/
    /// matches` → `…/v4/matches/{id}`); `nil` for an address that is not v4's.
    public static func urlDelDetalle(lista: String, id: String) -> String? {
        guard let v4 = lista.firstRange(of: "/v4/") else { return nil }
        return String(lista[..<v4.lowerBound]) + "/v4/matches/" + id
    }

    private static func partido(_ valor: ValorJSON, indice: Int, competicion: String) throws
        -> PartidoDelFeed
    {
        func fallo(_ que: String) -> FalloDeFeed { FalloDeFeed("matches[\(indice)]: \(que)") }
        guard let id = entero(valor["id"]) else { throw fallo("falta el «id» del partido") }
        guard let local = equipo(valor["homeTeam"]), let visitante = equipo(valor["awayTeam"])
        else { throw fallo("faltan los equipos (homeTeam, awayTeam)") }
        guard local != visitante else { throw fallo("los dos equipos son el mismo") }
        var fecha: String?
        var hora: String?
        if let utc = texto(valor["utcDate"]) {
            // `2024-08-16T19:00:00Z`: the day and time in UTC.
            let partes = utc.split(separator: "T")
            guard partes.count == 2, FechaDeCalendario(String(partes[0])) != nil,
                let reloj = HoraDeSaque(String(partes[1].prefix(5)))
            else { throw fallo("«utcDate» no es una fecha: \(TextoSeguro.limpio(utc))") }
            fecha = String(partes[0])
            hora = "\(reloj.reloj) UTC"
        }
        let puntuacion = valor["score"]
        let duracion = texto(puntuacion?["duration"]) ?? "REGULAR"
        let estado = Self.estado(texto(valor["status"]) ?? "", duracion: duracion)
        let penaltis = resultado(puntuacion?["penalties"])
        let total = resultado(puntuacion?["fullTime"])
        // v4's fullTime is every goal of the match, a shoot-out's included: without them it
        // is the score; after 90 minutes it is `regularTime` when there was extra time.
        let marcador = total.map { total -> Marcador in
            guard let penaltis else { return total }
            return Marcador(
                local: max(0, total.local - penaltis.local),
                visitante: max(0, total.visitante - penaltis.visitante))
        }
        let conProrroga = duracion != "REGULAR"
        var partido = PartidoDelFeed(
            claveExterna: String(id),
            competicion: texto(valor["competition"]?["name"]).map(LectorOpenFootball.nombreSeguro)
                .flatMap { $0.isEmpty ? nil : $0 } ?? competicion,
            fecha: fecha, hora: hora, ronda: ronda(valor), grupo: grupo(valor["group"]),
            local: local, visitante: visitante, estado: estado, minuto: entero(valor["minute"]),
            marcador: marcador)
        partido.anadido = entero(valor["injuryTime"]).map { max(0, min(30, $0)) }
        // The tally of a shoot-out being taken is news as much as its end.
        partido.penaltis = penaltis
        if estado == .terminado {
            partido.finalDelPartido =
                conProrroga ? (resultado(puntuacion?["regularTime"]) ?? marcador) : marcador
            partido.trasLaProrroga = conProrroga ? marcador : nil
        }
        if case .lista(let goles)? = valor["goals"] {
            partido.goles = try goles.enumerated().map { i, gol in
                try self.gol(
                    gol, local: local, visitante: visitante,
                    idLocal: entero(valor["homeTeam"]?["id"]),
                    fallo: { fallo("goals[\(i)]: \($0)") })
            }.sorted { $0.minuto < $1.minuto }
        }
        partido.actualizado = texto(valor["lastUpdated"])
        for (lado, clave) in [(Lado.local, "homeTeam"), (.visitante, "awayTeam")] {
            guard case .lista(let jugadores)? = valor[clave]?["lineup"] else { continue }
            let titulares = jugadores.compactMap {
                texto($0["name"]).map(LectorOpenFootball.nombreSeguro).flatMap {
                    $0.isEmpty ? nil : $0
                }
            }
            guard !titulares.isEmpty else { continue }
            partido.alineaciones[lado] = Alineacion(
                formacion: texto(valor[clave]?["formation"]).map(LectorOpenFootball.nombreSeguro)
                    .flatMap { $0.isEmpty ? nil : $0 },
                titulares: Array(titulares.prefix(11)))
        }
        if case .lista(let tarjetas)? = valor["bookings"] {
            // A booking that cannot be read is left out: the match's goals still count.
            partido.rojas = tarjetas.compactMap {
                roja(
                    $0, local: local, visitante: visitante,
                    idLocal: entero(valor["homeTeam"]?["id"]))
            }.sorted { $0.minuto < $1.minuto }
        }
        if case .lista(let sustituciones)? = valor["substitutions"] {
            partido.cambios = sustituciones.compactMap {
                cambio(
                    $0, local: local, visitante: visitante,
                    idLocal: entero(valor["homeTeam"]?["id"]))
            }.sorted { $0.minuto < $1.minuto }
        }
        return partido
    }

    /// A substitution (`playerIn`, `playerOut`); `nil` without a minute or either player.
    private static func cambio(
        _ valor: ValorJSON, local: String, visitante: String, idLocal: Int?
    ) -> Sustitucion? {
        func nombre(_ clave: String) -> String? {
            texto(valor[clave]?["name"]).map(LectorOpenFootball.nombreSeguro).flatMap {
                $0.isEmpty ? nil : $0
            }
        }
        guard let minuto = minutoDeJuego(valor), let entra = nombre("playerIn"),
            let sale = nombre("playerOut")
        else { return nil }
        let lado = self.lado(valor["team"], local: local, idLocal: idLocal)
        return Sustitucion(
            minuto: minuto, entra: entra, sale: sale, equipo: lado == .local ? local : visitante,
            lado: lado)
    }

    /// A booking that sends a player off (`RED`, or `YELLOW_RED`: a second yellow); `nil` for
    /// a yellow card or one without a minute or a player.
    private static func roja(_ valor: ValorJSON, local: String, visitante: String, idLocal: Int?)
        -> TarjetaRoja?
    {
        let tarjeta = texto(valor["card"]) ?? ""
        guard tarjeta == "RED" || tarjeta == "YELLOW_RED",
            let minuto = minutoDeJuego(valor),
            let nombre = texto(valor["player"]?["name"]).map(LectorOpenFootball.nombreSeguro),
            !nombre.isEmpty
        else { return nil }
        let lado = self.lado(valor["team"], local: local, idLocal: idLocal)
        return TarjetaRoja(
            minuto: minuto, jugador: nombre, equipo: lado == .local ? local : visitante,
            lado: lado, dobleAmarilla: tarjeta == "YELLOW_RED")
    }

    /// An event's minute and added time; a minute past 120 is the added time of extra time.
    private static func minutoDeJuego(_ valor: ValorJSON) -> MinutoDeJuego? {
        guard var minuto = entero(valor["minute"]), (1...130).contains(minuto) else { return nil }
        var anadido = max(0, min(30, entero(valor["injuryTime"]) ?? 0))
        if minuto > 120 {
            anadido = min(30, anadido + minuto - 120)
            minuto = 120
        }
        return MinutoDeJuego(minuto, anadido: anadido)
    }

    /// The side of an event's `team`: by id when both are known, else by name.
    private static func lado(_ equipo: ValorJSON?, local: String, idLocal: Int?) -> Lado {
        let esLocal =
            idLocal != nil && entero(equipo?["id"]) != nil
            ? entero(equipo?["id"]) == idLocal : texto(equipo?["name"]) == local
        return esLocal ? .local : .visitante
    }

    /// SCHEDULED/TIMED, IN_PLAY/LIVE, EXTRA_TIME, PENALTY_SHOOTOUT, PAUSED, FINISHED/AWARDED,
    /// SUSPENDED/POSTPONED/CANCELLED. A match `IN_PLAY` whose `score.duration` already says
    /// EXTRA_TIME or PENALTY_SHOOTOUT is in that phase (the provider sets both ways).
    static func estado(_ texto: String, duracion: String = "REGULAR") -> EstadoEnDirecto {
        switch (texto, duracion) {
        case ("EXTRA_TIME", _), ("IN_PLAY", "EXTRA_TIME"), ("LIVE", "EXTRA_TIME"): .prorroga
        case ("PENALTY_SHOOTOUT", _), ("IN_PLAY", "PENALTY_SHOOTOUT"), ("LIVE", "PENALTY_SHOOTOUT"):
            .penaltis
        case ("IN_PLAY", _), ("LIVE", _): .enJuego
        case ("PAUSED", _): .descanso
        case ("FINISHED", _), ("AWARDED", _): .terminado
        case ("SUSPENDED", _), ("POSTPONED", _), ("CANCELLED", _): .suspendido
        default: .programado
        }
    }

    private static func gol(
        _ valor: ValorJSON, local: String, visitante: String, idLocal: Int?,
        fallo: (String) -> FalloDeFeed
    ) throws -> Gol {
        guard let minuto = minutoDeJuego(valor) else { throw fallo("falta el minuto") }
        guard let nombre = texto(valor["scorer"]?["name"]).map(LectorOpenFootball.nombreSeguro),
            !nombre.isEmpty
        else {
            throw fallo("falta el goleador")
        }
        // `team` is the side the goal counts for; an own goal's scorer plays for the other.
        let lado = self.lado(valor["team"], local: local, idLocal: idLocal)
        let tipo = texto(valor["type"]) ?? "REGULAR"
        let propia = tipo == "OWN"
        let suyo = (propia ? lado.contrario : lado) == .local ? local : visitante
        return Gol(
            minuto: minuto,
            jugador: Jugador(nombre, de: Equipo(suyo)), lado: lado, penalti: tipo == "PENALTY",
            enPropiaPuerta: propia,
            asistencia: texto(valor["assist"]?["name"]).map(LectorOpenFootball.nombreSeguro)
                .flatMap { $0.isEmpty ? nil : $0 })
    }

    /// A team's name made safe; `nil` when the feed gives none that is usable.
    private static func equipo(_ valor: ValorJSON?) -> String? {
        for campo in ["name", "shortName"] {
            if let nombre = texto(valor?[campo]).map(LectorOpenFootball.nombreSeguro),
                !nombre.isEmpty
            {
                return nombre
            }
        }
        return nil
    }

    /// `Matchday 3` in a league, `League, Matchday 3` in a league phase, `Round of 16`…
    private static func ronda(_ valor: ValorJSON) -> String? {
        let jornada = entero(valor["matchday"])
        switch texto(valor["stage"]) {
        case nil, "REGULAR_SEASON", "GROUP_STAGE":
            return jornada.map { "Matchday \($0)" }
        case "LEAGUE_STAGE":
            return jornada.map { "League, Matchday \($0)" } ?? "League"
        case "LAST_64": return "Round of 64"
        case "LAST_32": return "Round of 32"
        case "LAST_16": return "Round of 16"
        case let fase?:
            return fase.split(separator: "_").map { $0.prefix(1) + $0.dropFirst().lowercased() }
                .joined(separator: " ")
        }
    }

    /// `GROUP_A` → `Group A`.
    private static func grupo(_ valor: ValorJSON?) -> String? {
        guard let grupo = texto(valor), !grupo.isEmpty else { return nil }
        return grupo.hasPrefix("GROUP_") ? "Group " + grupo.dropFirst(6) : grupo
    }

    private static func resultado(_ valor: ValorJSON?) -> Marcador? {
        guard let local = entero(valor?["home"]), let visitante = entero(valor?["away"]),
            local >= 0, visitante >= 0
        else { return nil }
        return Marcador(local: local, visitante: visitante)
    }

    static func texto(_ valor: ValorJSON?) -> String? {
        if case .texto(let texto)? = valor { return texto }
        return nil
    }

    static func entero(_ valor: ValorJSON?) -> Int? {
        switch valor {
        case .numero(let n)? where n == n.rounded() && abs(n) < 1e12: return Int(n)
        case .texto(let t)?: return Int(t)
        default: return nil
        }
    }
}
