import Persistencia
import Torneo

/// A match being played: minute by minute from its script, as the lessons' model does.
///
/// `jugar` owns no task: whoever calls it owns the task and cancels it (SwiftUI's `.task(id:)`
/// in the lesson, signal handlers in the CLI). Each minute waits on the clock, and cancellation
/// arrives as the `CancellationError` that waiting throws; nothing polls a flag.
@MainActor
public final class PartidoEnVivo {
    public let partido: Partido
    public private(set) var minuto = 0
    /// Goals of the script played so far.
    public private(set) var golesEnVivo = Marcador.cero
    /// Goals added by hand; they never notify.
    public private(set) var golesAMano = Marcador.cero
    public private(set) var ultimoAviso = "ninguno"
    public private(set) var corriendo = false
    public private(set) var duracion: Int
    /// Short code of the current run, shown in the log: `partido CANCELADO … (fd045)`.
    public private(set) var identificador: String
    public private(set) var cancelado = false

    /// Called after each minute and each goal, for whoever draws the match.
    public var alCambiar: ((Cambio) -> Void)?

    /// The runs of this match that starting this one asked to stop (their processes must be
    /// woken by whoever owns this model).
    public private(set) var detenidas: [EjecucionAjena] = []

    public enum Cambio: Sendable {
        /// The run started (or resumed): `identificador` is its code from now on.
        case inicio
        case minuto
        /// A scripted goal, with the notice it produces (its score is the one right after it).
        case gol(AvisoDeGol)
        /// A scripted red card, with its «Tarjeta roja» notice.
        case roja(AvisoDeGol)
        case fin(FinDelPartido)
    }

    private let msPorMinuto: Int
    private let reloj: Reloj
    private let cronica: (any CronicaDelPartido)?
    private let registro: (any Registro)?
    private let nuevoCodigo: @Sendable () -> String

    public init(
        partido: Partido,
        msPorMinuto: Int,
        reloj: Reloj = .continuo,
        cronica: (any CronicaDelPartido)? = nil,
        registro: (any Registro)? = nil,
        nuevoCodigo: @escaping @Sendable () -> String = PartidoEnVivo.codigoAleatorio
    ) {
        self.partido = partido
        self.msPorMinuto = msPorMinuto
        self.reloj = reloj
        self.cronica = cronica
        self.registro = registro
        self.nuevoCodigo = nuevoCodigo
        self.duracion = 90
        self.identificador = nuevoCodigo()
    }

    /// What the user sees: scripted plus manual goals.
    public var marcador: Marcador { golesEnVivo + golesAMano }

    /// «Último aviso» changes every 15 minutes; the other minutes leave it alone.
    static func cambiaElUltimoAviso(_ minuto: Int) -> Bool { minuto % 15 == 0 }

    /// «Último aviso» as minute `minuto` leaves it, with `marcador`.
    static func ultimoAviso(minuto: Int, marcador: Marcador) -> String {
        "minuto \(minuto) con \(marcador)"
    }

    public var estado: EstadoDelPartido {
        if corriendo { return .enJuego }
        if cancelado { return .cancelado(enElMinuto: minuto) }
        if minuto >= duracion { return .terminado }
        return .sinEmpezar
    }

    /// Plays a whole match from zero; a second call starts again from zero with a new code.
    ///
    /// - Throws: only what the chronicle throws (the database); cancellation is not an error:
    ///   it is logged and returned as `.cancelado`.
    @discardableResult
    public func jugar(duracion: Int) async throws -> FinDelPartido {
        identificador = nuevoCodigo()
        self.duracion = duracion
        minuto = 0
        golesEnVivo = .cero
        golesAMano = .cero
        ultimoAviso = "ninguno"
        cancelado = false
        corriendo = true
        do {
            detenidas =
                try cronica?.empezar(
                    partido: partido, duracion: duracion, msPorMinuto: msPorMinuto,
                    codigo: identificador) ?? []
        } catch {
            corriendo = false
            throw error
        }
        alCambiar?(.inicio)
        return try await jugarDesdeElMinutoActual()
    }

    /// Goes on with a stored run from its last committed minute: goals up to that minute are
    /// already in its score, so none is counted or notified twice.
    @discardableResult
    public func reanudar(_ guardada: EjecucionGuardada) async throws -> FinDelPartido {
        identificador = guardada.codigo
        duracion = guardada.duracion
        minuto = guardada.minuto
        golesEnVivo = guardada.goles
        golesAMano = guardada.golesAMano
        ultimoAviso = guardada.ultimoAviso
        cancelado = false
        corriendo = true
        do {
            detenidas = try cronica?.reanudar(guardada) ?? []
        } catch {
            corriendo = false
            throw error
        }
        registro?.anotar(
            "partido REANUDADO en el minuto \(minuto) (\(identificador))", partido: partido.id)
        alCambiar?(.inicio)
        return try await jugarDesdeElMinutoActual()
    }

    /// A goal added by hand: counts, never notifies.
    public func golAMano(_ lado: Lado) throws {
        if let cronica {
            golesAMano = try cronica.golAMano(lado)
        } else {
            golesAMano = golesAMano.sumando(lado)
        }
        alCambiar?(.minuto)
    }

    private func jugarDesdeElMinutoActual() async throws -> FinDelPartido {
        let eventos = partido.eventos(hasta: duracion)
        var siguiente = eventos.firstIndex { $0.minuto.minuto > minuto } ?? eventos.endIndex
        let inicial = minuto
        let esperar = reloj.empezar()
        var nuevo = inicial
        while nuevo < duracion {
            nuevo += 1
            do {
                if msPorMinuto > 0 {
                    try await esperar(.milliseconds(msPorMinuto * (nuevo - inicial)))
                } else {
                    // At 0 ms a whole match takes a couple of milliseconds: it runs straight
                    // through, checking cancellation each minute. Yielding here would cost more
                    // than the minute itself (each yield is two trips through the executors
                    // and a thread wake-up: 1.4× the whole match, measured by `make bench`).
                    try Task.checkCancellation()
                }
            } catch {
                return try cancelar()
            }
            var goles = golesEnVivo
            var golesDelMinuto: [(gol: Gol, marcador: Marcador)] = []
            var rojasDelMinuto: [AvisoDeGol] = []
            while siguiente < eventos.endIndex, eventos[siguiente].minuto.minuto == nuevo {
                let evento = eventos[siguiente]
                goles = goles.despuesDe(evento, en: partido)
                switch evento {
                case .gol(let gol):
                    golesDelMinuto.append((gol, goles + golesAMano))
                case .roja(let tarjeta):
                    rojasDelMinuto.append(
                        .roja(tarjeta, partidoId: partido.id, marcador: goles + golesAMano))
                case .cambio:
                    break
                }
                siguiente += 1
            }
            // A minute's goals, then its cards: one transaction queues them all.
            let delMinuto = AvisoDeGol.avisos(de: golesDelMinuto, en: partido) + rojasDelMinuto
            let mano: Marcador
            if let cronica {
                let aviso: ((Marcador) -> String)? =
                    Self.cambiaElUltimoAviso(nuevo)
                    ? { mano in Self.ultimoAviso(minuto: nuevo, marcador: goles + mano) } : nil
                switch try cronica.registrar(
                    minuto: nuevo, goles: goles, avisos: delMinuto, ultimoAviso: aviso)
                {
                case .hecha(let guardada): mano = guardada
                case .parada: return try cancelar()
                case .perdida: return perder()
                }
            } else {
                mano = golesAMano
            }
            golesEnVivo = goles
            golesAMano = mano
            minuto = nuevo
            if Self.cambiaElUltimoAviso(nuevo) {
                ultimoAviso = Self.ultimoAviso(minuto: nuevo, marcador: marcador)
            }
            for aviso in delMinuto { alCambiar?(aviso.tipo == .roja ? .roja(aviso) : .gol(aviso)) }
            alCambiar?(.minuto)
        }
        if let cronica {
            switch try cronica.terminar(minuto: minuto) {
            // A manual goal stored after the last minute's write is in the final score too.
            case .hecha(let guardada): golesAMano = guardada
            // Asked to stop after the last minute was written: a replaced run never ends as
            // finished next to the run that replaced it.
            case .parada: return try cancelar()
            case .perdida: return perder()
            }
        }
        corriendo = false
        registro?.anotar(
            "partido TERMINADO en el minuto \(minuto) (\(identificador))", partido: partido.id)
        alCambiar?(.fin(.terminado(enElMinuto: minuto)))
        return .terminado(enElMinuto: minuto)
    }

    /// Cancellation is logged, never swallowed: the log line says at which minute it stopped.
    private func cancelar() throws -> FinDelPartido {
        registro?.anotar(
            "partido CANCELADO en el minuto \(minuto) (\(identificador))", partido: partido.id)
        corriendo = false
        cancelado = true
        try cronica?.cancelar(minuto: minuto)
        alCambiar?(.fin(.cancelado(enElMinuto: minuto)))
        return .cancelado(enElMinuto: minuto)
    }

    /// The run is another process's now (it took it over while this one was paused past its
    /// heartbeat): nothing more is written, not even the end, and the log says why.
    private func perder() -> FinDelPartido {
        registro?.anotar(
            "partido DETENIDO en el minuto \(minuto) (\(identificador)): otro proceso juega "
                + "ahora esta ejecución", partido: partido.id)
        corriendo = false
        cancelado = true
        alCambiar?(.fin(.perdido(enElMinuto: minuto)))
        return .perdido(enElMinuto: minuto)
    }

    /// Five hex digits, like the lesson's `fd045`: short enough to read, enough to tell runs apart.
    public nonisolated static func codigoAleatorio() -> String {
        let numero = UInt32.random(in: 0..<0x10_0000)
        let hex = String(numero, radix: 16)
        return String(repeating: "0", count: 5 - hex.count) + hex
    }
}
