/// Sample data the lessons test against (not the database's seed, which has its own goals).
public enum Ejemplo {
    /// Rayo FC – Toros: 12' Ana (Rayo FC), 55' Iván (Toros), 80' Ana (Rayo FC).
    /// 90 minutes end 2-1; 60 minutes end 1-1.
    public static let rayoContraToros: Partido = {
        let rayo = Equipo("Rayo FC")
        let toros = Equipo("Toros")
        return Partido(
            id: 1,
            local: rayo,
            visitante: toros,
            eventos: [
                .gol(
                    Gol(minuto: MinutoDeJuego(12), jugador: Jugador("Ana", de: rayo), lado: .local)),
                .gol(
                    Gol(
                        minuto: MinutoDeJuego(55), jugador: Jugador("Iván", de: toros),
                        lado: .visitante)),
                .gol(
                    Gol(minuto: MinutoDeJuego(80), jugador: Jugador("Ana", de: rayo), lado: .local)),
            ]
        )
    }()
}
