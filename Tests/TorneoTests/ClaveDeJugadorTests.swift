import Testing

@testable import Torneo

/// fans.md: one player, however a file spells them, within a team.
@Suite("Un jugador, una clave")
struct ClaveDeJugadorTests {
    @Test func lasFormasDeUnMismoNombreSeJuntan() {
        let grupos = ClaveDeJugador.agrupar([
            "Kane", "Harry Kane", "R. Lukaku", "Lukaku", "E. Cavani", "Edinson Cavani",
            "Son Heung-min", "Heung-min Son", "MBAPPE", "Kylian Mbappé",
        ])
        #expect(grupos["Kane"] == "Harry Kane")
        #expect(grupos["Harry Kane"] == "Harry Kane")
        #expect(grupos["Lukaku"] == "R. Lukaku")
        #expect(grupos["E. Cavani"] == "Edinson Cavani")
        #expect(grupos["Son Heung-min"] == grupos["Heung-min Son"])
        #expect(grupos["MBAPPE"] == "Kylian Mbappé")
    }

    /// Two players share a surname: the surname alone is neither of them.
    @Test func unApellidoDeDosJugadoresQuedaAparte() {
        let grupos = ClaveDeJugador.agrupar(["E. Hazard", "Eden Hazard", "T. Hazard", "Hazard"])
        #expect(grupos["E. Hazard"] == "Eden Hazard")
        #expect(grupos["T. Hazard"] == "T. Hazard")
        #expect(grupos["Hazard"] == "Hazard")
        let otros = ClaveDeJugador.agrupar(["Diego Costa", "Douglas Costa", "Costa"])
        #expect(Set(otros.values) == ["Diego Costa", "Douglas Costa", "Costa"])
    }

    @Test func loQueNoSeParecesigueAparte() {
        let grupos = ClaveDeJugador.agrupar(["Ana", "Ana López", "Luis López", "", "Ana"])
        #expect(grupos["Ana"] == "Ana")
        #expect(grupos["Ana López"] == "Ana López")
        #expect(grupos["Luis López"] == "Luis López")
        #expect(grupos[""] == "")
        #expect(ClaveDeJugador.concuerdan(["e", "hazard"], ["eden", "hazard"]))
        #expect(!ClaveDeJugador.concuerdan(["t", "hazard"], ["eden", "hazard"]))
    }
}
