import Persistencia
import Torneo

/// The repositories of a SQL store.
public struct TiendaSQL<Cola: ColaSQL>: Tienda {
    public let cola: Cola
    public let descripcion: String

    public init(_ cola: Cola, descripcion: String) {
        self.cola = cola
        self.descripcion = descripcion
    }

    public func ahora() -> Double { cola.ahora() }

    @discardableResult
    public func reiniciarDatos() throws -> (antes: Int, despues: Int) {
        try cola.write { db in
            if let cerrojo = db.dialecto.cerrojoDeSemillas { try db.executeScript(cerrojo) }
            let antes = try db.scalarInt("SELECT count(*) FROM partido") ?? 0
            try Semillas.cargarDentro(db)
            return (antes, try db.scalarInt("SELECT count(*) FROM partido") ?? 0)
        }
    }

    public func ficheroDeSemilla(_ nombre: String) -> [UInt8]? { Semillas.fichero(nombre) }

    public var partidos: any PartidosRepositorio { PartidosSQL(cola) }
    public var ejecuciones: any Ejecuciones { EjecucionesSQL(cola) }
    public var buzon: any Buzon { BuzonSQL(cola) }
    public var difusiones: any Difusiones { DifusionSQL(cola) }
    public var cambios: any Cambios { CambiosSQL(cola) }
    public var mantenimiento: any Mantenimiento { MantenimientoSQL(cola) }
    public var importacion: any Importacion { ImportacionSQL(cola) }
    public var fuentes: any Fuentes { FuentesSQL(cola) }

    public func registro(eco: Bool) -> any Registro { RegistroSQL(cola, eco: eco) }

    public func lineasDelRegistro(partido: Int?, limite: Int?) throws -> [LineaDeRegistro] {
        try RegistroSQL(cola, eco: false).lineas(partido: partido, limite: limite)
    }

    public func escuchar(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? {
        cola.escuchar(canal, alLlegar)
    }

    public func escucharEsteProceso(
        _ canal: CanalDeNotificacion, _ alLlegar: @escaping @Sendable (String) -> Void
    ) -> (any Escucha)? {
        cola.escucharEsteProceso(canal, alLlegar)
    }
}
