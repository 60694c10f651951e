import ApoyoDePruebas
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The 2022 World Cup final as football-data.org v4 told it, replayed by a loopback stand-in
/// (contract.md: a goal keeps its identity; extra time and the shoot-out): a scorer corrected,
/// a minute corrected, added time, two goals in a poll, extra time, the shoot-out with its tally, and a full-time
/// alert that says how it was decided — checked alert by alert on `registro` and a webhook,
/// and on what `partido --json` shows at each step.
@Suite("marcador directo: una final con prórroga y penaltis (binario)")
struct FinalEnDirectoE2ETests {
    typealias GolDelFeed = (minuto: Int, nombre: String, local: Bool, tipo: String)

    static func final(
        _ estado: String, minuto: Int? = nil, anadido: Int? = nil, duracion: String = "REGULAR",
        goles: [GolDelFeed] = [], penaltis: (Int, Int)? = nil,
        tarjetas: [(minuto: Int, nombre: String, local: Bool, tarjeta: String)]? = nil,
        comoDetalle: Bool = false, cambios: [(minuto: Int, entra: String, sale: String)] = [],
        asistencias: [String: String] = [:], saque: String = "2022-12-18T15:00:00Z",
        actualizado: String? = nil, alineaciones: (local: [String], visitante: [String])? = nil
    ) -> Data {
        let local = goles.filter(\.local).count
        let visitante = goles.count - local
        var marcador: [String: Any] = [
            "winner": NSNull(), "duration": duracion,
            // v4's fullTime counts the shoot-out's goals too.
            "fullTime": estado == "TIMED"
                ? ["home": NSNull(), "away": NSNull()]
                : ["home": local + (penaltis?.0 ?? 0), "away": visitante + (penaltis?.1 ?? 0)],
        ]
        if let penaltis { marcador["penalties"] = ["home": penaltis.0, "away": penaltis.1] }
        if estado == "FINISHED" && duracion != "REGULAR" {
            marcador["regularTime"] = [
                "home": goles.filter { $0.local && $0.minuto <= 90 }.count,
                "away": goles.filter { !$0.local && $0.minuto <= 90 }.count,
            ]
        }
        var partido: [String: Any] = [
            "id": 391_881, "utcDate": saque, "status": estado,
            "stage": "FINAL", "competition": ["id": 2000, "name": "FIFA World Cup"],
            "homeTeam": ["id": 762, "name": "Argentina", "tla": "ARG"],
            "awayTeam": ["id": 773, "name": "France", "tla": "FRA"],
            "score": marcador,
            "goals": goles.map { gol in
                [
                    "minute": gol.minuto, "injuryTime": NSNull(), "type": gol.tipo,
                    "team": ["id": gol.local ? 762 : 773],
                    "scorer": ["id": gol.nombre.count, "name": gol.nombre],
                    "assist": asistencias[gol.nombre].map { ["id": 1, "name": $0] } ?? NSNull(),
                ] as [String: Any]
            },
        ]
        if !cambios.isEmpty {
            // Argentina's, as the match resource lists them.
            partido["substitutions"] = cambios.map { cambio in
                [
                    "minute": cambio.minuto, "team": ["id": 762, "name": "Argentina"],
                    "playerOut": ["id": 2, "name": cambio.sale],
                    "playerIn": ["id": 3, "name": cambio.entra],
                ] as [String: Any]
            }
        }
        if let tarjetas {
            partido["bookings"] = tarjetas.map { tarjeta in
                [
                    "minute": tarjeta.minuto, "team": ["id": tarjeta.local ? 762 : 773],
                    "player": ["id": tarjeta.nombre.count, "name": tarjeta.nombre],
                    "card": tarjeta.tarjeta,
                ] as [String: Any]
            }
        }
        if let actualizado { partido["lastUpdated"] = actualizado }
        if let alineaciones {
            for (clave, id, nombre, jugadores, formacion) in [
                ("homeTeam", 762, "Argentina", alineaciones.local, "4-4-2"),
                ("awayTeam", 773, "France", alineaciones.visitante, "4-2-3-1"),
            ] {
                partido[clave] =
                    [
                        "id": id, "name": nombre, "formation": jugadores.isEmpty ? "" : formacion,
                        "lineup": jugadores.map { ["name": $0, "position": "X"] },
                    ] as [String: Any]
            }
        }
        if let minuto { partido["minute"] = minuto }
        if let anadido { partido["injuryTime"] = anadido }
        // The match resource (`/v4/matches/{id}`) is the match itself; the list wraps it.
        let lista: [String: Any] = ["matches": [partido]]
        return try! JSONSerialization.data(withJSONObject: comoDetalle ? partido : lista)
    }

    static let messi: GolDelFeed = (23, "Lionel Messi", true, "PENALTY")
    static let diMaria: GolDelFeed = (36, "Ángel Di María", true, "REGULAR")
    static let mbappe80: GolDelFeed = (80, "Kylian Mbappé", false, "PENALTY")
    static let mbappe81: GolDelFeed = (81, "Kylian Mbappé", false, "REGULAR")
    static let messi108: GolDelFeed = (108, "Lionel Messi", true, "REGULAR")
    static let mbappe118: GolDelFeed = (118, "Kylian Mbappé", false, "PENALTY")

    /// Each answer, the notices it must bring on the channel that gets every kind, and what
    /// the match then shows (`estadoTexto`, minute, added time, duration).
    static var pasos: [(Data, [String], String?)] {
        let hasta90 = [messi, diMaria, mbappe80, mbappe81]
        return [
            (final("TIMED"), [], nil),
            (final("IN_PLAY", minuto: 1), ["inicio inicio"], "En juego 1 - 90"),
            // The feed first credits the penalty to Di María, then corrects it.
            (
                final("IN_PLAY", minuto: 23, goles: [(23, "Ángel Di María", true, "REGULAR")]),
                ["gol gol-23-Ángel Di María"], nil
            ),
            (
                final("IN_PLAY", minuto: 24, goles: [messi]),
                ["corregido gol-23-Ángel Di María"], nil
            ),
            // Di María's goal first at 35', then at its minute: a correction, not a new goal.
            (
                final(
                    "IN_PLAY", minuto: 36, goles: [messi, (35, "Ángel Di María", true, "REGULAR")]),
                ["gol gol-35-Ángel Di María"], nil
            ),
            (
                final("IN_PLAY", minuto: 37, goles: [messi, diMaria]),
                ["corregido gol-35-Ángel Di María"], nil
            ),
            (
                final("PAUSED", minuto: 45, anadido: 7, goles: [messi, diMaria]),
                ["descanso descanso"], "Descanso 45 7 90"
            ),
            // Two goals in 97 seconds: one poll.
            (
                final("IN_PLAY", minuto: 82, goles: hasta90),
                ["gol gol-80-Kylian Mbappé", "gol gol-81-Kylian Mbappé"], "En juego 82 - 90"
            ),
            (
                final("EXTRA_TIME", minuto: 91, duracion: "EXTRA_TIME", goles: hasta90),
                ["prorroga prorroga"], "Prórroga 91 - 120"
            ),
            (
                final(
                    "EXTRA_TIME", minuto: 108, duracion: "EXTRA_TIME", goles: hasta90 + [messi108]),
                ["gol gol-108-Lionel Messi"], "Prórroga 108 - 120"
            ),
            (
                final(
                    "EXTRA_TIME", minuto: 118, duracion: "EXTRA_TIME",
                    goles: hasta90 + [messi108, mbappe118]),
                ["gol gol-118-Kylian Mbappé"], nil
            ),
            (
                final(
                    "PENALTY_SHOOTOUT", minuto: 120, duracion: "PENALTY_SHOOTOUT",
                    goles: hasta90 + [messi108, mbappe118], penaltis: (1, 1)),
                ["penaltis penaltis"], "Penaltis (1-1) 120 - 120"
            ),
            (
                final(
                    "FINISHED", minuto: 120, duracion: "PENALTY_SHOOTOUT",
                    goles: hasta90 + [messi108, mbappe118], penaltis: (4, 2)),
                ["final final"], nil
            ),
        ]
    }

    /// The final as `partidos --json` gives it.
    func documento(_ escenario: Escenario) async throws -> [String: Any]? {
        let salida = try await escenario.marcador(
            "partidos", "--competicion", "FIFA World Cup", "--json"
        ).salida
        let lista = try JSONSerialization.jsonObject(with: Data(salida.utf8)) as? [[String: Any]]
        return lista?.first
    }

    /// The final's card as `partido --json` gives it: its timeline as `minuto clase texto`
    /// lines, and its lineups.
    func ficha(_ escenario: Escenario) async throws -> (
        cronologia: [String], alineaciones: [String]
    ) {
        let id = try #require(try await documento(escenario)?["id"] as? Int)
        let salida = try await escenario.marcador("partido", String(id), "--json").salida
        let ficha = try JSONSerialization.jsonObject(with: Data(salida.utf8)) as? [String: Any]
        let cronologia = (ficha?["cronologia"] as? [[String: Any]] ?? []).map {
            "\($0["minuto"] ?? "") \($0["clase"] ?? "") \($0["texto"] ?? "")"
        }
        return (cronologia, ficha?["alineaciones"] as? [String] ?? [])
    }

    /// `estadoTexto minuto anadido duracion` of the final.
    func situacion(_ escenario: Escenario) async throws -> String {
        guard let partido = try await documento(escenario) else { return "" }
        let anadido = (partido["anadido"] as? Int).map(String.init) ?? "-"
        return "\(partido["estadoTexto"] ?? "") \(partido["minuto"] ?? "") \(anadido) "
            + "\(partido["duracion"] ?? "")"
    }

    /// A scenario following a stand-in provider, with a webhook and the channel `todo`
    /// (DirectoE2ETests.preparar); the caller closes both servers.
    static func preparar() async throws -> (Escenario, ReceptorHTTP, ReceptorHTTP) {
        let proveedor = try ReceptorHTTP()
        let webhook = try ReceptorHTTP()
        let escenario = Escenario()
        try await DirectoE2ETests().preparar(escenario, proveedor: proveedor, webhook: webhook)
        return (escenario, proveedor, webhook)
    }

    /// One more log channel, getting only `avisar`.
    static func anadirCanal(_ nombre: String, avisar: String, en escenario: Escenario)
        async throws
    {
        let alta = try await escenario.marcador(
            "avisos", "canales", "añadir", "registro", "--nombre", nombre, "--avisar", avisar)
        #expect(alta.codigo == 0, "\(alta.error)")
    }

    /// Serves each answer of `pasos` in turn to a running `marcador directo` and waits, step
    /// by step, for exactly the notices it must bring (on the channel that gets every kind)
    /// and for what the match then shows.
    /// - Parameter cabeceras: sent with each list answer (the provider's request budget).
    /// - Parameter detalles: the match resource at each step, if any.
    func reproducir(
        _ pasos: [(Data, [String], String?)], en escenario: Escenario, proveedor: ReceptorHTTP,
        cabeceras: [String: String] = [:], detalles: [Data?] = []
    ) async throws {
        let e2e = DirectoE2ETests()
        var esperadas: [String] = []
        for (indice, (cuerpo, avisos, muestra)) in pasos.enumerated() {
            if indice < detalles.count, let detalle = detalles[indice] {
                proveedor.fijar(DirectoE2ETests.json(detalle), en: "/v4/matches/391881")
            }
            var lista = DirectoE2ETests.json(cuerpo)
            lista.cabeceras.merge(cabeceras) { _, nueva in nueva }
            proveedor.fijar(lista)
            if avisos.isEmpty {
                #expect(await esperarQue { (try? await e2e.seguidos(escenario)) == 1 })
            }
            esperadas += avisos.map { $0 + " entregada" }
            let llegado = await esperarQue(limite: .seconds(60)) {
                (try? await e2e.entregas(escenario, canal: "todo")) == esperadas
            }
            let vistas = try await e2e.entregas(escenario, canal: "todo")
            #expect(llegado, "paso \(indice): \(vistas)")
            if let muestra {
                // The match's row is written with the notices: no wait needed.
                #expect(try await situacion(escenario) == muestra, "paso \(indice)")
            }
        }
    }

    @Test func laFinalDe2022AvisoPorAviso() async throws {
        let (escenario, proveedor, webhook) = try await Self.preparar()
        defer {
            proveedor.cerrar()
            webhook.cerrar()
        }
        let directo = try escenario.lanzar("directo")
        try await reproducir(Self.pasos, en: escenario, proveedor: proveedor)
        directo.senal(SIGTERM)
        #expect(await directo.esperar().codigo == 143)

        let lineas = try await escenario.marcador("registro").salida
        for texto in [
            "notificación «Gol corregido» enviada: Lionel Messi, minuto 23 (Argentina, de penalti)",
            "notificación «Gol corregido» enviada: Ángel Di María, minuto 36 (Argentina)",
            "notificación «Prórroga» enviada: Argentina 2-2 France",
            "notificación «Penaltis» enviada: Argentina 3-3 France",
            "notificación «Final del partido» enviada: Argentina 3-3 France (4-2 pen.)",
        ] {
            #expect(lineas.contains(texto), "\(texto)\n\(lineas)")
        }
        #expect(!lineas.contains("Gol anulado"))
        // The webhook gets goals and corrections (the default kinds): the correction under
        // the first goal's key, in the goal's own format, never an annulment and a new goal.
        #expect(await webhook.esperar(8))
        let posts = webhook.peticiones
        let documentos = posts.compactMap {
            try? JSONSerialization.jsonObject(with: $0.cuerpo) as? [String: Any]
        }
        #expect(
            documentos.map { "\($0["tipo"] ?? "") \($0["titulo"] ?? ""): \($0["cuerpo"] ?? "")" }
                == [
                    "gol ¡Gol!: Ángel Di María (Argentina), minuto 23",
                    "corregido Gol corregido: Lionel Messi (Argentina, de penalti), minuto 23",
                    "gol ¡Gol!: Ángel Di María (Argentina), minuto 35",
                    "corregido Gol corregido: Ángel Di María (Argentina), minuto 36",
                    "gol ¡Gol!: Kylian Mbappé (France, de penalti), minuto 80",
                    "gol ¡Gol!: Kylian Mbappé (France), minuto 81",
                    "gol ¡Gol!: Lionel Messi (Argentina), minuto 108",
                    "gol ¡Gol!: Kylian Mbappé (France, de penalti), minuto 118",
                ])
        #expect(posts.count == 8)
        #expect(posts[0].cabeceras["idempotency-key"] == posts[1].cabeceras["idempotency-key"])
        #expect(documentos[1]["identificador"] as? String == "gol-23-Ángel Di María")
        #expect(posts[2].cabeceras["idempotency-key"] == posts[3].cabeceras["idempotency-key"])
        #expect(documentos[3]["identificador"] as? String == "gol-35-Ángel Di María")
        // Lists and the card agree with the alert.
        let partidos = try await escenario.marcador("partidos", entorno: ["TZ": "UTC"]).salida
        #expect(partidos.contains("Terminado"))
        #expect(partidos.contains("3-3 (4-2 pen.)"), "\(partidos)")
        let id = try #require(try await documento(escenario)?["id"] as? Int)
        let ficha = try await escenario.marcador("partido", String(id)).salida
        #expect(ficha.contains("Argentina 3-3 France (4-2 pen.)"), "\(ficha)")
        #expect(ficha.contains("(120 minutos)"), "\(ficha)")
        #expect(ficha.contains("Resultado oficial: 3-3 tras la prórroga, 4-2 en los penaltis"))
    }

    /// VAR takes away a goal after a later one was scored: only that goal is annulled, under
    /// its own key, and the later goal stands (contract.md: only a goal that disappears is
    /// «Gol anulado»).
    @Test func unGolAnuladoTrasOtroPosteriorSoloAnulaEse() async throws {
        let (escenario, proveedor, webhook) = try await Self.preparar()
        defer {
            proveedor.cerrar()
            webhook.cerrar()
        }
        let directo = try escenario.lanzar("directo")
        let pasos: [(Data, [String], String?)] = [
            (Self.final("TIMED"), [], nil),
            (
                Self.final("IN_PLAY", minuto: 23, goles: [Self.messi]),
                ["inicio inicio", "gol gol-23-Lionel Messi"], nil
            ),
            (
                Self.final("IN_PLAY", minuto: 37, goles: [Self.messi, Self.diMaria]),
                ["gol gol-36-Ángel Di María"], nil
            ),
            (
                Self.final("IN_PLAY", minuto: 40, goles: [Self.diMaria]),
                ["anulado gol-23-Lionel Messi"], "En juego 40 - 90"
            ),
        ]
        try await reproducir(pasos, en: escenario, proveedor: proveedor)
        directo.senal(SIGTERM)
        #expect(await directo.esperar().codigo == 143)
        let lineas = try await escenario.marcador("registro").salida
        #expect(
            lineas.contains(
                "notificación «Gol anulado» enviada: Lionel Messi, minuto 23 (Argentina, de penalti)"
            ),
            "\(lineas)")
        #expect(!lineas.contains("Gol anulado» enviada: Ángel Di María"))
        #expect(await webhook.esperar(3))
        let posts = webhook.peticiones
        #expect(posts.count == 3)
        #expect(posts[0].cabeceras["idempotency-key"] == posts[2].cabeceras["idempotency-key"])
        let partido = try #require(try await documento(escenario))
        #expect("\(partido["marcador"] ?? "")" == "1-0", "\(partido)")
        // The page's timeline keeps what VAR took away, at its minute, beside what stands.
        #expect(
            try await ficha(escenario).cronologia == [
                "23 anulado Gol anulado: Lionel Messi (Argentina)",
                "36 gol Ángel Di María (Argentina) 1-0",
            ])
    }

    /// The match resource's bookings (contract.md: «Tarjeta roja»): a second yellow and a
    /// straight red, read from `/v4/matches/{id}` and not from the list, each once, to the channel that asked for `rojas` and to no other; a
    /// yellow card is nothing. The cards here are a made-up sequence, not the final's.
    @Test func lasRojasLleganUnaVezSoloAQuienLasPide() async throws {
        let (escenario, proveedor, webhook) = try await Self.preparar()
        defer {
            proveedor.cerrar()
            webhook.cerrar()
        }
        try await Self.anadirCanal("rojas", avisar: "rojas", en: escenario)
        let directo = try escenario.lanzar("directo")
        let amarilla = (minuto: 12, nombre: "Enzo Fernández", local: true, tarjeta: "YELLOW")
        let segunda = (minuto: 55, nombre: "Enzo Fernández", local: true, tarjeta: "YELLOW_RED")
        let roja = (minuto: 70, nombre: "Adrien Rabiot", local: false, tarjeta: "RED")
        // The list carries no bookings (as v4's does not): they come from the match resource,
        // read while the match is live and its entry changed, within the budget the provider
        // announces.
        typealias Tarjeta = (minuto: Int, nombre: String, local: Bool, tarjeta: String)
        let momentos:
            [(
                estado: String, minuto: Int?, goles: [GolDelFeed], avisos: [String],
                tarjetas: [Tarjeta]?
            )] = [
                ("TIMED", nil, [], [], nil),
                ("IN_PLAY", 13, [], ["inicio inicio"], [amarilla]),
                ("IN_PLAY", 56, [Self.messi], ["gol gol-23-Lionel Messi"], [amarilla, segunda]),
                ("IN_PLAY", 71, [Self.messi], [], [amarilla, segunda, roja]),
                ("FINISHED", 90, [Self.messi], ["final final"], [amarilla, segunda, roja]),
            ]
        try await reproducir(
            momentos.map {
                (Self.final($0.estado, minuto: $0.minuto, goles: $0.goles), $0.avisos, nil)
            },
            en: escenario, proveedor: proveedor,
            cabeceras: ["X-Requests-Available-Minute": "30"],
            detalles: momentos.map { momento in
                momento.tarjetas.map {
                    Self.final(
                        momento.estado, minuto: momento.minuto, goles: momento.goles,
                        tarjetas: $0, comoDetalle: true,
                        cambios: (momento.minuto ?? 0) > 60
                            ? [(minuto: 64, entra: "Lautaro Martínez", sale: "Julián Álvarez")]
                            : [],
                        asistencias: ["Lionel Messi": "Rodrigo De Paul"])
                }
            })
        let e2e = DirectoE2ETests()
        let esperadas = [
            "roja roja-55-Enzo Fernández entregada", "roja roja-70-Adrien Rabiot entregada",
        ]
        let llegadas = await esperarQue(limite: .seconds(60)) {
            (try? await e2e.entregas(escenario, canal: "rojas")) == esperadas
        }
        let vistas = try await e2e.entregas(escenario, canal: "rojas")
        #expect(llegadas, "\(vistas)")
        directo.senal(SIGTERM)
        #expect(await directo.esperar().codigo == 143)
        let lineas = try await escenario.marcador("registro").salida
        for texto in [
            "notificación «Tarjeta roja» enviada: Enzo Fernández, minuto 55 (Argentina, doble amarilla)",
            "notificación «Tarjeta roja» enviada: Adrien Rabiot, minuto 70 (France)",
        ] {
            #expect(lineas.components(separatedBy: texto).count == 2, "\(texto)\n\(lineas)")
        }
        // The match resource is read when the live entry changes (kick-off, goal, card minute,
        // full time: 4 on an idle machine), never twice in a poll; a read that timed out (a
        // loaded run saw 10) is tried again at the next poll.
        let lecturas = proveedor.peticiones.filter { $0.ruta == "/v4/matches/391881" }.count
        let listas = proveedor.peticiones.count - lecturas
        #expect(lecturas >= 3 && lecturas <= listas, "\(lecturas) lecturas, \(listas) listas")
        // The webhook keeps its default kinds (goles, anulados): the goal, no card.
        #expect(await webhook.esperar(1))
        let tipos = webhook.peticiones.compactMap {
            (try? JSONSerialization.jsonObject(with: $0.cuerpo) as? [String: Any])?["tipo"]
                as? String
        }
        #expect(tipos == ["gol"])
        // Stored with the match: its timeline shows the goal with its assist, both cards and
        // the substitution (which alerts nobody), by minute.
        let cronologia = try await ficha(escenario).cronologia
        #expect(
            cronologia == [
                "23 gol Lionel Messi (p) (Argentina) 1-0, asistencia de Rodrigo De Paul",
                "55 roja Tarjeta roja: Enzo Fernández (Argentina, doble amarilla)",
                "64 cambio Cambio (Argentina): entra Lautaro Martínez, sale Julián Álvarez",
                "70 roja Tarjeta roja: Adrien Rabiot (France)",
            ], "\(cronologia)")
    }

    /// Lineups out an hour before kick-off (contract.md: «Alineaciones»): read from the match
    /// resource once the list entry changes within 75 minutes of kick-off, each side once, to
    /// the channel that asked for `alineaciones`.
    @Test func lasAlineacionesLleganUnaVezPorEquipoAntesDelSaque() async throws {
        let (escenario, proveedor, webhook) = try await Self.preparar()
        defer {
            proveedor.cerrar()
            webhook.cerrar()
        }
        try await Self.anadirCanal("once", avisar: "alineaciones", en: escenario)
        let formato = ISO8601DateFormatter()
        let saque = formato.string(from: Date().addingTimeInterval(3_600))
        let argentina = [
            "Emiliano Martínez", "Nahuel Molina", "Cristian Romero", "Nicolás Otamendi",
            "Nicolás Tagliafico", "Rodrigo De Paul", "Enzo Fernández", "Alexis Mac Allister",
            "Ángel Di María", "Lionel Messi", "Julián Álvarez",
        ]
        let francia = [
            "Hugo Lloris", "Jules Koundé", "Raphaël Varane", "Dayot Upamecano", "Theo Hernández",
            "Aurélien Tchouaméni", "Adrien Rabiot", "Ousmane Dembélé", "Antoine Griezmann",
            "Kylian Mbappé", "Olivier Giroud",
        ]
        func lista(_ version: String) -> Data {
            Self.final("TIMED", saque: saque, actualizado: version)
        }
        func detalle(_ version: String, _ local: [String], _ visitante: [String]) -> Data {
            Self.final(
                "TIMED", comoDetalle: true, saque: saque, actualizado: version,
                alineaciones: (local, visitante))
        }
        let directo = try escenario.lanzar("directo")
        defer { directo.senal(SIGKILL) }
        let cabeceras = ["X-Requests-Available-Minute": "30"]
        let e2e = DirectoE2ETests()
        // First look; then Argentina's lineup; then France's too.
        try await reproducir(
            [(lista("v1"), [], nil)], en: escenario, proveedor: proveedor, cabeceras: cabeceras,
            detalles: [detalle("v1", [], [])])
        for (version, local, visitante, esperadas) in [
            ("v2", argentina, [String](), ["alineacion alineacion-local entregada"]),
            (
                "v3", argentina, francia,
                [
                    "alineacion alineacion-local entregada",
                    "alineacion alineacion-visitante entregada",
                ]
            ),
        ] {
            proveedor.fijar(
                DirectoE2ETests.json(detalle(version, local, visitante)), en: "/v4/matches/391881")
            var respuesta = DirectoE2ETests.json(lista(version))
            respuesta.cabeceras.merge(cabeceras) { _, nueva in nueva }
            proveedor.fijar(respuesta)
            let llegadas = await esperarQue(limite: .seconds(60)) {
                (try? await e2e.entregas(escenario, canal: "once")) == esperadas
            }
            let vistas = try await e2e.entregas(escenario, canal: "once")
            #expect(llegadas, "\(version): \(vistas)")
        }
        directo.senal(SIGTERM)
        #expect(await directo.esperar().codigo == 143)
        let lineas = try await escenario.marcador("registro").salida
        for texto in [
            "notificación «Alineaciones» enviada: Argentina (4-4-2): Emiliano Martínez, Nahuel "
                + "Molina, Cristian Romero, Nicolás Otamendi, Nicolás Tagliafico, Rodrigo De Paul, "
                + "Enzo Fernández, Alexis Mac Allister, Ángel Di María, Lionel Messi, Julián Álvarez",
            "notificación «Alineaciones» enviada: France (4-2-3-1): Hugo Lloris,",
        ] {
            #expect(lineas.components(separatedBy: texto).count == 2, "\(texto)\n\(lineas)")
        }
        // Nothing for the channels of goals: no webhook POST.
        #expect(webhook.peticiones.isEmpty)
        // The card (and the page) list both lineups, home side first.
        let alineaciones = try await ficha(escenario).alineaciones
        #expect(alineaciones.count == 2, "\(alineaciones)")
        #expect(alineaciones.first?.hasPrefix("Argentina (4-4-2): Emiliano Martínez,") == true)
        #expect(alineaciones.last?.hasPrefix("France (4-2-3-1): Hugo Lloris,") == true)
    }
}
