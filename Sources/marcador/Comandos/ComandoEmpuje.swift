import Aplicacion
import Avisos
import Torneo

/// `marcador empuje`: the push provider's set-up (contract.md §19), never a secret shown.
struct ComandoEmpuje: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "empuje",
        resumen: "APNs y Web Push: lo configurado (sin secretos) y cómo configurarlo.",
        detalles: """
            Sin subcomando muestra lo configurado: de APNs el equipo, el identificador de la
            clave, el tema (la app) y la URL; de Web Push la clave pública VAPID (para
            applicationServerKey) y el contacto. La clave .p8 y la privada VAPID quedan en la
            base de datos y no se muestran nunca.
            """,
        subcomandos: [EmpujeAPNs.self, EmpujeWebPush.self])

    @Bandera("--json", ayuda: "Escribe lo configurado en JSON, para otros programas.")
    var json: Bool

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let estado = try contexto.nucleo().estadoDeEmpuje()
        if json {
            contexto.terminal.linea(try documentoJSON(estado))
            return .ok
        }
        if let apns = estado.apns {
            contexto.terminal.linea(
                "APNs: equipo \(apns.equipo), clave \(apns.idClave), tema \(apns.tema), "
                    + "\(TextoSeguro.limpio(apns.url))"
                    + (apns.ca.map { ", CA \(TextoSeguro.limpio($0))" } ?? "") + ".")
        } else {
            contexto.terminal.linea(
                "APNs: sin configurar («marcador empuje apns --clave AuthKey_KID.p8 …»).")
        }
        if let webpush = estado.webpush {
            contexto.terminal.linea(
                "Web Push: clave pública \(webpush.clavePublica), contacto "
                    + "\(TextoSeguro.limpio(webpush.contacto))"
                    + (webpush.ca.map { ", CA \(TextoSeguro.limpio($0))" } ?? "") + ".")
        } else {
            contexto.terminal.linea(
                "Web Push: sin configurar («marcador empuje webpush --contacto mailto:…»).")
        }
        return .ok
    }
}

struct EmpujeAPNs: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "apns",
        resumen: "Las credenciales de APNs por token: la clave .p8, su id, el equipo y la app.",
        detalles: """
            La clave .p8 se lee una vez y se guarda en la base (que solo lee su dueño). Los
            avisos van a https://api.push.apple.com por HTTP/2, o al entorno de pruebas con
            --sandbox, o a --url. TLS se verifica siempre; --ca da otra autoridad (PEM).
            """)

    @Opcion(
        "--clave", marcador: "FICHERO", ayuda: "La clave AuthKey_KID.p8 de Apple.",
        obligatoria: true)
    var clave: String?

    @Opcion(
        "--id-clave", marcador: "KID", ayuda: "El identificador de la clave (10 caracteres).",
        obligatoria: true)
    var idClave: String?

    @Opcion(
        "--equipo", marcador: "TEAMID", ayuda: "El identificador del equipo (10 caracteres).",
        obligatoria: true)
    var equipo: String?

    @Opcion(
        "--tema", marcador: "BUNDLE_ID", ayuda: "El identificador de la app (apns-topic).",
        obligatoria: true)
    var tema: String?

    @Bandera("--sandbox", ayuda: "Usa el entorno de pruebas de APNs.")
    var sandbox: Bool

    @Opcion("--url", marcador: "URL", ayuda: "Otra URL de APNs (https://).")
    var url: String?

    @Opcion(
        "--ca", marcador: "FICHERO",
        ayuda: "Autoridad de certificación (PEM) con que verificar TLS.")
    var ca: String?

    func validar() throws(Fallo) {
        if clave == nil || idClave == nil || equipo == nil || tema == nil {
            throw .uso("APNs necesita --clave, --id-clave, --equipo y --tema.")
        }
        if sandbox && url != nil { throw .uso("--sandbox y --url no van juntas.") }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let ruta = clave ?? ""
        let p8 = try Nucleo.leerFicheroDeUsuario(ruta, maximo: 16 * 1024)
        let nucleo = try contexto.nucleo()
        try nucleo.configurarAPNs(
            p8: String(decoding: p8, as: UTF8.self), idClave: idClave ?? "", equipo: equipo ?? "",
            tema: tema ?? "",
            url: sandbox ? CredencialesDeEmpuje.urlDeAPNsDePruebas : url, ca: ca)
        contexto.terminal.linea("APNs configurado: clave \(idClave ?? ""), tema \(tema ?? "").")
        return .ok
    }
}

struct EmpujeWebPush: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "webpush",
        resumen: "La identidad VAPID de Web Push: crea su par de claves una vez y da la pública.",
        detalles: """
            La primera vez crea el par de claves P-256 (la privada queda en la base); después lo
            conserva, salvo con --claves-nuevas (y entonces cada navegador tiene que volver a
            suscribirse). Escribe la clave pública en base64url, la de applicationServerKey.
            """)

    @Opcion(
        "--contacto", marcador: "CONTACTO", ayuda: "mailto:correo o https://… (el sub de VAPID).",
        obligatoria: true)
    var contacto: String?

    @Bandera("--claves-nuevas", ayuda: "Sustituye el par de claves por uno nuevo.")
    var clavesNuevas: Bool

    @Opcion(
        "--ca", marcador: "FICHERO",
        ayuda: "Autoridad de certificación (PEM) con que verificar TLS.")
    var ca: String?

    func validar() throws(Fallo) {
        if contacto == nil { throw .uso("Web Push necesita --contacto mailto:… o https://….") }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let publica = try contexto.nucleo().configurarWebPush(
            contacto: contacto ?? "", ca: ca, nuevas: clavesNuevas)
        contexto.terminal.linea(publica)
        return .ok
    }
}
