import Almacen
import Aplicacion
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

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let gol = try contexto.nucleo().golAMano(partido: id.valor, lado: lado, quitar: quitar)
        contexto.terminal.linea(Frases.golAMano(gol))
        return .ok
    }
}
