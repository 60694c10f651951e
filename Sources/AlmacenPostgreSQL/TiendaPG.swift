import AlmacenSQL

/// The PostgreSQL store: the same repositories as SQLite's; its connection also LISTENs, so
/// dispatchers, the server and a run's owner are woken by the store instead of polling it.
public typealias TiendaPG = TiendaSQL<ColaPG>

extension TiendaSQL where Cola == ColaPG {
    public init(_ cola: ColaPG) {
        self.init(cola, descripcion: AlmacenPG.sinContrasena(cola.url))
    }
}
