import Aplicacion
import Sistema
import Torneo

/// The pages' HTML as the server renders it (screen.md): the current state is readable before
/// any script runs; `app.js` then keeps it live. Every text from the data goes through `e`.
enum Vistas {
    /// Escaped for HTML text and attribute values.
    static func e(_ texto: String) -> String { Paginas.escaparHTML(TextoSeguro.limpio(texto)) }

    // MARK: - The list

    /// The matches grouped by competition, then by day (in the user's zone), in kick-off order.
    static func lista(_ partidos: [ResumenDePartido]) -> String {
        guard !partidos.isEmpty else {
            return "<p class=\"nota\">No hay partidos. Importa alguno con «marcador importar».</p>"
        }
        var orden: [String] = []
        var porCompeticion: [String: [ResumenDePartido]] = [:]
        for partido in partidos {
            let clave = partido.competicion ?? ""
            if porCompeticion[clave] == nil { orden.append(clave) }
            porCompeticion[clave, default: []].append(partido)
        }
        var html = ""
        for clave in orden {
            let suyos = porCompeticion[clave]!
            let titulo = clave.isEmpty ? "Partidos de la app" : clave
            html += "<section class=\"competicion\"><h2>"
            if clave.isEmpty {
                html += e(titulo)
            } else {
                html += "<a href=\"/competiciones/\(Rutas.codificar(clave))\">\(e(titulo))</a>"
            }
            html += "</h2>"
            var dia: String?? = .none
            for partido in suyos {
                let suDia = partido.saque.map { textoDeDia($0.diaLocal) }
                if dia == nil || dia! != suDia {
                    if dia != nil { html += "</ul>" }
                    if let suDia { html += "<h3>\(e(suDia))</h3>" }
                    html += "<ul class=\"lista\">"
                    dia = .some(suDia)
                }
                html += fila(partido)
            }
            html += "</ul></section>"
        }
        return html
    }

    /// The list's views: every match, those being played, today's; on a day, the days either
    /// side. The one shown carries `aria-current`.
    static func filtrosDeLista(dia: FechaDeCalendario?, enDirecto: Bool, hoy: FechaDeCalendario)
        -> String
    {
        func enlace(_ texto: String, _ destino: String, actual: Bool) -> String {
            "<a href=\"\(destino)\"\(actual ? " aria-current=\"page\"" : "")>\(e(texto))</a>"
        }
        var enlaces = [
            enlace("Todos", "/", actual: dia == nil && !enDirecto),
            enlace("En directo", "/?vista=directo", actual: enDirecto),
            enlace("Hoy", "/?fecha=\(hoy)", actual: dia == hoy),
        ]
        if let dia {
            enlaces.append(
                enlace(
                    "‹ \(dia.sumando(dias: -1))", "/?fecha=\(dia.sumando(dias: -1))", actual: false)
            )
            enlaces.append(
                enlace(
                    "\(dia.sumando(dias: 1)) ›", "/?fecha=\(dia.sumando(dias: 1))", actual: false))
        }
        return "<nav class=\"filtros\" aria-label=\"Qué partidos\">"
            + enlaces.joined(separator: " ") + "</nav>"
    }

    /// One row: the time, or the live minute, or «Final»; the teams; the score.
    static func fila(_ partido: ResumenDePartido) -> String {
        let estado = partido.estadoMostrado
        let (insignia, clase) = insigniaDeFila(partido)
        // A result decided after the 90 minutes says how: `3-3 (4-2 pen.)`.
        let desenlace = partido.jugadoSinRepetir ? partido.resultadoOficial?.desenlace : nil
        let marcador =
            estado == .sinEmpezar && !partido.conEjecucion
            ? ""
            : ResultadoOficial.conDesenlace(partido.marcadorMostrado.description, desenlace)
        return """
            <li id="partido-\(partido.id)" data-estado="\(estado.clave)"><a href="/partidos/\(partido.id)">\
            <span class="hora \(clase)"\(atributoDeSaque(partido))>\(e(insignia))</span>\
            <span class="local">\(e(partido.local))</span>\
            <span class="resultado">\(e(marcador))</span>\
            <span class="visitante">\(e(partido.visitante))</span>\
            </a></li>
            """
    }

    /// A kick-off time the page's script says again in the viewer's zone (the server writes
    /// it in its own): the instant, when the file gave one, on a match not yet started.
    static func atributoDeSaque(_ partido: ResumenDePartido) -> String {
        guard partido.estadoMostrado == .sinEmpezar, let saque = partido.saque,
            saque.instanteConocido
        else { return "" }
        return " data-saque=\"\(saque.segundos)\" data-forma=\"hora\""
    }

    /// What the first cell says: kick-off time before, the minute live, «Final» after.
    static func insigniaDeFila(_ partido: ResumenDePartido) -> (String, String) {
        switch partido.estadoMostrado {
        case .enJuego:
            if let directo = partido.directo, directo == .descanso || directo == .penaltis,
                !partido.conEjecucion
            {
                return (directo.texto, "en-vivo")
            }
            return ("\(partido.minutoDeJuegoMostrado)'", "en-vivo")
        case .terminado: return ("Final", "final")
        case .cancelado: return ("Cancelado", "parado")
        case .interrumpido: return ("Parado", "parado")
        case .sinEmpezar:
            if let hora = partido.saque?.textoLocal.split(separator: " ").dropFirst().first {
                return (String(hora), "")
            }
            return ("–", "")
        }
    }

    static let diasDeLaSemana = [
        "domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado",
    ]
    static let meses = [
        "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre",
        "octubre", "noviembre", "diciembre",
    ]

    /// `jueves, 14 de junio de 2018`; today, tomorrow and yesterday by their names first, as a
    /// fan reads a fixture list (`hoy, sábado 5 de diciembre de 2026`), in the server's zone.
    static func textoDeDia(_ dia: FechaDeCalendario, hoy: FechaDeCalendario = ZonaHoraria.hoy)
        -> String
    {
        // 1970-01-01 was a Thursday.
        let semana = ((dia.diasDesde1970 % 7) + 7 + 4) % 7
        let fecha = "\(dia.dia) de \(meses[dia.mes - 1]) de \(dia.ano)"
        let nombre = [0: "hoy", 1: "mañana", -1: "ayer"][dia.diasDesde1970 - hoy.diasDesde1970]
        return nombre.map { "\($0), \(diasDeLaSemana[semana]) \(fecha)" }
            ?? "\(diasDeLaSemana[semana]), \(fecha)"
    }

    /// A kick-off as the card's context says it: `hoy, 21:00`, `mañana, 16:00`, or the day in
    /// full with the time (`jueves, 14 de junio de 2018, 15:00`).
    static func textoDeSaque(_ saque: Saque, hoy: FechaDeCalendario = ZonaHoraria.hoy) -> String {
        let partes = saque.textoLocal.split(separator: " ")
        let dia = textoDeDia(saque.diaLocal, hoy: hoy)
        let corto = dia.split(separator: ",").first.map(String.init) ?? dia
        let texto = ["hoy", "mañana", "ayer"].contains(corto) ? corto : dia
        return partes.count > 1 ? "\(texto), \(partes[1])" : texto
    }

    // MARK: - The match

    /// The scoreboard: the teams either side of the score, each with its scorers.
    static func tablero(_ ficha: FichaCompleta, _ situacion: PantallaJSON) -> String {
        let partido = ficha.ficha.partido
        let mano = Marcador(texto: situacion.golesAMano) ?? .cero
        return """
            <section class="tablero" aria-label="Marcador">\
            <div class="lado">\
            <p class="equipo" id="local">\(e(partido.local.nombre))</p>\
            <ul class="goleadores" id="goleadores-local">\(goleadores(situacion.goles, .local, mano.local))</ul>\
            </div>\
            <div class="centro">\
            <p id="marcador" class="marcador">\(e(situacion.marcador))</p>\
            <p id="estado" class="estado">\(e(situacion.estadoTexto))</p>\
            <p class="minuto">Minuto <span id="minuto">\(situacion.minuto)\(situacion.anadido.map { "+\($0)" } ?? "")</span> de <span id="duracion">\(situacion.duracion)</span></p>\
            <p class="penaltis" id="penaltis"\(situacion.penaltis == nil ? " hidden" : "")>Penaltis: <span id="tanda">\(e(situacion.penaltis ?? ""))</span></p>\
            </div>\
            <div class="lado">\
            <p class="equipo" id="visitante">\(e(partido.visitante.nombre))</p>\
            <ul class="goleadores" id="goleadores-visitante">\(goleadores(situacion.goles, .visitante, mano.visitante))</ul>\
            </div>\
            </section>
            """
    }

    /// A side's scorers with minute and marks, then its manual goals (marked as such).
    static func goleadores(_ goles: [GolDeLaLinea], _ lado: Lado, _ aMano: Int) -> String {
        var html = ""
        for gol in goles where gol.lado == lado.rawValue {
            html +=
                "<li>\(e(gol.jugadorConMarcas)) <span class=\"nota\">\(e(gol.minuto))'</span></li>"
        }
        for _ in 0..<max(0, aMano) { html += "<li class=\"a-mano\">Gol a mano</li>" }
        return html
    }

    /// The timeline: `10' Ana (Rayo FC) 1-0`, `78' Tarjeta roja: Björn (Cigüeñas FC, doble
    /// amarilla)`, each line marked with its kind (a class the stylesheet draws a sign for).
    static func cronologia(_ sucesos: [SucesoDeLaLinea]) -> String {
        sucesos.map { suceso in
            let lado = suceso.lado.map { " data-lado=\"\(e($0))\"" } ?? ""
            return """
                <li class="suceso \(suceso.clase.rawValue)"\(lado)><span class="minuto">\(e(suceso.minuto))'</span> <span class="texto">\(e(suceso.texto))</span></li>
                """
        }.joined()
    }

    /// The lineups: the team and formation in bold, then its starters.
    static func alineaciones(_ alineaciones: [String]) -> String {
        alineaciones.map { texto in
            let partes = texto.split(separator: ": ", maxSplits: 1).map(String.init)
            guard partes.count == 2 else { return "<li>\(e(texto))</li>" }
            return "<li><strong>\(e(partes[0]))</strong>: \(e(partes[1]))</li>"
        }.joined()
    }

    /// Where and when: `World Cup 2018 · Group A · Matchday 1 · 2018-06-14 15:00`.
    static func contexto(_ ficha: FichaCompleta) -> String {
        let partes = [ficha.ficha.partido.competicion, ficha.ficha.grupo, ficha.ficha.ronda]
            .compactMap { $0 }
        var html = partes.map(e)
        if let saque = Saque(fecha: ficha.ficha.fecha, hora: ficha.ficha.hora) {
            // The viewer's zone, by the page's script, where the instant is known.
            html.append(
                saque.instanteConocido
                    ? "<time data-saque=\"\(saque.segundos)\" data-forma=\"dia\">\(e(textoDeSaque(saque)))</time>"
                    : e(textoDeSaque(saque)))
        }
        if let oficial = ficha.resultadoOficial?.texto {
            html.append(e("Resultado oficial: \(oficial)"))
        }
        return html.joined(separator: " · ")
    }

    /// The duration setting's choices, the one in force checked.
    static func duraciones(_ ajuste: Int, conProrroga: Bool) -> String {
        Duracion.ajustables.map { minutos in
            let texto =
                minutos == Duracion.porDefecto && conProrroga
                ? "90 minutos (120 en este partido, con prórroga)" : "\(minutos) minutos"
            return """
                <label><input type="radio" name="duracion" value="\(minutos)"\(minutos == ajuste ? " checked" : "")> \(texto)</label>
                """
        }.joined(separator: " ")
    }

    // MARK: - Competitions

    static func competiciones(_ todas: [ResumenDeCompeticion]) -> String {
        let nombradas = todas.compactMap { competicion in
            competicion.nombre.map { ($0, competicion) }
        }
        guard !nombradas.isEmpty else {
            return
                "<p class=\"nota\">No hay competiciones. Importa alguna con «marcador importar».</p>"
        }
        return "<ul class=\"lista competiciones\">"
            + nombradas.map { nombre, competicion in
                """
                <li><a href="/competiciones/\(Rutas.codificar(nombre))"><span class="local">\(e(nombre))</span>\
                <span class="nota">\(competicion.partidos) partidos · \(competicion.jugados) jugados</span></a></li>
                """
            }.joined() + "</ul>"
    }

    /// The tables, and under them the tie-break they use.
    static func tablas(
        _ nombre: String, _ formato: FormatoDeCompeticion, _ tablas: [TablaDeGrupo],
        regla: ReglaDeDesempate
    ) -> String {
        var leyenda: [ZonaDeTabla] = []
        return tablas.map { tabla in
            let zonas = ZonaDeTabla.de(
                formato: formato, equipos: tabla.filas.count, grupos: tablas.count)
            for zona in zonas where !leyenda.contains(zona) { leyenda.append(zona) }
            let titulo = tabla.grupo ?? (formato == .faseDeLiga ? "Fase de liga" : "Clasificación")
            var html = "<h2>\(e(titulo))</h2><div class=\"desplazable\"><table class=\"tabla\">"
            html += "<caption class=\"solo-lectores\">\(e(nombre)) · \(e(titulo))</caption>"
            html += "<thead><tr><th scope=\"col\">#</th><th scope=\"col\">Equipo</th>"
            for (corta, larga) in [
                ("PJ", "Jugados"), ("G", "Ganados"), ("E", "Empatados"), ("P", "Perdidos"),
                ("GF", "Goles a favor"), ("GC", "Goles en contra"), ("DG", "Diferencia"),
                ("Pts", "Puntos"),
            ] {
                html += "<th scope=\"col\"><abbr title=\"\(larga)\">\(corta)</abbr></th>"
            }
            html += "<th scope=\"col\">Últimos</th></tr></thead><tbody>"
            for (posicion, fila) in tabla.filas.enumerated() {
                // The zone by colour and, for whoever cannot see it, in words.
                let zona = zonas.first { $0.puestos.contains(posicion + 1) }
                html += "<tr\(zona.map { " class=\"zona-\($0.clase.rawValue)\"" } ?? "")>"
                html += "<td>\(posicion + 1)</td><th scope=\"row\">\(e(fila.equipo))"
                if let zona { html += "<span class=\"solo-lectores\"> (\(e(zona.texto)))</span>" }
                html += "</th>"
                for valor in [
                    fila.jugados, fila.ganados, fila.empatados, fila.perdidos, fila.aFavor,
                    fila.enContra,
                ] {
                    html += "<td>\(valor)</td>"
                }
                html +=
                    "<td>\(e(fila.diferenciaConSigno))</td><td><strong>\(fila.puntos)</strong></td>"
                html += "<td class=\"forma\">\(e(fila.ultimos))</td></tr>"
            }
            html += "</tbody></table></div>"
            if tabla.sinResultado > 0 {
                html += "<p class=\"nota\">\(e(Frases.sinResultado(tabla.sinResultado)))</p>"
            }
            return html
        }.joined() + leyendaDeZonas(leyenda) + "<p class=\"nota\">\(e(regla.texto))</p>"
    }

    /// What each zone's colour means, once under a competition's tables.
    static func leyendaDeZonas(_ zonas: [ZonaDeTabla]) -> String {
        guard !zonas.isEmpty else { return "" }
        return "<ul class=\"leyenda\" aria-label=\"Zonas de la tabla\">"
            + zonas.map {
                "<li class=\"zona-\($0.clase.rawValue)\"><span class=\"muestra\" aria-hidden=\"true\"></span>\(e($0.texto))</li>"
            }.joined() + "</ul>"
    }

    static func goleadores(
        _ filas: [(posicion: Int, fila: Goleadores.Fila)], partidos: Int, sinLista: Int
    ) -> String {
        guard !filas.isEmpty else {
            return sinLista > 0
                ? "<p class=\"nota\">Esta competición no trae listas de goles (\(sinLista) de sus \(partidos) partidos solo dan el resultado).</p>"
                : "<p class=\"nota\">Todavía no hay goles.</p>"
        }
        var html = "<table class=\"tabla\"><thead><tr><th scope=\"col\">#</th>"
        html += "<th scope=\"col\">Jugador</th><th scope=\"col\">Equipo</th>"
        html += "<th scope=\"col\">Goles</th><th scope=\"col\">Penaltis</th></tr></thead><tbody>"
        for (posicion, fila) in filas {
            html += "<tr><td>\(posicion)</td><th scope=\"row\">\(e(fila.jugador))</th>"
            html += "<td>\(e(fila.equipo))</td><td>\(fila.goles)</td><td>\(fila.penaltis)</td></tr>"
        }
        return html + "</tbody></table>"
    }
}

extension Marcador {
    /// `3-2` as the pages and the CLI write it.
    init?(texto: String) {
        let partes = texto.split(separator: "-")
        guard partes.count == 2, let local = Int(partes[0]), let visitante = Int(partes[1]) else {
            return nil
        }
        self.init(local: local, visitante: visitante)
    }
}

/// Paths of the pages.
enum Rutas {
    /// A competition's name as one path segment: letters and digits as they are, the rest
    /// percent-encoded (UTF-8).
    static func codificar(_ texto: String) -> String {
        var salida = ""
        for byte in texto.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."):
                salida.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                salida += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return salida
    }

    /// The inverse of `codificar`; `nil` for a malformed escape or bytes that are not UTF-8.
    static func descodificar(_ texto: String) -> String? {
        var bytes: [UInt8] = []
        var indice = texto.utf8.startIndex
        let utf8 = texto.utf8
        while indice < utf8.endIndex {
            if utf8[indice] == UInt8(ascii: "%") {
                let inicio = utf8.index(after: indice)
                guard utf8.distance(from: inicio, to: utf8.endIndex) >= 2 else { return nil }
                let fin = utf8.index(inicio, offsetBy: 2)
                guard
                    let valor = UInt8(
                        String(decoding: utf8[inicio..<fin], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(valor)
                indice = fin
            } else {
                bytes.append(utf8[indice])
                indice = utf8.index(after: indice)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
