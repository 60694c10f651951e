import Almacen
import Motor
import Persistencia
import Torneo

/// `marcador gol-a-mano <id> local|visitante [--quitar]`: the lesson's buttons; counts, never
/// notifies.
struct ComandoGolAMano: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "gol-a-mano",
        resumen: "Suma (o quita) un gol a mano al partido, se juegue o no ahora; no avisa.",
        detalles: """
            Los goles a mano se suman a los del guion del partido en curso; un «marcador jugar» nuevo
            los vuelve a poner a cero. Si el partido se está jugando, lo verá en su siguiente minuto.
            Cada gol a mano (y cada uno quitado) queda en el registro.
            """)

    @Argumento("ID", ayuda: "El número del partido.")
    var id: IdDePartido

    @Argumento("LADO", ayuda: "«local» o «visitante»: quién marca.")
    var lado: Lado

    @Bandera("--quitar", ayuda: "Quita el último gol a mano de ese lado en lugar de sumar uno.")
    var quitar: Bool

    func validarTrasReinicio(en semilla: DatabaseQueue) throws {
        _ = try PartidosSQLite(semilla).partidoExistente(id.valor)
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        contexto.terminal.linea(
            try Self.anotar(
                partido: id.valor, lado: lado, quitar: quitar, en: try contexto.tienda()))
        return .ok
    }

    /// Adds (or removes) the goal and logs it; returns the sentence for the user (the web API
    /// answers with it too).
    /// - Throws: `Fallo.noEncontrado` for no such match, `Fallo.uso` when there is no hand goal
    ///   to remove.
    nonisolated static func anotar(
        partido id: Int, lado: Lado, quitar: Bool, en tienda: any Tienda
    ) throws -> String {
        let repositorio = tienda.partidos
        let partido = try repositorio.partidoExistente(id)
        let duracion = partido.duracionPorDefecto(ajuste: try repositorio.ajustes().duracion)
        let equipo = TextoSeguro.limpio(partido.equipo(lado).nombre)
        guard
            let ejecucion = try tienda.ejecuciones.golAMano(
                partido: id, lado: lado, quitar: quitar, duracion: duracion,
                codigo: PartidoEnVivo.codigoAleatorio())
        else {
            throw Fallo.uso("\(equipo) no tiene goles a mano que quitar en el partido \(id).")
        }
        let marcador = ejecucion.goles + ejecucion.golesAMano
        let resultado =
            "\(TextoSeguro.limpio(partido.local.nombre)) \(marcador) \(TextoSeguro.limpio(partido.visitante.nombre))"
        tienda.registro(eco: false).anotar(
            (quitar ? "gol a mano quitado a " : "gol a mano de ")
                + "\(partido.equipo(lado).nombre): "
                + "\(partido.local.nombre) \(marcador) \(partido.visitante.nombre) (\(ejecucion.codigo))",
            partido: id)
        return (quitar ? "Gol a mano quitado a \(equipo): " : "Gol a mano de \(equipo): ")
            + resultado + "."
    }
}
