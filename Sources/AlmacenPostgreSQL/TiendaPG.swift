import Almacen
import Torneo

/// The PostgreSQL store: the same repositories as SQLite's, plus LISTEN so dispatchers, the
/// server and a run's owner are woken by the store instead of polling it.
public struct TiendaPG: Tienda {
    public let cola: ColaPG
    private let sql: TiendaSQL<ColaPG>

    public init(_ cola: ColaPG) {
        self.cola = cola
        sql = TiendaSQL(cola, descripcion: AlmacenPG.sinContrasena(cola.url))
    }

    public var descripcion: String { sql.descripcion }
    public var partidos: any PartidosRepositorio { sql.partidos }
    public var ejecuciones: any Ejecuciones { sql.ejecuciones }
    public var buzon: any Buzon { sql.buzon }
    public var cambios: any Cambios { sql.cambios }
    public var mantenimiento: any Mantenimiento { sql.mantenimiento }
    public var importacion: any Importacion { sql.importacion }

    public func registro(eco: Bool) -> any Registro { sql.registro(eco: eco) }

    public func lineasDelRegistro(partido: Int?, limite: Int?) throws -> [LineaDeRegistro] {
        try sql.lineasDelRegistro(partido: partido, limite: limite)
    }

    public func escuchar(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? {
        OyentePG(url: cola.url, canal: canal.rawValue, alLlegar: alLlegar)
    }
}
