import Torneo

/// The JSON shape of one match in a list: `partidos --json` and `GET /api/partidos`. Its keys
/// are part of the scripting interface.
public struct PartidoJSON: Encodable, Sendable {
    /// The latest run, as it stands.
    public struct EjecucionJSON: Encodable, Sendable {
        var estado: String
        var estadoTexto: String
        var minuto: Int
        var marcador: String
        var golesDelGuion: String
        var golesAMano: String
        var duracion: Int
        /// A run of a match that was really played.
        var repeticion: Bool
    }
    public var id: Int
    public var local: String
    public var visitante: String
    public var competicion: String?
    /// The venue's day and time as the file gives them (`2018-06-14`, `18:00 UTC+3`).
    public var fecha: String?
    public var hora: String?
    /// Kick-off in the user's zone (`2018-06-14 17:00`), or the venue's time when the file
    /// gives no offset.
    public var inicio: String?
    /// What the list shows (import.md): a match really played and never replayed here is
    /// `terminado` with its official score.
    public var estado: String
    public var estadoTexto: String
    public var minuto: Int
    /// The added time of a live match's minute (`45+2`), when there is some.
    public var anadido: Int?
    public var marcador: String
    /// The latest run's own goals (as in round 2), zero without one.
    public var golesDelGuion: String
    public var golesAMano: String
    public var duracion: Int
    public var resultadoOficial: FichaJSON.Oficial?
    public var ejecucion: EjecucionJSON?

    public init(_ resumen: ResumenDePartido) {
        id = resumen.id
        local = resumen.local
        visitante = resumen.visitante
        competicion = resumen.competicion
        fecha = resumen.fecha
        hora = resumen.hora
        inicio = resumen.saque?.textoLocal
        estado = resumen.estadoMostrado.clave
        estadoTexto = resumen.textoDeEstado
        minuto = resumen.minutoMostrado
        anadido = resumen.anadidoMostrado
        marcador = resumen.marcadorMostrado.description
        golesDelGuion = resumen.goles.description
        golesAMano = resumen.golesAMano.description
        duracion = resumen.duracionMostrada
        resultadoOficial = resumen.resultadoOficial.map(FichaJSON.Oficial.init)
        ejecucion =
            resumen.conEjecucion
            ? EjecucionJSON(
                estado: resumen.estado.clave, estadoTexto: resumen.estado.texto,
                minuto: resumen.minuto, marcador: resumen.marcador.description,
                golesDelGuion: resumen.goles.description,
                golesAMano: resumen.golesAMano.description, duracion: resumen.duracion,
                repeticion: resumen.esRepeticion) : nil
    }
}

/// The JSON shape of a match card: `partido N --json`.
public struct FichaJSON: Encodable, Sendable {
    public struct Oficial: Encodable, Sendable {
        var final: String?
        var prorroga: String?
        var penaltis: String?
        var texto: String?
        /// `3-3 (4-2 pen.)`, `1-2 (pró.)`, `2-1`: as lists and tables write it.
        var corto: String?

        init(_ oficial: ResultadoOficial) {
            final = oficial.final?.description
            prorroga = oficial.prorroga?.description
            penaltis = oficial.penaltis?.description
            texto = oficial.texto
            corto = oficial.textoCorto
        }
    }
    public struct EjecucionJSON: Encodable, Sendable {
        var codigo: String
        var duracion: Int
        var estado: String
        var estadoTexto: String
        var minuto: Int
        var marcador: String
        var golesAMano: String
        var empezada: String?
        var acabada: String?
    }
    var id: Int
    var local: String
    var visitante: String
    var competicion: String?
    var grupo: String?
    var ronda: String?
    var fecha: String?
    var hora: String?
    /// Kick-off in the user's zone, or as written when the file gives no offset.
    var inicio: String?
    var estadio: String?
    var estado: String?
    var estadoTexto: String?
    var minuto: Int?
    var anadido: Int?
    var marcador: String?
    var duracion: Int?
    var resultadoOficial: Oficial?
    var goles: [GolDeLaLinea]
    /// Goals, red cards and the feed's later word on goals, in playing order.
    var cronologia: [SucesoDeLaLinea]
    var alineaciones: [String]
    var ejecuciones: [EjecucionJSON]

    public init(_ completa: FichaCompleta) {
        let ficha = completa.ficha
        let resumen = completa.resumen
        id = ficha.partido.id
        local = ficha.partido.local.nombre
        visitante = ficha.partido.visitante.nombre
        competicion = ficha.partido.competicion
        grupo = ficha.grupo
        ronda = ficha.ronda
        fecha = ficha.fecha
        hora = ficha.hora
        estadio = ficha.estadio
        estado = resumen?.estadoMostrado.clave
        estadoTexto = resumen?.textoDeEstado
        minuto = resumen?.minutoMostrado
        anadido = resumen?.anadidoMostrado
        marcador = resumen?.marcadorMostrado.description
        inicio = resumen?.saque?.textoLocal
        duracion = resumen?.duracionMostrada
        resultadoOficial = completa.resultadoOficial.map(Oficial.init)
        goles = completa.goles
        cronologia = completa.cronologia
        alineaciones = completa.alineaciones
        ejecuciones = completa.ejecuciones.map {
            EjecucionJSON(
                codigo: $0.codigo, duracion: $0.duracion, estado: $0.estadoDelPartido.clave,
                estadoTexto: $0.estadoDelPartido.texto, minuto: $0.minuto,
                marcador: ($0.goles + $0.golesAMano).description,
                golesAMano: $0.golesAMano.description, empezada: $0.empezada,
                acabada: $0.acabada)
        }
    }
}
