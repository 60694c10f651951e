import Avisos
import Directo
import Persistencia
import Torneo

/// Live feeds (directo.md): `fuentes añadir|quitar` and the listing, for every front end.
extension Nucleo {
    public static let cadaMinimo = 1.0
    public static let cadaMaximo = 86_400.0
    /// The providers' names, as `--formato` takes them.
    public static var formatosDeFuente: [String] { FormatoDeFuente.allCases.map(\.rawValue) }

    /// Adds source `nombre`.
    /// - Returns: the source as stored.
    /// - Throws: `Fallo.uso` for a bad name, URL, format, key or interval, or a name in use.
    @discardableResult
    public func anadirFuente(
        nombre: String, url: String, formato texto: String, clave: String?, cada: Double?
    ) throws -> FuenteConfigurada {
        guard !nombre.isEmpty, nombre.count <= 64, !TextoSeguro.tieneControl(nombre),
            !nombre.contains(where: \.isWhitespace)
        else {
            throw Fallo.uso(
                "\(citado(nombre)) no vale como nombre de fuente (de 1 a 64 caracteres, "
                    + "sin espacios ni caracteres de control).")
        }
        guard let formato = FormatoDeFuente(rawValue: texto) else {
            throw Fallo.uso(
                "Formatos: football-data u openfootball; no \(citado(texto)).")
        }
        do {
            _ = try DireccionWeb(url)
        } catch {
            throw Fallo.uso("La URL de la fuente \(error.mensaje): «\(DireccionWeb.visible(url))».")
        }
        if let clave {
            guard !clave.isEmpty, clave.count <= 200,
                clave.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline }),
                !TextoSeguro.tieneControl(clave)
            else {
                throw Fallo.uso("La clave de la fuente va sin espacios ni caracteres de control.")
            }
        }
        let segundos = cada ?? formato.cadaPorDefecto
        guard (Self.cadaMinimo...Self.cadaMaximo).contains(segundos) else {
            throw Fallo.uso(
                "--cada va de \(Int(Self.cadaMinimo)) a \(Int(Self.cadaMaximo)) segundos, no "
                    + "\(citado(Textos.segundos(segundos))).")
        }
        let fuente = FuenteConfigurada(
            nombre: nombre, url: url, formato: formato.rawValue, clave: clave, cada: segundos)
        guard try tienda.fuentes.anadir(fuente) else {
            throw Fallo.uso("Ya hay una fuente llamada \(citado(nombre)).")
        }
        return fuente
    }

    public func quitarFuente(_ nombre: String) throws {
        guard try tienda.fuentes.quitar(nombre) else {
            throw Fallo.noEncontrado("No hay ninguna fuente llamada \(citado(nombre)).")
        }
    }

    /// Every source with how its polls go; URLs as they may be shown (no key, no path).
    public func fuentes() throws -> [EstadoDeFuente] { try tienda.fuentes.todas() }
}
