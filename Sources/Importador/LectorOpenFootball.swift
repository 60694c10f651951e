import Sistema
import Torneo

/// Reads the openfootball match formats (https://github.com/openfootball): `{"matches": […]}`
/// (the World Cup files) and `{"rounds": [{"name", "matches": […]}]}` (euro.json, the older
/// football.json files), lenient in what it accepts (minutes as numbers or `"90+3"`, `offset`,
/// missing goal lists, teams as names or `{ "name", "code" }`), strict in what it returns
/// (every goal with a valid minute and player, every match with two different teams, every date
/// on the calendar).
public enum LectorOpenFootball {
    /// - Throws: `FalloDeImportacion` naming the match (index, teams) and the field.
    public static func leer(
        _ bytes: [UInt8], nombrePorDefecto: String, rigor: Rigor = .importacion
    ) throws -> Competicion {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw FalloDeImportacion(mensaje: "el fichero está vacío")
        }
        let raiz: ValorJSON
        do {
            raiz = try AnalizadorJSON.leer(bytes)
        } catch {
            let (linea, columna) = Self.lineaYColumna(de: error.posicion, en: bytes)
            throw FalloDeImportacion(
                mensaje: "no es JSON válido (línea \(linea), columna \(columna))")
        }
        guard case .objeto = raiz else {
            throw FalloDeImportacion(
                mensaje:
                    "se esperaba un objeto con «matches» o «rounds», no \(raiz.descripcion)")
        }
        var nombre = nombrePorDefecto
        if let valor = raiz["name"] {
            guard case .texto(let texto) = valor, !texto.trimmed.isEmpty else {
                throw FalloDeImportacion(
                    mensaje: "«name» debe ser un texto, no \(valor.descripcion)")
            }
            nombre = try Self.nombre(texto.trimmed, rigor) { problema in
                FalloDeImportacion(mensaje: "«name» (la competición) \(problema)")
            }
        }
        let lista = try Self.partidosSinLeer(raiz, rigor)
        var partidos: [PartidoImportado] = []
        var descartados: [String] = []
        var vistos: [String: Int] = [:]
        for (indice, (valor, ronda)) in lista.enumerated() {
            var partido: PartidoImportado
            do {
                partido = try self.partido(valor, numero: indice + 1, rigor)
            } catch let fallo as FalloDeImportacion where rigor == .directo {
                descartados.append(fallo.mensaje)
                continue
            }
            if partido.ronda == nil { partido.ronda = ronda }
            // The same match (date and teams) twice in one file: which one is right cannot be
            // guessed, so the file is refused, naming both (a feed keeps the first).
            let clave = partido.clave(competicion: nombre)
            if let anterior = vistos[clave] {
                let mensaje =
                    "los partidos \(anterior) y \(indice + 1) son el mismo (\(partido.fecha ?? "sin fecha"), \(partido.local) – \(partido.visitante))"
                guard rigor == .directo else { throw FalloDeImportacion(mensaje: mensaje) }
                descartados.append(mensaje)
                continue
            }
            vistos[clave] = indice + 1
            partidos.append(partido)
        }
        return Competicion(nombre: nombre, partidos: partidos, descartados: descartados)
    }

    /// A name as `rigor` takes it: refused with its problem (import), or made safe (feed).
    /// - Throws: `fallo(problema)` when it is refused, or empty once made safe.
    static func nombre(
        _ texto: String, _ rigor: Rigor, _ fallo: (String) -> FalloDeImportacion
    ) throws -> String {
        switch rigor {
        case .importacion:
            if let problema = problema(texto) { throw fallo(problema) }
            return texto
        case .directo:
            let seguro = nombreSeguro(texto)
            guard !seguro.isEmpty else { throw fallo("no tiene más que caracteres de control") }
            return seguro
        }
    }

    /// `texto` within the import's limits, whatever it held (for names from a live feed).
    public static func nombreSeguro(_ texto: String) -> String {
        TextoSeguro.saneado(
            texto, caracteres: longitudMaxima, bytes: bytesMaximos, marcas: marcasMaximas)
    }

    /// The matches of either layout, each with the name of the round it came in (the
    /// `rounds` layout names the round once, above its matches).
    private static func partidosSinLeer(_ raiz: ValorJSON, _ rigor: Rigor) throws -> [(
        ValorJSON, String?
    )] {
        switch (raiz["matches"], raiz["rounds"]) {
        case (nil, nil):
            throw FalloDeImportacion(mensaje: "falta la lista «matches» (o «rounds»)")
        case (.some, .some):
            throw FalloDeImportacion(
                mensaje: "tiene «matches» y «rounds» a la vez: no se sabe cuál vale")
        case (let partidos?, nil):
            guard case .lista(let lista) = partidos else {
                throw FalloDeImportacion(
                    mensaje: "«matches» debe ser una lista, no \(partidos.descripcion)")
            }
            return lista.map { ($0, nil) }
        case (nil, let rondas?):
            guard case .lista(let lista) = rondas else {
                throw FalloDeImportacion(
                    mensaje: "«rounds» debe ser una lista, no \(rondas.descripcion)")
            }
            var todos: [(ValorJSON, String?)] = []
            for (indice, ronda) in lista.enumerated() {
                let lugar = "rounds[\(indice)]"
                guard case .objeto = ronda else {
                    throw FalloDeImportacion(
                        mensaje: "\(lugar) debe ser un objeto, no \(ronda.descripcion)")
                }
                var nombre: String?
                switch ronda["name"] {
                case nil, .nulo?: nombre = nil
                case .texto(let texto)? where texto.trimmed.isEmpty:
                    nombre = nil
                case .texto(let texto)?:
                    nombre = try Self.nombre(texto.trimmed, rigor) { problema in
                        FalloDeImportacion(mensaje: "\(lugar).name \(problema)")
                    }
                case let otro?:
                    throw FalloDeImportacion(
                        mensaje: "\(lugar).name debe ser un texto, no \(otro.descripcion)")
                }
                guard case .lista(let partidos)? = ronda["matches"] else {
                    throw FalloDeImportacion(
                        mensaje: "\(lugar) (\(nombre.map(TextoSeguro.limpio) ?? "sin nombre")): "
                            + "falta su lista «matches»")
                }
                todos += partidos.map { ($0, nombre) }
            }
            return todos
        }
    }

    /// Line and column (both from 1; the column counts characters, not bytes) of byte
    /// `posicion`, for a JSON error a user can find in an editor.
    static func lineaYColumna(de posicion: Int, en bytes: [UInt8]) -> (Int, Int) {
        var linea = 1
        var inicioDeLinea = 0
        let fin = min(posicion, bytes.count)
        for i in 0..<fin where bytes[i] == 0x0A {
            linea += 1
            inicioDeLinea = i + 1
        }
        // UTF-8 continuation bytes (10xxxxxx) do not start a character.
        let columna = bytes[inicioDeLinea..<fin].filter { $0 & 0xC0 != 0x80 }.count + 1
        return (linea, columna)
    }

    /// Longest name accepted: no team, player, competition or ground needs more, and a
    /// longer one would only make every table, log line and file name unusable.
    public static let longitudMaxima = 200
    /// The same limit in bytes of UTF-8: 200 characters of any script fit (four bytes each at
    /// most for a plain one), but not one letter under thousands of combining accents, which
    /// counts as one character (round 2 let 40,000 through, and every table trapped).
    public static let bytesMaximos = 800
    /// Combining marks on one character: real names use up to two (Vietnamese «ệ»); more is
    /// noise that stacks over the lines around it.
    public static let marcasMaximas = 3

    /// Why a name from a feed cannot be stored, or `nil` when it can: the import's rules.
    public static func problemaDeNombre(_ texto: String) -> String? { problema(texto) }

    /// Why a text from the file cannot be stored, or `nil` when it can (safety.md).
    static func problema(_ texto: String) -> String? {
        if texto.utf8.count > bytesMaximos {
            return "pasa de \(bytesMaximos) bytes (tiene \(texto.utf8.count))"
        }
        if let control = texto.unicodeScalars.first(where: TextoSeguro.esControl) {
            return "tiene un carácter de control (\(TextoSeguro.limpio(String(control))))"
        }
        if texto.count > longitudMaxima {
            return "pasa de \(longitudMaxima) caracteres (tiene \(texto.count))"
        }
        for caracter in texto {
            let marcas = caracter.unicodeScalars.filter {
                $0.properties.generalCategory == .nonspacingMark
                    || $0.properties.generalCategory == .enclosingMark
                    || $0.properties.generalCategory == .spacingMark
            }.count
            if marcas > marcasMaximas {
                return
                    "lleva \(marcas) acentos o marcas sobre una misma letra (como mucho \(marcasMaximas))"
            }
        }
        return nil
    }

    private static func partido(_ valor: ValorJSON, numero: Int, _ rigor: Rigor) throws
        -> PartidoImportado
    {
        var lugar = "partido \(numero)"
        func fallo(_ campo: String, _ problema: String) -> FalloDeImportacion {
            FalloDeImportacion(mensaje: "\(lugar): \(campo): \(problema)")
        }
        guard case .objeto = valor else {
            throw fallo("el partido", "debe ser un objeto, no \(valor.descripcion)")
        }
        let local = try equipo(valor["team1"], "team1", rigor, fallo)
        let visitante = try equipo(valor["team2"], "team2", rigor, fallo)
        lugar = "partido \(numero) (\(local) – \(visitante))"
        guard local != visitante else { throw fallo("team2", "es el mismo equipo que team1") }
        let fecha = try textoOpcional(valor["date"], "date", .importacion, fallo)
        if let fecha, FechaDeCalendario(fecha) == nil {
            throw fallo(
                "date", "«\(TextoSeguro.limpio(fecha))» no es una fecha del calendario (AAAA-MM-DD)"
            )
        }
        let hora = try textoOpcional(valor["time"], "time", .importacion, fallo)
        if let hora, HoraDeSaque(hora) == nil {
            throw fallo(
                "time",
                "«\(TextoSeguro.limpio(hora))» no es una hora (como 18:00 o 18:00 UTC+3)")
        }
        var importado = PartidoImportado(
            local: local, visitante: visitante,
            ronda: try textoOpcional(valor["round"], "round", rigor, fallo),
            fecha: fecha, hora: hora,
            grupo: try textoOpcional(valor["group"], "group", rigor, fallo),
            estadio: try textoOpcional(valor["ground"], "ground", rigor, fallo),
            goles: nil, tieneProrroga: false, avisos: [])
        if let marcador = valor["score"], marcador != .nulo {
            guard case .objeto = marcador else {
                throw fallo("score", "debe ser un objeto, no \(marcador.descripcion)")
            }
            importado.finalDelPartido = try resultado(marcador["ft"], "score.ft", fallo)
            importado.trasLaProrroga = try resultado(marcador["et"], "score.et", fallo)
            importado.penaltis = try resultado(marcador["p"], "score.p", fallo)
        }
        importado.tieneProrroga = importado.trasLaProrroga != nil
        let listas = (valor["goals1"], valor["goals2"])
        if listas.0 == nil && listas.1 == nil {
            // A goalless match needs no list: its (empty) script is known.
            if importado.resultadoEsperado == .cero { importado.goles = [] }
            return importado
        }
        var crudos: [(MinutoDeJuego, Gol, Int)] = []
        for (campo, lista, lado) in [
            ("goals1", listas.0, Lado.local), ("goals2", listas.1, Lado.visitante),
        ] {
            guard let lista, lista != .nulo else { continue }
            guard case .lista(let goles) = lista else {
                throw fallo(campo, "debe ser una lista, no \(lista.descripcion)")
            }
            for (i, gol) in goles.enumerated() {
                let leido = try self.gol(
                    gol, campo: "\(campo)[\(i)]", lado: lado, local: local, visitante: visitante,
                    rigor, fallo)
                crudos.append((leido.minuto, leido, crudos.count))
            }
        }
        // Extra time: `score.et`, or a goal at 100–120 that can only be extra time.
        if !importado.tieneProrroga,
            let tardio = crudos.first(where: {
                $0.1.minuto.anadido == 0 && (100...120).contains($0.1.minuto.minuto)
            })?.1
        {
            importado.tieneProrroga = true
            importado.avisos.append(
                "\(lugar): gol de \(tardio.jugador.nombre) en el minuto \(tardio.minuto) sin «score.et»: se juega con prórroga"
            )
        }
        // Minutes just past a period's end without an offset are that period's added time, as
        // real files write them: 91–99 without extra time is 90+N, 121–130 with it is 120+N.
        var goles: [Gol] = []
        for (_, gol, _) in crudos {
            var gol = gol
            let minuto = gol.minuto
            if minuto.anadido == 0 {
                if !importado.tieneProrroga && (91...99).contains(minuto.minuto) {
                    gol.minuto = MinutoDeJuego(90, anadido: minuto.minuto - 90)
                    importado.avisos.append(
                        "\(lugar): el gol de \(gol.jugador.nombre) en el minuto \(minuto) se lee como \(gol.minuto) (no hubo prórroga)"
                    )
                } else if importado.tieneProrroga && (121...130).contains(minuto.minuto) {
                    gol.minuto = MinutoDeJuego(120, anadido: minuto.minuto - 120)
                    importado.avisos.append(
                        "\(lugar): el gol de \(gol.jugador.nombre) en el minuto \(minuto) se lee como \(gol.minuto) (tiempo añadido de la prórroga)"
                    )
                } else if minuto.minuto > 120 {
                    throw fallo(
                        "goles",
                        "el gol de \(gol.jugador.nombre) en el minuto \(minuto) no cabe en un partido sin prórroga"
                    )
                }
            }
            goles.append(gol)
        }
        // Playing order: by minute and added time; the file's order settles ties.
        importado.goles = goles.enumerated().sorted { a, b in
            a.element.minuto != b.element.minuto
                ? a.element.minuto < b.element.minuto : a.offset < b.offset
        }.map(\.element)
        comprobarResultado(&importado, lugar: lugar)
        return importado
    }

    /// Goals up to 90 (with added time) must make the full-time score, and all of them the
    /// extra-time score; a mismatch is a warning, since the script is still playable.
    private static func comprobarResultado(_ importado: inout PartidoImportado, lugar: String) {
        guard var goles = importado.goles else { return }
        func contar(_ cuales: [Gol]) -> Marcador {
            cuales.reduce(Marcador.cero) { $0.sumando($1.lado) }
        }
        // Lists written under the wrong team (goals1 holding team2's goals, as euro.json does
        // for Ukraine 0-4 England): when the sums are exactly the result the other way round,
        // the sides are swapped back, and said so.
        let oficial = importado.trasLaProrroga ?? importado.finalDelPartido
        let todos = contar(goles)
        if let oficial, todos != oficial, todos.local != todos.visitante,
            Marcador(local: todos.visitante, visitante: todos.local) == oficial
        {
            goles = goles.map { gol in
                var gol = gol
                gol.lado = gol.lado.contrario
                let deQuien = gol.enPropiaPuerta ? gol.lado.contrario : gol.lado
                gol.jugador = Jugador(
                    gol.jugador.nombre,
                    de: Equipo(deQuien == .local ? importado.local : importado.visitante))
                return gol
            }
            importado.goles = goles
            importado.avisos.append(
                "\(lugar): los goles de goals1 y goals2 suman \(todos) y el resultado es \(oficial): "
                    + "se leen como del otro equipo")
        }
        if let ft = importado.finalDelPartido {
            let hasta90 = contar(goles.filter { $0.minuto.minuto <= 90 })
            if hasta90 != ft {
                importado.avisos.append(
                    "\(lugar): los goles hasta el 90 suman \(hasta90) pero score.ft dice \(ft)")
            }
        }
        if let et = importado.trasLaProrroga {
            let todos = contar(goles)
            if todos != et {
                importado.avisos.append(
                    "\(lugar): todos los goles suman \(todos) pero score.et dice \(et)")
            }
        }
    }

    private static func gol(
        _ valor: ValorJSON, campo: String, lado: Lado, local: String, visitante: String,
        _ rigor: Rigor, _ fallo: (String, String) -> FalloDeImportacion
    ) throws -> Gol {
        guard case .objeto = valor else {
            throw fallo(campo, "debe ser un objeto, no \(valor.descripcion)")
        }
        guard case .texto(let nombreCrudo)? = valor["name"], !nombreCrudo.trimmed.isEmpty else {
            throw fallo("\(campo).name", "falta el nombre del jugador")
        }
        let jugador = try nombre(nombreCrudo.trimmed, rigor) { problema in
            fallo("\(campo).name", "el nombre \(problema)")
        }
        var minuto: MinutoDeJuego
        switch valor["minute"] {
        case .numero(let n)?:
            guard n == n.rounded(), n >= 1, n <= 130 else {
                throw fallo(
                    "\(campo).minute",
                    "\(ValorJSON.numero(n).descripcion) no es un minuto (de 1 a 130)")
            }
            minuto = MinutoDeJuego(Int(n))
        case .texto(let texto)?:
            guard let leido = MinutoDeJuego(texto: texto), leido.minuto >= 1,
                leido.minuto <= (leido.anadido > 0 ? 120 : 130), leido.anadido <= 30
            else {
                throw fallo(
                    "\(campo).minute",
                    "«\(TextoSeguro.limpio(texto))» no es un minuto (como 35 o 90+3)")
            }
            minuto = leido
        case nil:
            throw fallo("\(campo).minute", "falta el minuto")
        case let otro?:
            throw fallo("\(campo).minute", "\(otro.descripcion) no es un minuto")
        }
        if let offset = valor["offset"], offset != .nulo {
            guard case .numero(let n) = offset, n == n.rounded(), n >= 0, n <= 30 else {
                throw fallo(
                    "\(campo).offset", "\(offset.descripcion) no es un tiempo añadido (de 0 a 30)")
            }
            minuto.anadido += Int(n)
            guard minuto.anadido <= 30 else {
                throw fallo(
                    "\(campo).offset",
                    "el tiempo añadido pasa de 30 minutos (\(minuto.minuto)+\(minuto.anadido))")
            }
            guard minuto.minuto <= 120 else {
                throw fallo(
                    "\(campo).offset", "el minuto \(minuto.minuto) no admite tiempo añadido")
            }
        }
        let penalti = try bandera(valor["penalty"], "\(campo).penalty", fallo)
        let enPropiaPuerta = try bandera(valor["owngoal"], "\(campo).owngoal", fallo)
        // goalsN are the goals credited to teamN; an own goal's scorer plays for the other team.
        let deQuien = enPropiaPuerta ? lado.contrario : lado
        let equipo = Equipo(deQuien == .local ? local : visitante)
        return Gol(
            minuto: minuto, jugador: Jugador(jugador, de: equipo), lado: lado,
            penalti: penalti,
            enPropiaPuerta: enPropiaPuerta)
    }

    private static func equipo(
        _ valor: ValorJSON?, _ campo: String, _ rigor: Rigor,
        _ fallo: (String, String) -> FalloDeImportacion
    ) throws -> String {
        func comprobado(_ texto: String) throws -> String {
            try nombre(texto, rigor) { fallo(campo, "el nombre \($0)") }
        }
        switch valor {
        case .texto(let nombre)? where !nombre.trimmed.isEmpty:
            return try comprobado(nombre.trimmed)
        case .objeto(let campos)?:
            if case .texto(let nombre)? = campos["name"], !nombre.trimmed.isEmpty {
                return try comprobado(nombre.trimmed)
            }
            throw fallo(campo, "el equipo no tiene «name»")
        case nil, .nulo?:
            throw fallo(campo, "falta el equipo")
        case let otro?:
            throw fallo(campo, "\(otro.descripcion) no es un equipo")
        }
    }

    private static func textoOpcional(
        _ valor: ValorJSON?, _ campo: String, _ rigor: Rigor,
        _ fallo: (String, String) -> FalloDeImportacion
    ) throws -> String? {
        switch valor {
        case nil, .nulo?: return nil
        case .texto(let texto)?:
            guard !texto.trimmed.isEmpty else { return nil }
            return try nombre(texto.trimmed, rigor) { fallo(campo, $0) }
        case .numero?: return valor!.descripcion
        case let otro?: throw fallo(campo, "debe ser un texto, no \(otro.descripcion)")
        }
    }

    private static func bandera(
        _ valor: ValorJSON?, _ campo: String, _ fallo: (String, String) -> FalloDeImportacion
    ) throws -> Bool {
        switch valor {
        case nil, .nulo?: return false
        case .booleano(let b)?: return b
        case let otro?: throw fallo(campo, "debe ser true o false, no \(otro.descripcion)")
        }
    }

    private static func resultado(
        _ valor: ValorJSON?, _ campo: String, _ fallo: (String, String) -> FalloDeImportacion
    ) throws -> Marcador? {
        guard let valor, valor != .nulo else { return nil }
        guard case .lista(let goles) = valor, goles.count == 2,
            case .numero(let a) = goles[0], case .numero(let b) = goles[1],
            a == a.rounded(), b == b.rounded(), a >= 0, b >= 0, a < 1000, b < 1000
        else {
            throw fallo(campo, "\(valor.descripcion) no es un resultado como [2, 1]")
        }
        return Marcador(local: Int(a), visitante: Int(b))
    }
}

extension String {
    var trimmed: String {
        var vista = Substring(self)
        while let c = vista.first, c.isWhitespace { vista.removeFirst() }
        while let c = vista.last, c.isWhitespace { vista.removeLast() }
        return String(vista)
    }
}
