import Motor

/// One match played in this process until its run ends (`jugar`): finished, replaced by another
/// start, taken over, or cancelled when its group stops it (a signal). Its end ends the group.
@MainActor
public final class JuegoDeUnPartido: Servicio {
    let juegos: Juegos
    let peticion: PeticionDeJuego
    let alEmpezar: (PartidoEnVivo, Int?) -> Void
    let alCambiar: (PartidoEnVivo, PartidoEnVivo.Cambio) -> Void
    let alRelanzar: (Int) -> Void
    /// How the run ended, once it has.
    public private(set) var desenlace: Juegos.Desenlace?

    /// The callbacks draw the match; `alEmpezar` also gets the run's id.
    public init(
        _ juegos: Juegos, _ peticion: PeticionDeJuego,
        alEmpezar: @escaping (PartidoEnVivo, Int?) -> Void,
        alCambiar: @escaping (PartidoEnVivo, PartidoEnVivo.Cambio) -> Void,
        alRelanzar: @escaping (Int) -> Void
    ) {
        self.juegos = juegos
        self.peticion = peticion
        self.alEmpezar = alEmpezar
        self.alCambiar = alCambiar
        self.alRelanzar = alRelanzar
    }

    public func run() async throws {
        desenlace = try await juegos.jugar(
            peticion, alEmpezar: alEmpezar, alCambiar: alCambiar, alRelanzar: alRelanzar)
    }
}
