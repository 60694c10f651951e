import Torneo

/// The JSON shape of one match in a list: `partidos --json` and `GET /api/partidos`. Its keys
/// are part of the scripting interface.
public struct PartidoJSON: Encodable, Sendable {
    public var id: Int
    public var local: String
    public var visitante: String
    public var competicion: String?
    public var fecha: String?
    public var estado: String
    public var estadoTexto: String
    public var minuto: Int
    public var marcador: String
    public var golesDelGuion: String
    public var golesAMano: String
    public var duracion: Int

    public init(_ resumen: ResumenDePartido) {
        id = resumen.id
        local = resumen.local
        visitante = resumen.visitante
        competicion = resumen.competicion
        fecha = resumen.fecha
        estado = resumen.estado.clave
        estadoTexto = resumen.estado.texto
        minuto = resumen.minuto
        marcador = resumen.marcador.description
        golesDelGuion = resumen.goles.description
        golesAMano = resumen.golesAMano.description
        duracion = resumen.duracion
    }
}

/// The JSON shape of a match card: `partido N --json`.
public struct FichaJSON: Encodable, Sendable {
    public struct Oficial: Encodable, Sendable {
        var final: String?
        var prorroga: String?
        var penaltis: String?
        var texto: String?
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
    var estadio: String?
    var estado: String?
    var estadoTexto: String?
    var minuto: Int?
    var marcador: String?
    var duracion: Int?
    var resultadoOficial: Oficial?
    var goles: [GolDeLaLinea]
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
        estado = resumen?.estado.clave
        estadoTexto = resumen?.estado.texto
        minuto = resumen?.minuto
        marcador = resumen?.marcador.description
        duracion = resumen?.duracion
        resultadoOficial = ficha.oficial.map {
            Oficial(
                final: $0.final?.description, prorroga: $0.prorroga?.description,
                penaltis: $0.penaltis?.description, texto: $0.texto)
        }
        goles = completa.goles
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
