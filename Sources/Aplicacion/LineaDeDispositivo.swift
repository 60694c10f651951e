import Avisos
import Sistema
import Torneo

/// One line of `marcador dispositivos importar`: a device and its filters, read from the
/// line's bytes where they lie.
///
/// Walked by hand over `ValorJSON`, not decoded with `JSONDecoder`: an import reads a million
/// of them (contract.md §20), and the decoder's containers cost more than the rest of the line's
/// work. Unknown fields are ignored, as the decoder ignores them; a field of the wrong type is
/// named.
struct LineaDeDispositivo {
    var dispositivo: DispositivoNuevo
    var preferencias: PreferenciasDeDispositivo

    /// What `bytes` (one line, without its `\n`) holds: nil for a blank line.
    /// - Throws: why it is not a device, as the user reads it after «Línea N: ».
    static func leer(_ bytes: UnsafeBufferPointer<UInt8>) throws(MotivoDeLinea) -> Self? {
        // A blank line, or one of spaces, tabs, form feeds and a CRLF's \r, is skipped.
        if bytes.allSatisfy({ $0 == 0x20 || (0x09...0x0D).contains($0) }) {
            return nil
        }
        guard case .objeto(let campos)? = try? ValorJSON.leer(bytes) else {
            throw MotivoDeLinea(
                "no es un dispositivo en JSON ({\"apns\": \"TOKEN\"} o {\"webpush\": {…}}).")
        }
        let dispositivo: DispositivoNuevo
        switch (presente(campos["apns"]), presente(campos["webpush"])) {
        case (let apns?, nil):
            guard case .texto(let token) = apns else {
                throw MotivoDeLinea("«apns» es el token, un texto de cifras hexadecimales.")
            }
            dispositivo = .apns(token: token)
        case (nil, let webpush?):
            guard let suscripcion = Self.suscripcion(webpush) else {
                throw MotivoDeLinea(
                    "«webpush» es la suscripción: {\"endpoint\": …, \"keys\": {\"p256dh\": …, "
                        + "\"auth\": …}}.")
            }
            dispositivo = .webPush(suscripcion)
        default:
            throw MotivoDeLinea("lleva «apns» o «webpush», uno de los dos.")
        }
        var preferencias = PreferenciasDeDispositivo()
        preferencias.seguimiento = Seguimiento(
            equipos: try textos(campos, "equipos"),
            competiciones: try textos(campos, "competiciones"),
            partidos: try numeros(campos, "partidos"))
        switch presente(campos["retraso"]) {
        case nil: break
        case .numero(let segundos)?: preferencias.retraso = segundos
        default: throw MotivoDeLinea("«retraso» son segundos, un número.")
        }
        switch presente(campos["avisar"]) {
        case nil: break
        case .texto(let avisar)?:
            guard let clases = ClaseDeAviso.leer(avisar) else {
                throw MotivoDeLinea(
                    "«avisar» no son clases de aviso: \(TextoSeguro.limpio(avisar)).")
            }
            preferencias.avisar = clases
        default: throw MotivoDeLinea("«avisar» son clases de aviso, en un texto.")
        }
        switch presente(campos["horasTranquilas"]) {
        case nil: break
        case .texto(let horas)?:
            guard let leidas = HorasTranquilas(horas) else {
                throw MotivoDeLinea("«horasTranquilas» va como 23:00-08:00.")
            }
            preferencias.horasTranquilas = leidas
        default: throw MotivoDeLinea("«horasTranquilas» va como 23:00-08:00.")
        }
        return LineaDeDispositivo(dispositivo: dispositivo, preferencias: preferencias)
    }

    /// A field's value; none when it is missing or null, as an optional field of a decoder.
    private static func presente(_ valor: ValorJSON?) -> ValorJSON? {
        if case .nulo? = valor { return nil }
        return valor
    }

    private static func suscripcion(_ valor: ValorJSON) -> Dispositivo.Suscripcion? {
        guard case .texto(let endpoint)? = valor["endpoint"],
            case .texto(let p256dh)? = valor["keys"]?["p256dh"],
            case .texto(let auth)? = valor["keys"]?["auth"]
        else { return nil }
        return Dispositivo.Suscripcion(endpoint: endpoint, p256dh: p256dh, auth: auth)
    }

    /// Field `clave` as a list, each element read by `elemento`; none when it is missing.
    /// - Parameter que: what the list holds, for the message when it is not that.
    private static func lista<T>(
        _ campos: [String: ValorJSON], _ clave: String, de que: String,
        _ elemento: (ValorJSON) -> T?
    ) throws(MotivoDeLinea) -> [T] {
        guard let valor = presente(campos[clave]) else { return [] }
        guard case .lista(let elementos) = valor else {
            throw MotivoDeLinea("«\(clave)» es una lista de \(que).")
        }
        var leidos: [T] = []
        for valor in elementos {
            guard let leido = elemento(valor) else {
                throw MotivoDeLinea("«\(clave)» es una lista de \(que).")
            }
            leidos.append(leido)
        }
        return leidos
    }

    private static func textos(_ campos: [String: ValorJSON], _ clave: String)
        throws(MotivoDeLinea) -> [String]
    {
        try lista(campos, clave, de: "nombres") { valor in
            if case .texto(let nombre) = valor { return nombre }
            return nil
        }
    }

    private static func numeros(_ campos: [String: ValorJSON], _ clave: String)
        throws(MotivoDeLinea) -> [Int]
    {
        try lista(campos, clave, de: "números de partido") { valor in
            if case .numero(let numero) = valor { return Int(exactly: numero) }
            return nil
        }
    }
}

/// Why a line of an import is not a device.
struct MotivoDeLinea: Error {
    var texto: String
    init(_ texto: String) { self.texto = texto }
}
