import Servidor
import Sistema

/// Who is asking, and with which page key (screen.md, issue 26).
///
/// Without `--token` (loopback only) every page gets the server's one page key, made at
/// random at each start: it only proves a change comes from a page of this server (CSRF).
/// With `--token`, nothing but the login page and the static files is given to a client that
/// has not entered: a browser enters once with the key (`/entrar`) and gets a session cookie
/// (`HttpOnly; SameSite=Strict`) with a page key of its own; a program sends the key itself
/// (`X-Marcador-Token` or `Authorization: Bearer`). The key is never written into a page.
struct Acceso: Sendable {
    enum Visitante: Sendable, Equatable {
        /// A page of this server: every change carries `clave` and a same-origin `Origin`.
        case pagina(clave: String, sesion: String?)
        /// A program holding the server's own key.
        case cliente
    }

    static let cookie = "marcador_sesion"

    /// The server's key (`--token`); nil: no login.
    let clave: String?
    /// The page key of a server without login.
    let claveLibre: String
    let sesiones: Sesiones

    init(clave: String?, ahora: @escaping @Sendable () -> Double = segundosUnix) {
        self.clave = clave
        claveLibre = ServicioWeb.claveAlAzar()
        sesiones = Sesiones(ahora: ahora)
    }

    var conEntrada: Bool { clave != nil }

    /// What a request may do, by what it carries.
    enum Entrada: Sendable, Equatable {
        case admitido(Visitante)
        /// No session and no key: it must enter first.
        case sinEntrar
        /// It sent a key in a header, and too many wrong keys came in the last minute.
        case demasiadosIntentos
    }

    /// Who sent `peticion`. A page with its session sends its page key in `X-Marcador-Token`
    /// (checked by the route); without a session, a key in `X-Marcador-Token` or
    /// `Authorization: Bearer` is a login like the form's, counted by the same limiter: a wrong
    /// one counts as a failure, and while the limit holds no key is tried at all (guessing
    /// through a header is no faster than through the form, issue 41).
    func entrada(_ peticion: HTTPRequest) -> Entrada {
        guard let clave else { return .admitido(.pagina(clave: claveLibre, sesion: nil)) }
        let dada = Self.claveEnviada(peticion)
        if let dada, Self.iguales(dada, clave), sesiones.sePuedeIntentar {
            return .admitido(.cliente)
        }
        if let id = Self.sesion(peticion), let deLaPagina = sesiones.claveDePagina(de: id) {
            return .admitido(.pagina(clave: deLaPagina, sesion: id))
        }
        guard dada != nil else { return .sinEntrar }
        guard sesiones.sePuedeIntentar else { return .demasiadosIntentos }
        sesiones.anotarFallo()
        return .sinEntrar
    }

    /// Whether `dada` is the server's key (a login).
    func esLaClave(_ dada: String) -> Bool {
        guard let clave else { return false }
        return Self.iguales(dada, clave)
    }

    static func claveEnviada(_ peticion: HTTPRequest) -> String? {
        if let cabecera = peticion.header("x-marcador-token") { return cabecera }
        guard let autorizacion = peticion.header("authorization"),
            autorizacion.lowercased().hasPrefix("bearer ")
        else { return nil }
        return Self.recortado(autorizacion.dropFirst("bearer ".count))
    }

    /// The session id in the `Cookie` header, if any.
    static func sesion(_ peticion: HTTPRequest) -> String? {
        guard let cookies = peticion.header("cookie") else { return nil }
        for par in cookies.split(separator: ";") {
            let partes = par.split(separator: "=", maxSplits: 1)
            guard partes.count == 2, recortado(partes[0]) == cookie else { continue }
            return recortado(partes[1])
        }
        return nil
    }

    private static func recortado(_ texto: Substring) -> String {
        String(texto.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    static func cookieDeSesion(_ id: String) -> String {
        "\(cookie)=\(id); Path=/; HttpOnly; SameSite=Strict"
    }

    static let cookieBorrada = "\(cookie)=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict"

    /// Compares without stopping at the first difference, so timing does not reveal the key.
    static func iguales(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// `clave=…` from a form body (`application/x-www-form-urlencoded`), percent-decoded.
    static func campo(_ nombre: String, deFormulario cuerpo: [UInt8]) -> String? {
        for par in String(decoding: cuerpo, as: UTF8.self).split(separator: "&") {
            let partes = par.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard partes.count == 2, partes[0] == nombre else { continue }
            return descodificar(partes[1])
        }
        return nil
    }

    private static func descodificar(_ texto: Substring) -> String? {
        var bytes: [UInt8] = []
        var indice = texto.utf8.startIndex
        let utf8 = texto.utf8
        while indice < utf8.endIndex {
            let byte = utf8[indice]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                let siguiente = utf8.index(after: indice)
                guard utf8.distance(from: siguiente, to: utf8.endIndex) >= 2,
                    let valor = UInt8(
                        String(
                            decoding: utf8[siguiente..<utf8.index(siguiente, offsetBy: 2)],
                            as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(valor)
                indice = utf8.index(siguiente, offsetBy: 1)
            } else {
                bytes.append(byte)
            }
            indice = utf8.index(after: indice)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
