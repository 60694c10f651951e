/// Who holds a lease (a delivery, a feed source): a name of its own and the process behind
/// it, both written into the lease, so that a holder observably gone — its process no longer
/// on this host — has its work taken at once instead of when the lease runs out (issue 40:
/// `kill -9` of a dispatcher held its deliveries for a whole 60-s lease).
///
/// The text is `etiqueta pid inicio anfitrion` (the host last: it is the only part that could
/// hold a space). A lease written by an older marcador does not read as one: it simply runs out.
public struct Arrendatario: Sendable, Hashable {
    /// `despachador-1a2b3c4d`, `sondeador-…`: tells two holders of one process apart.
    public var etiqueta: String
    public var propietario: Propietario

    public init(etiqueta: String, propietario: Propietario) {
        self.etiqueta = etiqueta
        self.propietario = propietario
    }

    public var texto: String {
        "\(etiqueta) \(propietario.pid) \(propietario.inicio) \(propietario.anfitrion)"
    }

    public init?(texto: String) {
        let partes = texto.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard partes.count == 4, !partes[0].isEmpty, let pid = Int(partes[1]), pid > 0,
            let inicio = Int(partes[2]), inicio >= 0
        else { return nil }
        self.init(
            etiqueta: String(partes[0]),
            propietario: Propietario(anfitrion: String(partes[3]), pid: pid, inicio: inicio))
    }
}
