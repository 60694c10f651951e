import Persistencia
import Torneo

/// The sentence each front end shows for what a use case did: the core returns what happened
/// (a value), and both renderers — the terminal and the page — say it with these words, one
/// home each (runs.md, delivery.md).
public enum Frases {
    /// `Gol a mano de Toros: Rayo FC 2-2 Toros.`, or its undoing.
    public static func golAMano(_ gol: GolAMano) -> String {
        let equipo = TextoSeguro.limpio(gol.partido.equipo(gol.lado).nombre)
        let local = TextoSeguro.limpio(gol.partido.local.nombre)
        let visitante = TextoSeguro.limpio(gol.partido.visitante.nombre)
        return (gol.quitado ? "Gol a mano quitado a \(equipo): " : "Gol a mano de \(equipo): ")
            + "\(local) \(gol.marcador) \(visitante)."
    }

    /// A live source added.
    public static func fuenteAnadida(_ fuente: FuenteConfigurada) -> String {
        "Fuente \(citado(fuente.nombre)) (\(fuente.formato), cada \(Textos.segundos(fuente.cada)) s) "
            + "añadida: «marcador directo» la sigue."
    }

    public static func fuenteQuitada(_ nombre: String) -> String {
        "Fuente \(citado(nombre)) quitada."
    }

    /// Under a table that does not count every match yet.
    public static func sinResultado(_ n: Int) -> String {
        n == 1
            ? "(1 partido sin resultado todavía: no cuenta.)"
            : "(\(n) partidos sin resultado todavía: no cuentan.)"
    }

    /// «Jugar» pressed: the match that starts.
    public static func empieza(_ partido: Partido) -> String {
        "El partido \(partido.id) empieza: \(partido.local.nombre) contra \(partido.visitante.nombre)."
    }

    /// `ajustes duracion`: the new duration and the live runs that start again with it.
    public static func duracion(_ minutos: Int, relanzados: Int) -> [String] {
        var lineas = ["Duración: \(minutos) minutos."]
        if relanzados == 1 {
            lineas.append("Un partido en juego vuelve a empezar con la nueva duración.")
        } else if relanzados > 1 {
            lineas.append(
                "\(relanzados) partidos en juego vuelven a empezar con la nueva duración.")
        }
        return lineas
    }

    /// `avisos reintentar`: the failed deliveries back in the queue.
    public static func reintentadas(_ n: Int) -> String {
        n == 1 ? "1 entrega fallida vuelve a la cola." : "\(n) entregas fallidas vuelven a la cola."
    }

    public static func msPorMinuto(_ ms: Int) -> String { "Milisegundos por minuto: \(ms)." }

    public static func silencio(_ silencio: Bool) -> String {
        silencio ? "Silencio: sí (sin banner ni campana en la terminal)." : "Silencio: no."
    }

    public static func permiso(_ permitidos: Bool) -> String {
        permitidos ? "Avisos de gol: activados" : "Avisos de gol: desactivados"
    }

    public static func plazoDeAdjuntos(_ segundos: Double) -> String {
        "Plazo de los adjuntos: \(Textos.segundos(segundos)) s."
    }

    public static func diasDeRegistro(_ dias: Int) -> String {
        "El registro guarda \(Textos.cuenta(dias, "día", "días"))."
    }

    public static func lineasDeRegistro(_ lineas: Int) -> String {
        "El registro guarda \(Textos.cuenta(lineas, "línea", "líneas")) como mucho."
    }

    /// A channel added (or, with `reemplazado`, saved over the one of that name).
    public static func canalGuardado(_ nombre: String, _ tipo: TipoDeCanal, reemplazado: Bool)
        -> String
    {
        "Canal \(citado(nombre)) (\(tipo.rawValue)) " + (reemplazado ? "guardado." : "añadido.")
    }

    public static func canalQuitado(_ nombre: String) -> String {
        "Canal \(citado(nombre)) quitado."
    }

    public static func canalActivo(_ nombre: String, _ activo: Bool) -> String {
        "Canal \(citado(nombre)) " + (activo ? "activo." : "en pausa.")
    }

    /// What a channel follows now.
    public static func seguimiento(_ nombre: String, _ filtros: FiltrosDeCanal) -> String {
        "Canal \(citado(nombre)) sigue: \(TextoSeguro.limpio(filtros.descripcion))."
    }
}
