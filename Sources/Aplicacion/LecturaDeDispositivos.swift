import Dispatch
import FoundationEssentials
import Synchronization
import Torneo

/// The lines of `dispositivos importar`, read and checked on every core at once: a million
/// lines are some 100 MB of JSON, a token to check and a SHA-256 to take per line (contract.md
/// §20), and each part of the file is read apart from the others.
///
/// What the lines follow is not named here (that asks the store, one connection): the caller
/// does it in line order after.
struct LecturaDeDispositivos: Sendable {
    /// The devices, in line order, without their filters yet.
    var canales: [CanalConfigurado] = []
    /// What each follows, as its line says.
    var seguimientos: [Seguimiento] = []
    /// The line number of each.
    var lineas: [Int] = []
    /// The first bad line and why; nothing after it is in the lists.
    var fallo: (linea: Int, motivo: String)?
    /// Lines read (blank ones too): where the next part's numbers start.
    private var leidas = 0

    init(_ bytes: [UInt8]) {
        let partes = Self.partes(bytes)
        guard partes.count > 1 else {
            self = bytes.withUnsafeBufferPointer { Self(parte: $0) }
            return
        }
        // Each part is a few MB of lines, so the threads' start is nothing beside it; the
        // call blocks only the command's own thread.
        let hechas = Mutex<[Int: LecturaDeDispositivos]>([:])
        DispatchQueue.concurrentPerform(iterations: partes.count) { i in
            let hecha = bytes.withUnsafeBufferPointer {
                Self(parte: UnsafeBufferPointer(rebasing: $0[partes[i]]))
            }
            hechas.withLock { $0[i] = hecha }
        }
        var todas = hechas.withLock { $0 }
        for i in partes.indices {
            guard var parte = todas.removeValue(forKey: i) else { continue }
            // The first part's list is taken whole; the others' are appended (a copy).
            if canales.isEmpty { swap(&canales, &parte.canales) } else { canales += parte.canales }
            seguimientos += parte.seguimientos
            lineas += parte.lineas.map { $0 + leidas }
            if let fallo = parte.fallo {
                self.fallo = (fallo.linea + leidas, fallo.motivo)
                return
            }
            leidas += parte.leidas
        }
    }

    /// One part, each line in turn, until the first bad one.
    private init(parte: UnsafeBufferPointer<UInt8>) {
        var inicio = 0
        while inicio < parte.count {
            let fin = parte[inicio...].firstIndex(of: UInt8(ascii: "\n")) ?? parte.count
            leidas += 1
            defer { inicio = fin + 1 }
            do {
                guard
                    let linea = try LineaDeDispositivo.leer(
                        UnsafeBufferPointer(rebasing: parte[inicio..<fin]))
                else { continue }
                canales.append(
                    try Nucleo.canalDeDispositivo(linea.dispositivo, linea.preferencias))
                seguimientos.append(linea.preferencias.seguimiento)
                lineas.append(leidas)
            } catch let motivo as MotivoDeLinea {
                fallo = (leidas, motivo.texto)
                return
            } catch let otro as Fallo {
                fallo = (leidas, otro.mensaje)
                return
            } catch {
                fallo = (leidas, String(describing: error))
                return
            }
        }
    }

    /// `bytes` cut after a line's end into one part per core, when it is big enough to pay.
    private static func partes(_ bytes: [UInt8]) -> [Range<Int>] {
        let nucleos = ProcessInfo.processInfo.activeProcessorCount
        // Several parts per core: one that is slower to read (longer lines) is not waited for.
        let cuantas = min(4 * nucleos, bytes.count / (1 << 20))
        guard nucleos > 1, cuantas > 1 else { return [0..<bytes.count] }
        var partes: [Range<Int>] = []
        var inicio = 0
        for i in 1..<cuantas {
            let corte = bytes.count * i / cuantas
            guard corte > inicio else { continue }
            let fin =
                bytes[corte...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
            partes.append(inicio..<fin)
            inicio = fin
            if inicio == bytes.count { break }
        }
        if inicio < bytes.count { partes.append(inicio..<bytes.count) }
        return partes
    }

    /// `canales` in id order (SQLite's, the index's), each id once with its last line. The
    /// channels are swapped into place, not copied: a copy of a million channels retains and
    /// then releases each of their strings and lists, a second of the import.
    static func ordenarPorNombre(_ canales: inout [CanalConfigurado]) {
        let ultimos = ultimosPorNombre(canales)
        // Where each place's channel comes from: the kept ones first, then the repeated lines.
        var origen = ultimos
        if ultimos.count < canales.count {
            var guardado = [Bool](repeating: false, count: canales.count)
            for i in ultimos { guardado[i] = true }
            origen += canales.indices.filter { !guardado[$0] }
        }
        // Each cycle of the permutation is followed once, by swaps.
        var hecho = [Bool](repeating: false, count: canales.count)
        for inicio in canales.indices where !hecho[inicio] {
            var actual = inicio
            while true {
                hecho[actual] = true
                let siguiente = origen[actual]
                if siguiente == inicio { break }
                canales.swapAt(actual, siguiente)
                actual = siguiente
            }
        }
        canales.removeLast(canales.count - ultimos.count)
    }

    /// The ids in byte order, each once: the index in `canales` of its last line. The first 16
    /// bytes of each id are compared as two integers, the whole only when those are equal.
    static func ultimosPorNombre(_ canales: [CanalConfigurado]) -> [Int] {
        var claves = canales.indices.map { i -> (UInt64, UInt64, Int) in
            var alta: UInt64 = 0
            var baja: UInt64 = 0
            for (j, byte) in canales[i].nombre.utf8.prefix(16).enumerated() {
                if j < 8 {
                    alta |= UInt64(byte) << (56 - 8 * j)
                } else {
                    baja |= UInt64(byte) << (56 - 8 * (j - 8))
                }
            }
            return (alta, baja, i)
        }
        claves.sort { a, b in
            if a.0 != b.0 { return a.0 < b.0 }
            if a.1 != b.1 { return a.1 < b.1 }
            let x = canales[a.2].nombre.utf8
            let y = canales[b.2].nombre.utf8
            if (x.count > 16 || y.count > 16) && !x.elementsEqual(y) {
                return x.lexicographicallyPrecedes(y)
            }
            return a.2 < b.2
        }
        // Ties are in line order: an id's last line is the one before the next id.
        var ultimos: [Int] = []
        ultimos.reserveCapacity(claves.count)
        for (posicion, clave) in claves.enumerated() {
            if posicion + 1 < claves.count {
                let siguiente = claves[posicion + 1]
                if siguiente.0 == clave.0, siguiente.1 == clave.1,
                    canales[siguiente.2].nombre == canales[clave.2].nombre
                {
                    continue
                }
            }
            ultimos.append(clave.2)
        }
        return ultimos
    }
}
