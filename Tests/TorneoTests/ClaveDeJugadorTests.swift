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

    /// `representantes` (the scorers' list's fast path) counts each name under the name
    /// `agrupar` gives it, whether the team's names could be joined or not; repeats included.
    @Test(arguments: [
        ["Kane", "Harry Kane", "R. Lukaku", "Lukaku", "Kane"],
        ["Son Heung-min", "Heung-min Son", "Ana"],
        ["E. Hazard", "Eden Hazard", "T. Hazard", "Hazard"],
        ["Jugador 1-2-0", "Jugador 1-2-1", "Jugador 1-2-2"],
        ["Ana", "Ana López", "Luis López", "", "Ana"],
        ["Luis", "Iván"],
    ])
    func losRepresentantesSonLosDeAgrupar(_ nombres: [String]) {
        let grupos = ClaveDeJugador.agrupar(nombres)
        let (representante, claves) = ClaveDeJugador.representantes(nombres)
        for (i, nombre) in nombres.enumerated() {
            #expect(nombres[representante[i]] == grupos[nombre], "\(nombre)")
            #expect(claves[i] == ClaveDeNombre.de(nombre))
        }
    }

    /// Whether a rule could join two names: the same last word, or the same words.
    @Test func soloSeAgrupaLoQueUnaReglaPodriaJuntar() {
        #expect(!ClaveDeJugador.algunoPodriaUnirse(["jugador 1 2 0", "jugador 1 2 1"]))
        #expect(ClaveDeJugador.algunoPodriaUnirse(["kane", "harry kane"]))
        #expect(ClaveDeJugador.algunoPodriaUnirse(["son heung min", "heung min son"]))
        #expect(!ClaveDeJugador.algunoPodriaUnirse(["", "ana"]))
    }
}
