import Almacen
import Motor
import Torneo

/// `marcador gol-a-mano <id> local|visitante`: the lesson's buttons; counts, never notifies.
struct ComandoGolAMano: Comando {
    static let nombre = "gol-a-mano"
    static let resumen = "Suma un gol a mano al partido (se juegue o no ahora); no avisa."
    static let posicionales = [
        Posicional(nombre: "ID", ayuda: "El número del partido."),
        Posicional(nombre: "LADO", ayuda: "«local» o «visitante»: quién marca."),
    ]
    static let opciones: [Opcion] = []
    static let detalles: String? = """
        Los goles a mano se suman a los del guion del partido en curso; un «marcador jugar» nuevo
        los vuelve a poner a cero. Si el partido se está jugando, lo verá en su siguiente minuto.
        """

    let id: Int
    let lado: Lado

    init(_ argumentos: Argumentos) throws(Fallo) {
        try Self.comprobarPosicionales(argumentos)
        id = try Argumentos.idDePartido(argumentos.posicionales[0])
        lado = try Argumentos.lado(argumentos.posicionales[1])
    }

    func validarTrasReinicio(en semilla: DatabaseQueue) throws {
        _ = try PartidosSQLite(semilla).partidoExistente(id)
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let queue = try contexto.almacen()
        let repositorio = PartidosSQLite(queue)
        let partido = try repositorio.partidoExistente(id)
        let duracion = partido.duracionPorDefecto(ajuste: try repositorio.ajustes().duracion)
        guard
            let ejecucion = try EjecucionesSQLite(queue).golAMano(
                partido: id, lado: lado, quitar: false, duracion: duracion,
                codigo: PartidoEnVivo.codigoAleatorio())
        else { return .ok }
        let marcador = ejecucion.goles + ejecucion.golesAMano
        contexto.terminal.linea(
            "Gol a mano de \(partido.equipo(lado).nombre): "
                + "\(partido.local.nombre) \(marcador) \(partido.visitante.nombre).")
        return .ok
    }
}
