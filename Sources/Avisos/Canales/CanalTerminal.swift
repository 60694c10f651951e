import Torneo

/// The foreground banner of `jugar`: a framed «¡Gol!» with the body, and the terminal bell as
/// its sound. Only the process watching the run has it; quiet mode leaves it out altogether.
public struct CanalTerminal: Notificador {
    public let canal = TipoDeCanal.nombreTerminal
    public let esInmediato = true
    /// Writes the banner where the match is drawn (above the status line).
    let escribir: @Sendable (String) -> Void
    /// Ring the bell (only on a real terminal: in a pipe it would be a stray byte).
    let conCampana: Bool
    /// Draw the frame (a terminal); piped output gets one plain line instead.
    let enmarcado: Bool

    public init(
        conCampana: Bool, enmarcado: Bool = true, escribir: @escaping @Sendable (String) -> Void
    ) {
        self.conCampana = conCampana
        self.enmarcado = enmarcado
        self.escribir = escribir
    }

    public func notificarGol(_ aviso: AvisoDeGol) async throws {
        let texto = enmarcado ? Self.banner(aviso) : Self.linea(aviso)
        escribir(texto + (conCampana && !aviso.tranquilo ? "\u{07}" : ""))
    }

    /// One plain line for piped output: `¡Gol! Luis (Rayo FC), minuto 35 · adjunto: gol.gif (GIF)`.
    public static func linea(_ aviso: AvisoDeGol) -> String {
        var texto = "\(aviso.titulo) \(TextoSeguro.limpio(aviso.cuerpo))"
        if let adjunto = Self.adjunto(aviso) { texto += " · \(adjunto)" }
        return texto
    }

    /// `adjunto: gol.gif (GIF)`, when the notice carries one.
    static func adjunto(_ aviso: AvisoDeGol) -> String? {
        guard let adjunto = aviso.adjunto else { return nil }
        let nombre =
            adjunto.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init)
            ?? adjunto
        let tipo = aviso.tipoDeAdjunto.map { " (\($0.uppercased()))" } ?? ""
        return "adjunto: \(TextoSeguro.limpio(nombre))\(tipo)"
    }

    /// The banner text: a frame around the title and the body, sized to the longer line.
    public static func banner(_ aviso: AvisoDeGol) -> String {
        var lineas = [aviso.titulo, TextoSeguro.limpio(aviso.cuerpo)]
        if let adjunto = Self.adjunto(aviso) { lineas.append(adjunto) }
        let ancho = lineas.map(\.count).max() ?? 0
        let borde = String(repeating: "─", count: ancho + 2)
        var texto = "┌\(borde)┐\n"
        for linea in lineas {
            texto += "│ \(linea)\(String(repeating: " ", count: ancho - linea.count)) │\n"
        }
        texto += "└\(borde)┘"
        return texto
    }
}
