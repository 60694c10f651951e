/// What a channel follows (fans.md): teams, competitions and matches. A channel with no
/// filter receives every goal; one with filters only the goals that pass any of them — a fan
/// follows a union: their teams' goals (an own goal counts for the team it is credited to),
/// every goal of their competitions, every goal of the matches they picked.
public struct FiltrosDeCanal: Sendable, Hashable, Codable {
    /// Team names as stored.
    public var equipos: [String]
    /// Competition names as stored.
    public var competiciones: [String]
    public var partidos: [Int]

    public init(equipos: [String] = [], competiciones: [String] = [], partidos: [Int] = []) {
        self.equipos = equipos
        self.competiciones = competiciones
        self.partidos = partidos
    }

    public var vacios: Bool { equipos.isEmpty && competiciones.isEmpty && partidos.isEmpty }

    /// Whether a goal scored for `equipo` in this match reaches the channel.
    public func dejanPasar(partido: Int, equipo: String?, competicion: String?) -> Bool {
        if vacios { return true }
        if partidos.contains(partido) { return true }
        if let equipo, equipos.map(ClaveDeNombre.de).contains(ClaveDeNombre.de(equipo)) {
            return true
        }
        if let competicion,
            competiciones.map(ClaveDeNombre.de).contains(ClaveDeNombre.de(competicion))
        {
            return true
        }
        return false
    }

    /// These filters plus `otros` (no repeats).
    public func sumando(_ otros: FiltrosDeCanal) -> FiltrosDeCanal {
        FiltrosDeCanal(
            equipos: equipos + otros.equipos.filter { !equipos.contains($0) },
            competiciones: competiciones
                + otros.competiciones.filter { !competiciones.contains($0) },
            partidos: partidos + otros.partidos.filter { !partidos.contains($0) })
    }

    /// These filters without `otros`.
    public func quitando(_ otros: FiltrosDeCanal) -> FiltrosDeCanal {
        FiltrosDeCanal(
            equipos: equipos.filter { !otros.equipos.contains($0) },
            competiciones: competiciones.filter { !otros.competiciones.contains($0) },
            partidos: partidos.filter { !otros.partidos.contains($0) })
    }

    /// `equipos: Toros · partidos: 3`, or `todo`.
    public var descripcion: String {
        if vacios { return "todo" }
        var partes: [String] = []
        if !equipos.isEmpty { partes.append("equipos: " + equipos.joined(separator: ", ")) }
        if !competiciones.isEmpty {
            partes.append("competiciones: " + competiciones.joined(separator: ", "))
        }
        if !partidos.isEmpty {
            partes.append("partidos: " + partidos.map(String.init).joined(separator: ", "))
        }
        return partes.joined(separator: " · ")
    }
}
