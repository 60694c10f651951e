/// The one runtime of every long-running command (architecture.md; the shape of
/// swift-service-lifecycle's `ServiceGroup`): runs its services side by side, owns the stopping
/// signals, and shuts down in one order — the last service added is stopped first and waited
/// for before the one before it is stopped. Services are added producers last (the match runner
/// after the dispatcher that delivers its goals), so what a producer commits as it stops is
/// still seen by the dispatcher, which gives its leases back last. The store closes after the
/// group returns.
///
/// The group stops when a stopping signal arrives, when a service added with `.acabaElGrupo`
/// returns (the match ended, the drain is done), when a service throws, or when the calling
/// task is cancelled.
public struct GrupoDeServicios: Sendable {
    /// What a service returning by itself means for the others.
    public enum AlAcabar: Sendable {
        /// The others go on (a feed poller with no sources left is still a directo).
        case siguenLosDemas
        /// The group's work is done: stop the others.
        case acabaElGrupo
    }

    private struct Miembro: Sendable {
        let servicio: any Servicio
        let alAcabar: AlAcabar
    }

    private enum Evento: Sendable {
        case acabo(Int, (any Error)?)
        case parar
    }

    private var miembros: [Miembro] = []
    private let senales: AsyncStream<Int32>
    private let terminan: Set<Int32>
    private let otras: @Sendable (Int32) -> Void
    /// Shared with the services that give a grace period as they stop.
    public let cierre: Cierre

    /// - Parameters:
    ///   - senales: every signal the process listens to.
    ///   - terminan: those that stop the group (SIGINT, SIGTERM, SIGHUP); the others go to
    ///     `otras` (SIGUSR1: look for stop requests; SIGWINCH: redraw).
    public init(
        senales: AsyncStream<Int32>, terminan: Set<Int32>, cierre: Cierre = Cierre(),
        otras: @escaping @Sendable (Int32) -> Void = { _ in }
    ) {
        self.senales = senales
        self.terminan = terminan
        self.cierre = cierre
        self.otras = otras
    }

    /// Adds `servicio`; it starts with the others when the group runs.
    public mutating func añadir(_ servicio: any Servicio, alAcabar: AlAcabar = .siguenLosDemas) {
        miembros.append(Miembro(servicio: servicio, alAcabar: alAcabar))
    }

    /// Runs every service until the group stops, then stops them in reverse order.
    /// - Returns: the stopping signal received, if one was (the exit status comes from it).
    /// - Throws: the first error a service threw (after every service has stopped).
    @discardableResult
    public func run() async throws -> Int32? {
        let (eventos, entrada) = AsyncStream<Evento>.makeStream()
        let tareas = miembros.enumerated().map { indice, miembro in
            Task {
                do {
                    try await miembro.servicio.run()
                    entrada.yield(.acabo(indice, nil))
                } catch {
                    entrada.yield(.acabo(indice, error))
                }
            }
        }
        // Signals keep being heard during the shutdown: a second Ctrl-C cuts a grace period.
        let (senales, terminan, cierre, otras) = (
            self.senales, self.terminan, self.cierre, self.otras
        )
        let vigia = Task {
            for await numero in senales {
                if terminan.contains(numero) {
                    cierre.recibir(numero)
                    entrada.yield(.parar)
                } else {
                    otras(numero)
                }
            }
        }
        defer { vigia.cancel() }

        var acabados: Set<Int> = []
        var errores: [any Error] = []
        let alAcabar = miembros.map(\.alAcabar)
        await withTaskCancellationHandler {
            bucle: for await evento in eventos {
                switch evento {
                case .parar: break bucle
                case .acabo(let indice, let error):
                    acabados.insert(indice)
                    if let error {
                        errores.append(error)
                        cierre.abortar()
                        break bucle
                    }
                    if alAcabar[indice] == .acabaElGrupo || acabados.count == tareas.count {
                        break bucle
                    }
                }
            }
        } onCancel: {
            entrada.yield(.parar)
        }
        for indice in tareas.indices.reversed() where !acabados.contains(indice) {
            tareas[indice].cancel()
            await tareas[indice].value
        }
        entrada.finish()
        for await evento in eventos {
            if case .acabo(_, let error?) = evento, !(error is CancellationError) {
                errores.append(error)
            }
        }
        if let primero = errores.first { throw primero }
        return cierre.senal
    }
}
