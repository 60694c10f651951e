/// How long a match lasts: the one home of the rule of runs.md ("60, 90, and 120 for matches
/// with extra time"), used by the engine, the stores and the command line alike.
public enum Duracion {
    /// What the `duracion` setting may hold: a short or a full match.
    public static let ajustables = [60, 90]
    /// A full match that went to extra time.
    public static let conProrroga = 120
    public static let porDefecto = 90

    /// The durations a user may choose for a match.
    public static func permitidas(conProrroga tieneProrroga: Bool) -> [Int] {
        tieneProrroga ? ajustables + [conProrroga] : ajustables
    }

    /// Every duration any match may be played with.
    public static let todas = ajustables + [conProrroga]

    /// The duration a run uses without `--duracion`: the setting chooses a short (60) or a full
    /// match (90), and a full match that went to extra time lasts 120.
    public static func segunAjuste(_ ajuste: Int, conProrroga tieneProrroga: Bool) -> Int {
        tieneProrroga && ajuste == porDefecto ? conProrroga : ajuste
    }

    /// What a match played for real lasted (it has an official result): 90 minutes, 120 when it
    /// went to extra time. The setting never rewrites it; it only chooses how long scripted
    /// matches and replays are played (issue 42: `ajustes duracion 60` showed the 2018 final
    /// as a 60-minute match).
    public static func real(conProrroga tieneProrroga: Bool) -> Int {
        tieneProrroga ? conProrroga : porDefecto
    }

    /// The sentence a user reads when `minutos` is not accepted for a match.
    public static func noValida(_ minutos: String, conProrroga tieneProrroga: Bool?) -> String {
        switch tieneProrroga {
        case nil:
            "Indica una duración de 60, 90 o 120 minutos (120 solo en partidos con prórroga), no «\(minutos)»."
        case true?:
            "Indica una duración de 60, 90 o 120 minutos, no «\(minutos)»."
        case false?:
            "Este partido no tuvo prórroga: indica una duración de 60 o 90 minutos, no «\(minutos)»."
        }
    }

    /// For the setting: `Indica una duración de 60 o 90 minutos, no «45».`
    public static func ajusteNoValido(_ minutos: String) -> String {
        "Indica una duración de 60 o 90 minutos, no «\(minutos)»."
    }
}
