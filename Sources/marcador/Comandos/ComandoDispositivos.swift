import Aplicacion
import Avisos
import Torneo

/// `marcador dispositivos`: the phones and browsers that get goals through real push
/// (contract.md §19); each is a channel with the filters of any channel.
struct ComandoDispositivos: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "dispositivos",
        resumen: "Los iPhone (APNs) y navegadores (Web Push) que reciben los avisos.",
        detalles: """
            Sin subcomando los lista: identificador, tipo, a dónde van (el principio y el final
            del token, o el servidor de push), qué siguen y si se les puede entregar. Cada
            dispositivo recibe sus avisos como un canal más («avisos enviar», «avisos vigilar»,
            «jugar», «directo»); APNs y Web Push se configuran con «marcador empuje». Un
            dispositivo que APNs o el servicio de push dan por retirado (410) se quita solo.
            """,
        subcomandos: [DispositivosAnadir.self, DispositivosQuitar.self, DispositivosImportar.self])

    @Bandera("--json", ayuda: "Escribe la lista en JSON, para otros programas.")
    var json: Bool

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let dispositivos = try contexto.nucleo().dispositivos()
        if json {
            contexto.terminal.linea(try documentoJSON(dispositivos))
            return .ok
        }
        guard !dispositivos.isEmpty else {
            contexto.terminal.linea(
                "No hay dispositivos. Añade uno con «marcador dispositivos añadir apns TOKEN» o «marcador dispositivos añadir webpush --suscripcion FICHERO»."
            )
            return .ok
        }
        var tabla = Tabla(cabeceras: ["ID", "TIPO", "DESTINO", "SIGUE", "AVISOS", "ESTADO"])
        for dispositivo in dispositivos {
            let sigue = dispositivo.sigue
            let partes =
                sigue.equipos + sigue.competiciones
                + sigue.partidos.map { "partido \($0)" }
            tabla.anadir([
                dispositivo.id, dispositivo.tipo, TextoSeguro.limpio(dispositivo.destino),
                partes.isEmpty ? "todo" : TextoSeguro.limpio(partes.joined(separator: ", ")),
                dispositivo.avisar,
                !dispositivo.activo
                    ? "en pausa" : dispositivo.motivo.map { "no disponible: \($0)" } ?? "listo",
            ])
        }
        tabla.escribir(en: contexto.terminal) { contexto.terminal.resaltar($0, .negrita) }
        return .ok
    }
}

/// The filters a device takes, like a channel (§10/§15).
struct OpcionesDeDispositivo: GrupoDeOpciones {
    var filtro = OpcionesDeFiltro()

    @MainActor
    var leidas: PreferenciasDeDispositivo {
        PreferenciasDeDispositivo(
            seguimiento: filtro.seguimiento.leido, avisar: filtro.avisar?.clases,
            horasTranquilas: filtro.horasTranquilas, retraso: filtro.retraso ?? 0)
    }

    @MainActor
    func anadir(_ nuevo: DispositivoNuevo, en contexto: Contexto) throws -> CodigoDeSalida {
        let (id, esNuevo) = try contexto.nucleo().anadirDispositivo(nuevo, leidas)
        contexto.terminal.linea(
            esNuevo ? "Dispositivo \(id) añadido." : "Dispositivo \(id) actualizado (ya estaba).")
        return .ok
    }
}

struct DispositivosAnadir: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "añadir", alias: ["anadir"],
        resumen: "Añade un dispositivo: apns (un iPhone) o webpush (un navegador).",
        subcomandos: [AnadirDispositivoAPNs.self, AnadirDispositivoWebPush.self])

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        throw Fallo.uso("Falta el tipo de dispositivo: apns o webpush.")
    }
}

struct AnadirDispositivoAPNs: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "apns",
        resumen: "Un iPhone, por su token de dispositivo de APNs (en hexadecimal).")

    @Argumento("TOKEN", ayuda: "El token que la app recibe de APNs, en hexadecimal.")
    var token: String

    var opciones = OpcionesDeDispositivo()

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try opciones.anadir(.apns(token: token), en: contexto)
    }
}

struct AnadirDispositivoWebPush: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "webpush",
        resumen: "Un navegador, por su suscripción de Web Push (el JSON de PushSubscription).")

    @Opcion(
        "--suscripcion", marcador: "FICHERO",
        ayuda: "El JSON de la suscripción: endpoint, keys.p256dh y keys.auth.", obligatoria: true)
    var suscripcion: String?

    var opciones = OpcionesDeDispositivo()

    func validar() throws(Fallo) {
        if suscripcion == nil { throw .uso("Falta --suscripcion FICHERO.") }
    }

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        let ruta = suscripcion ?? ""
        let bytes = try Nucleo.leerFicheroDeUsuario(ruta, maximo: 16 * 1024)
        let leida: Dispositivo.Suscripcion
        do {
            leida = try Dispositivo.suscripcion(json: bytes)
        } catch {
            throw Fallo.datos("No se añade el dispositivo: \(citado(ruta)): \(error.mensaje).")
        }
        return try opciones.anadir(.webPush(leida), en: contexto)
    }
}

struct DispositivosQuitar: Comando {
    static let configuracion = ConfiguracionDeComando(
        nombre: "quitar",
        resumen: "Quita un dispositivo (sus avisos pendientes se descartan).")

    @Argumento("ID", ayuda: "El dispositivo, como sale en «dispositivos».")
    var id: String

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        try contexto.nucleo().quitarDispositivo(id)
        contexto.terminal.linea("Dispositivo \(id) quitado.")
        return .ok
    }
}

struct DispositivosImportar: Comando {
    static let asignaEnVariosHilos = true
    static let configuracion = ConfiguracionDeComando(
        nombre: "importar",
        resumen: "Añade los dispositivos de un fichero, uno por línea en JSON.",
        detalles: """
            Cada línea es {"apns": "TOKEN"} o {"webpush": {"endpoint": …, "keys": {…}}}, con
            los filtros que quiera: "equipos", "competiciones", "partidos", "avisar",
            "horasTranquilas", "retraso". Se comprueban todas antes de guardar ninguna: una línea
            mala no guarda nada y dice cuál es. Un dispositivo que ya estaba se actualiza.
            """)

    @Argumento("FICHERO", ayuda: "El fichero, una línea JSON por dispositivo.")
    var fichero: String

    func ejecutar(en contexto: Contexto) async throws -> CodigoDeSalida {
        // A million devices is about 100 MB of lines (contract.md §20); the bound keeps a wrong
        // file (a disk image, /dev/zero) from being read whole.
        let bytes = try Nucleo.leerFicheroDeUsuario(fichero, maximo: 512 * 1_048_576)
        let nucleo = try contexto.nucleo()
        let (nuevos, cambiados) = try nucleo.importarDispositivos(bytes)
        contexto.terminal.linea(
            "Dispositivos: \(nuevos) nuevos, \(cambiados) actualizados.")
        return .ok
    }
}
