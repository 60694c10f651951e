import CBaseDeBanco
import Foundation
import Torneo

/// The C baselines (target CBaseDeBanco) seen from Swift: one connection with every statement
/// prepared once, and a match's goals as C strings that live as long as it.
final class BaseEnC {
    let base: OpaquePointer

    init(_ ruta: String) {
        guard let base = marcador_base_abrir(ruta) else { fatalError("base en C: no abre \(ruta)") }
        self.base = base
    }

    deinit { marcador_base_cerrar(base) }

    /// A match's script in the C baseline's shape, built once.
    final class Guion {
        var goles: [marcador_gol] = []
        private var cadenas: [UnsafeMutablePointer<CChar>] = []

        init(_ partido: Partido) {
            var marcador = Marcador.cero
            for case .gol(let gol) in partido.eventos(hasta: 90) {
                marcador = marcador.sumando(gol.lado)
                let aviso = AvisoDeGol(gol: gol, en: partido, marcador: marcador)
                func c(_ texto: String) -> UnsafePointer<CChar> {
                    let copia = strdup(texto)!
                    cadenas.append(copia)
                    return UnsafePointer(copia)
                }
                goles.append(
                    marcador_gol(
                        minuto: Int32(gol.minuto.minuto), anadido: Int32(gol.minuto.anadido),
                        lado: gol.lado == .local ? 0 : 1, identificador: c(aviso.identificador),
                        cuerpo: c(aviso.cuerpo), jugador: c(aviso.jugador), equipo: c(aviso.equipo))
                )
            }
        }

        deinit { for cadena in cadenas { free(cadena) } }
    }

    func partido(_ id: Int, _ guion: Guion) {
        let codigo = guion.goles.withUnsafeBufferPointer {
            marcador_base_partido(
                base, Int32(id), $0.baseAddress, Int32($0.count), Date().timeIntervalSince1970)
        }
        precondition(codigo == 0, "base en C: error \(codigo)")
    }

    /// The statements the baseline runs while `cuerpo` runs, in order.
    func sentencias(durante cuerpo: () -> Void) -> [String] {
        final class Caja { var sentencias: [String] = [] }
        let caja = Caja()
        marcador_base_trazar(
            base,
            { sql, contexto in
                guard let sql, let contexto else { return }
                Unmanaged<Caja>.fromOpaque(contexto).takeUnretainedValue().sentencias.append(
                    String(cString: sql))
            }, Unmanaged.passUnretained(caja).toOpaque())
        cuerpo()
        marcador_base_trazar(base, nil, nil)
        return caja.sentencias
    }

    func despachar(_ canal: String, lote: Int) -> Int {
        Int(marcador_base_despachar(base, canal, Int32(lote), Date().timeIntervalSince1970))
    }

    func despacharOptimo(_ canal: String, lote: Int) -> Int {
        Int(marcador_base_despachar_optimo(base, canal, Int32(lote), Date().timeIntervalSince1970))
    }
}

extension BaseEnC {
    func despacharRegistro(_ canal: String, lote: Int, fd: Int32) -> Int {
        Int(
            marcador_base_despachar_registro(
                base, canal, Int32(lote), Date().timeIntervalSince1970, fd))
    }
}
