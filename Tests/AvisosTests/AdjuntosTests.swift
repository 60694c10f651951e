import Almacen
import ApoyoDePruebas
import Foundation
import Testing
import Torneo

@testable import Avisos

@Suite("Tipos de adjunto")
struct TipoDeAdjuntoTests {
    @Test func reconoceCadaTipoPorSusBytes() {
        #expect(TipoDeAdjunto.detectar(Muestras.jpeg) == .jpeg)
        #expect(TipoDeAdjunto.detectar(Muestras.png) == .png)
        #expect(TipoDeAdjunto.detectar(Muestras.gif) == .gif)
        #expect(TipoDeAdjunto.detectar(Muestras.mp4) == .mp4)
    }

    @Test func bmpTextoYVacioNoSonCompatibles() {
        #expect(TipoDeAdjunto.detectar(Muestras.bmp) == nil)
        #expect(TipoDeAdjunto.detectar(Muestras.texto) == nil)
        #expect(TipoDeAdjunto.detectar(Data()) == nil)
        #expect(TipoDeAdjunto.nombreDeLoDesconocido(Array(Muestras.bmp)) == "BMP")
        #expect(TipoDeAdjunto.nombreDeLoDesconocido(Array(Muestras.texto)) == "texto")
        #expect(TipoDeAdjunto.nombreDeLoDesconocido([]) == "fichero vacío")
    }

    @Test func losLimitesSonLosDeApple() {
        #expect(TipoDeAdjunto.gif.limite == 10 * 1024 * 1024)
        #expect(TipoDeAdjunto.mp4.limite == 50 * 1024 * 1024)
    }
}

/// The enricher against real files and a real HTTP server on 127.0.0.1.
@Suite("Enriquecedor")
struct EnriquecedorTests {
    let carpeta = Carpeta()

    final class Carpeta: Sendable {
        let ruta = NSTemporaryDirectory() + "marcador-adjuntos-" + UUID().uuidString
        init() {
            try? FileManager.default.createDirectory(
                atPath: ruta, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(atPath: ruta) }
        func fichero(_ nombre: String, _ datos: Data) -> String {
            let ruta = self.ruta + "/" + nombre
            _ = FileManager.default.createFile(atPath: ruta, contents: datos)
            return ruta
        }
    }

    func enriquecedor(plazo: Double = 30) -> Enriquecedor {
        Enriquecedor(plazo: plazo, carpeta: carpeta.ruta + "/cache")
    }

    @Test func unPNGLlamadoJpgEsUnPNG() async throws {
        let ruta = carpeta.fichero("foto.jpg", Muestras.png)
        let resultado = await enriquecedor().enriquecer("file://" + ruta, clave: "a")
        guard case .enriquecido(let descargado) = resultado else {
            Issue.record("esperaba un adjunto, no \(resultado)")
            return
        }
        #expect(descargado.tipo == .png)
        #expect(descargado.ruta.hasSuffix(".png"))
        let atributos = try FileManager.default.attributesOfItem(atPath: descargado.ruta)
        #expect((atributos[.posixPermissions] as? Int) == 0o600)
        #expect(FileManager.default.contents(atPath: descargado.ruta) == Muestras.png)
    }

    @Test(arguments: [
        ("no-existe.gif", "adjunto descartado: no existe"),
        ("", "no es un fichero"),
    ])
    func ficherosLocalesQueNoSirven(nombre: String, motivo: String) async {
        let ruta = carpeta.ruta + "/" + nombre
        let resultado = await enriquecedor().enriquecer("file://" + ruta, clave: "b")
        guard case .original(let texto) = resultado else {
            Issue.record("esperaba el original")
            return
        }
        #expect(texto.contains(motivo), "\(texto)")
    }

    @Test func unBMPNoEsCompatible() async {
        let ruta = carpeta.fichero("dibujo.png", Muestras.bmp)
        #expect(
            await enriquecedor().enriquecer("file://" + ruta, clave: "c")
                == .original(motivo: "adjunto no compatible: BMP"))
    }

    @Test func unEsquemaRaroSeDescarta() async {
        #expect(
            await enriquecedor().enriquecer("ftp://x/y.gif", clave: "d")
                == .original(
                    motivo:
                        "adjunto descartado: esquema no permitido «ftp» (solo http, https y file)"))
    }

    @Test func porHTTPUnGIFSeAdjunta() async throws {
        let servidor = try ReceptorHTTP(rutas: [
            "/gol.gif": .init(codigo: 200, cuerpo: Muestras.gif)
        ])
        defer { servidor.cerrar() }
        guard
            case .enriquecido(let descargado) = await enriquecedor().enriquecer(
                servidor.url("/gol.gif"), clave: "e")
        else {
            Issue.record("esperaba el GIF")
            return
        }
        #expect(descargado.tipo == .gif)
        #expect(descargado.bytes == Muestras.gif.count)
    }

    @Test func unServidorLentoAgotaElPlazoYSeRespetaElPlazo() async throws {
        let servidor = try ReceptorHTTP(rutas: [
            "/lento.gif": .init(codigo: 200, espera: 5, cuerpo: Muestras.gif)
        ])
        defer { servidor.cerrar() }
        // The server answers after 5 s with a whole GIF: an enricher without the 1 s deadline
        // would wait for it and attach it. No wall clock is read: on a loaded machine a test
        // process can stall for seconds before its first line (one did, for 9.8 s).
        let resultado = await enriquecedor(plazo: 1).enriquecer(
            servidor.url("/lento.gif"), clave: "f")
        #expect(resultado == .original(motivo: "adjunto descartado: tiempo agotado tras 1 s"))
    }

    @Test func un404DejaElOriginal() async throws {
        let servidor = try ReceptorHTTP(rutas: ["/falta.gif": .init(codigo: 404)])
        defer { servidor.cerrar() }
        #expect(
            await enriquecedor().enriquecer(servidor.url("/falta.gif"), clave: "g")
                == .original(motivo: "adjunto descartado: HTTP 404"))
    }

    /// An error page is an error, whatever its body says (round 1 called a 404 page «texto»).
    @Test func un404ConUnaPaginaHTMLEsUn404() async throws {
        let pagina = Data(
            ("<html><body>" + String(repeating: "No está. ", count: 500) + "</body></html>").utf8)
        let servidor = try ReceptorHTTP(rutas: ["/falta.gif": .init(codigo: 404, cuerpo: pagina)])
        defer { servidor.cerrar() }
        #expect(
            await enriquecedor().enriquecer(servidor.url("/falta.gif"), clave: "g2")
                == .original(motivo: "adjunto descartado: HTTP 404"))
    }

    /// Redirects are followed on the same host only, and credentials never travel with them.
    @Test func lasRedireccionesSoloAlMismoServidorYSinCredenciales() async throws {
        let otro = try ReceptorHTTP(rutas: ["/b.gif": .init(codigo: 200, cuerpo: Muestras.gif)])
        defer { otro.cerrar() }
        let servidor = try ReceptorHTTP(rutas: [
            "/a.gif": .init(codigo: 302, cabeceras: ["Location": "/b.gif"]),
            "/b.gif": .init(codigo: 200, cuerpo: Muestras.gif),
            "/fuera.gif": .init(
                codigo: 302, cabeceras: ["Location": "http://localhost:\(otro.puerto)/b.gif"]),
        ])
        defer { servidor.cerrar() }
        let conClave = "http://yo:secreto@127.0.0.1:\(servidor.puerto)/a.gif"
        guard case .enriquecido = await enriquecedor().enriquecer(conClave, clave: "r1") else {
            Issue.record("la redirección al mismo servidor debía seguirse")
            return
        }
        let segunda = try #require(servidor.peticiones.first { $0.ruta == "/b.gif" })
        #expect(segunda.cabeceras["authorization"] == nil)
        #expect(
            await enriquecedor().enriquecer(servidor.url("/fuera.gif"), clave: "r2")
                == .original(
                    motivo:
                        "adjunto descartado: redirige a otro servidor (http://localhost:\(otro.puerto)/***), que no se sigue"
                ))
        #expect(otro.peticiones.isEmpty)
    }

    /// 200 MB that start like a PNG: the download stops soon after 10 MB, not at the end. (The
    /// server can still write a few tens of MB into loopback socket buffers nobody reads.)
    @Test func unaImagenDemasiadoGrandeSeCortaPronto() async throws {
        let servidor = try ReceptorHTTP(
            rutas: [
                "/enorme.png": .init(codigo: 200, cuerpo: Muestras.png, relleno: 200 * 1024 * 1024)
            ])
        defer { servidor.cerrar() }
        let resultado = await enriquecedor().enriquecer(servidor.url("/enorme.png"), clave: "h")
        #expect(resultado == .original(motivo: "adjunto descartado: pasa de 10 MB"))
        // The server's writes fail once the fetcher hung up: then nothing more is sent.
        #expect(await servidor.esperarFinDeRespuesta("/enorme.png"))
        #expect(servidor.bytesEnviados("/enorme.png") < 80 * 1024 * 1024)
    }

    @Test func unaRedireccionEnBucleDejaElOriginal() async throws {
        let servidor = try ReceptorHTTP(rutas: [
            "/bucle.gif": .init(codigo: 302, cabeceras: ["Location": "/bucle.gif"])
        ])
        defer { servidor.cerrar() }
        #expect(
            await enriquecedor().enriquecer(servidor.url("/bucle.gif"), clave: "i")
                == .original(motivo: "adjunto descartado: demasiadas redirecciones"))
    }

    @Test func losFicherosViejosSeBorran() async throws {
        let ruta = carpeta.fichero("a.gif", Muestras.gif)
        let enriquecedor = Enriquecedor(carpeta: carpeta.ruta + "/cache", vida: 0)
        guard
            case .enriquecido(let primero) = await enriquecedor.enriquecer(
                "file://" + ruta, clave: "uno")
        else {
            Issue.record("esperaba el GIF")
            return
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: primero.ruta)
        _ = await enriquecedor.enriquecer("file://" + ruta, clave: "dos")
        #expect(!FileManager.default.fileExists(atPath: primero.ruta))
    }
}

/// Enrichment inside the dispatcher: once per notice, original content when it fails, the
/// outcome recorded, and the channels' use of the attachment.
@MainActor
@Suite("Despachador con adjuntos")
struct DespachadorConAdjuntosTests {
    @Test func unAdjuntoLentoNoRetrasaElAvisoMasQueElPlazo() async throws {
        let servidor = try ReceptorHTTP(rutas: [
            "/lento.gif": .init(codigo: 200, espera: 10, cuerpo: Muestras.gif)
        ])
        defer { servidor.cerrar() }
        let queue = try Almacen.enMemoria()
        let repositorio = PartidosSQLite(queue)
        var ajustes = try repositorio.ajustes()
        ajustes.avisosPermitidos = true
        try repositorio.guardar(ajustes)
        let cronica = CronicaSQLite(queue, partidoId: 1, duracionFija: false)
        let partido = try #require(try repositorio.partido(id: 1))
        try cronica.empezar(partido: partido, duracion: 90, msPorMinuto: 0, codigo: "adj00")
        let gol = Gol(
            minuto: MinutoDeJuego(35), jugador: Jugador("Luis", de: partido.local), lado: .local,
            adjunto: servidor.url("/lento.gif"))
        _ = try cronica.registrar(
            minuto: 35, goles: .cero, avisos: [AvisoDeGol(gol: gol, en: partido, marcador: .cero)],
            ultimoAviso: { _ in "" })
        let espia = NotificadorEspia(canal: "registro")
        let registro = RegistroEspia()
        let despachador = Despachador(
            buzon: BuzonSQLite(queue), canales: [espia], registro: registro,
            enriquecedor: Enriquecedor(
                plazo: 1, carpeta: NSTemporaryDirectory() + "marcador-adj-" + UUID().uuidString),
            permitido: { true })
        // The server would answer after 10 s; the log line proves the 1-s deadline cut it.
        try await despachador.enviarPendientes()
        #expect(espia.avisos.count == 1)
        #expect(espia.avisos.first?.adjunto == nil)
        #expect(
            registro.lineas == [
                "adjunto descartado: tiempo agotado tras 1 s; se entrega sin adjunto: gol-35-Luis"
            ])
        let anotado = try #require(try BuzonSQLite(queue).ultimos(limite: 1).first)
        #expect(anotado.enriquecido == false)
        #expect(anotado.motivoDelAdjunto == "adjunto descartado: tiempo agotado tras 1 s")
    }

    @Test func laCargaAPNsDeUnAvisoEnriquecidoEsMutableYLlevaAttached() throws {
        let aviso = AvisoDeGol(
            identificador: "gol-35-Luis", titulo: "¡Gol!",
            cuerpo: String(repeating: "Luis (Rayo FC) ", count: 500),
            partidoId: 1, minuto: MinutoDeJuego(35), jugador: "Luis", equipo: "Rayo FC",
            marcador: .cero,
            adjunto: "https://example.com/" + String(repeating: "a", count: 200) + ".gif",
            tipoDeAdjunto: "gif")
        let bytes = try CanalAPNs.carga(aviso, bundle: "es.ejemplo.Marcador")
        #expect(bytes.count <= 4096)
        let carga = try #require(
            try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect((carga["aps"] as? [String: Any])?["mutable-content"] as? Int == 1)
        #expect(carga["attached"] as? String == aviso.adjunto)
    }

    @Test func elWebhookNtfyLlevaAttachYFilename() throws {
        let aviso = AvisoDeGol(
            identificador: "gol-35-Luis", titulo: "¡Gol!", cuerpo: "Luis (Rayo FC), minuto 35",
            partidoId: 1,
            minuto: MinutoDeJuego(35), jugador: "Luis", equipo: "Rayo FC", marcador: .cero,
            adjunto: "https://example.com/gol.gif", tipoDeAdjunto: "gif")
        let peticion = try CanalWebhook(url: "https://ntfy.sh/marcador", ntfy: true).peticion(aviso)
        let cabeceras = Dictionary(uniqueKeysWithValues: peticion.cabeceras)
        #expect(cabeceras["Attach"] == "https://example.com/gol.gif")
        #expect(cabeceras["Filename"] == CanalWebhook.cabeceraCodificada("gol-35-Luis.gif"))
        #expect(cabeceras["Title"] == "=?UTF-8?B?wqFHb2wh?=")
        #expect(peticion.cuerpo == Array("Luis (Rayo FC), minuto 35".utf8))
        let json = try CanalWebhook(url: "https://example.com/hook").peticion(aviso)
        let documento =
            try JSONSerialization.jsonObject(with: Data(json.cuerpo ?? [])) as? [String: Any]
        #expect(documento?["adjunto"] as? String == "https://example.com/gol.gif")
        #expect(documento?["adjuntoTipo"] as? String == "gif")
    }

    @Test func elBannerNombraElAdjunto() {
        let aviso = AvisoDeGol(
            identificador: "gol-35-Luis", titulo: "¡Gol!", cuerpo: "Luis (Rayo FC), minuto 35",
            partidoId: 1,
            minuto: MinutoDeJuego(35), jugador: "Luis", equipo: "Rayo FC", marcador: .cero,
            adjunto: "file:///tmp/gol.gif", tipoDeAdjunto: "gif")
        #expect(CanalTerminal.banner(aviso).contains("│ adjunto: gol.gif (GIF)    │"))
    }
}
