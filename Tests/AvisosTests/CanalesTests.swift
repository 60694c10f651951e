import Foundation
import Synchronization
import Testing
import Torneo

@testable import Avisos

@Suite("Canales")
struct CanalesTests {
    let rayo = Equipo("Rayo FC")

    func aviso(
        _ minuto: MinutoDeJuego = MinutoDeJuego(35), jugador: String = "Luis",
        adjunto: String? = nil
    )
        -> AvisoDeGol
    {
        let gol = Gol(
            minuto: minuto, jugador: Jugador(jugador, de: rayo), lado: .local, adjunto: adjunto)
        let partido = Partido(id: 1, local: rayo, visitante: Equipo("Toros"), eventos: [])
        return AvisoDeGol(gol: gol, en: partido, marcador: Marcador(local: 2, visitante: 1))
    }

    /// The lesson's line, with the team and the marks after it (contract.md): a penalty, an
    /// own goal, an annulment and a correction say what their alert says.
    @Test func elRegistroEscribeLaLineaDeLaLeccionConEquipoYMarcas() async throws {
        let registro = RegistroEspia()
        let canal = CanalRegistro(registro: registro)
        let partido = Partido(id: 1, local: rayo, visitante: Equipo("Toros"), eventos: [])
        let penalti = AvisoDeGol(
            gol: Gol(
                minuto: MinutoDeJuego(23), jugador: Jugador("Iván", de: rayo), lado: .local,
                penalti: true),
            en: partido, marcador: Marcador(local: 1, visitante: 0))
        let enPropia = AvisoDeGol(
            gol: Gol(
                minuto: MinutoDeJuego(50), jugador: Jugador("Toño", de: Equipo("Toros")),
                lado: .local, enPropiaPuerta: true),
            en: partido, marcador: Marcador(local: 2, visitante: 0))
        try await canal.notificarGol(aviso())
        try await canal.notificarGol(aviso(MinutoDeJuego(90, anadido: 3), jugador: "Cheryshev"))
        try await canal.notificarGol(penalti)
        try await canal.notificarGol(enPropia)
        try await canal.notificarGol(
            AvisoDeGol.anulacion(de: penalti, marcador: Marcador(local: 0, visitante: 0)))
        try await canal.notificarGol(AvisoDeGol.correccion(de: "gol-35-Luis", ahora: penalti))
        try await canal.notificarGol(
            AvisoDeGol.roja(
                TarjetaRoja(
                    minuto: MinutoDeJuego(70), jugador: "Toño", equipo: "Toros", lado: .visitante,
                    dobleAmarilla: true), partidoId: 1, marcador: .cero))
        try await canal.notificarGol(
            AvisoDeGol.recordatorio(
                local: "Rayo FC", visitante: "Toros", hora: "16:00", partidoId: 1))
        #expect(
            registro.lineas == [
                "notificación «¡Gol!» enviada: Luis, minuto 35 (Rayo FC)",
                "notificación «¡Gol!» enviada: Cheryshev, minuto 90+3 (Rayo FC)",
                "notificación «¡Gol!» enviada: Iván, minuto 23 (Rayo FC, de penalti)",
                "notificación «¡Gol!» enviada: Toño, minuto 50 (Toros, en propia puerta)",
                "notificación «Gol anulado» enviada: Iván, minuto 23 (Rayo FC, de penalti)",
                "notificación «Gol corregido» enviada: Iván, minuto 23 (Rayo FC, de penalti)",
                "notificación «Tarjeta roja» enviada: Toño, minuto 70 (Toros, doble amarilla)",
                "notificación «Empieza pronto» enviada: Rayo FC - Toros, 16:00",
            ])
    }

    @Test func elBannerEnmarcaTituloYCuerpoYSuenaSoloSiHayCampana() async throws {
        let escrito = Mutex<[String]>([])
        let conCampana = CanalTerminal(conCampana: true) { texto in
            escrito.withLock { $0.append(texto) }
        }
        try await conCampana.notificarGol(aviso())
        let sinCampana = CanalTerminal(conCampana: false) { texto in
            escrito.withLock { $0.append(texto) }
        }
        try await sinCampana.notificarGol(aviso())
        let textos = escrito.withLock { $0 }
        #expect(
            textos[1] == """
                ┌───────────────────────────┐
                │ ¡Gol!                     │
                │ Luis (Rayo FC), minuto 35 │
                └───────────────────────────┘
                """)
        #expect(textos[0] == textos[1] + "\u{07}")
    }

    @Test func laCargaAPNsTieneLasClavesDeApple() throws {
        let bytes = try CanalAPNs.carga(aviso(), bundle: "es.ejemplo.Marcador")
        let carga = try #require(
            try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let aps = try #require(carga["aps"] as? [String: Any])
        #expect(
            (aps["alert"] as? [String: String]) == [
                "title": "¡Gol!", "body": "Luis (Rayo FC), minuto 35",
            ])
        #expect(aps["sound"] as? String == "default")
        #expect(aps["thread-id"] as? String == "partido-1")
        #expect(aps["mutable-content"] == nil)
        #expect(carga["Simulator Target Bundle"] as? String == "es.ejemplo.Marcador")
        #expect(carga["identificador"] as? String == "gol-35-Luis")
    }

    @Test func unCuerpoLarguisimoSeRecortaHasta4096Bytes() throws {
        let corto = aviso()
        let largo = AvisoDeGol(
            identificador: corto.identificador, titulo: corto.titulo,
            cuerpo: String(repeating: "Ñandú ", count: 2_000), partidoId: corto.partidoId,
            minuto: corto.minuto, jugador: corto.jugador, equipo: corto.equipo,
            marcador: corto.marcador)
        let bytes = try CanalAPNs.carga(largo, bundle: nil)
        #expect(bytes.count <= 4096)
        #expect(bytes.count > 3_900)
        let carga = try #require(
            try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let cuerpo = try #require(
            ((carga["aps"] as? [String: Any])?["alert"] as? [String: Any])?["body"] as? String)
        #expect(cuerpo.hasSuffix("…"))
        #expect(carga["identificador"] as? String == "gol-35-Luis")
        // Even a player name that alone passes the limit gives a valid payload.
        let enorme = try CanalAPNs.carga(
            aviso(jugador: String(repeating: "Ñandú ", count: 2_000)), bundle: nil)
        #expect(enorme.count <= 4096)
        #expect(try JSONSerialization.jsonObject(with: Data(enorme)) is [String: Any])
    }

    @Test func elFicheroAPNsSeNombraPorPartidoEIdentificadorYSeReescribe() async throws {
        let carpeta = NSTemporaryDirectory() + "marcador-apns-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: carpeta, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: carpeta) }
        let canal = CanalAPNs(directorio: carpeta)
        try await canal.notificarGol(aviso(jugador: "A. Fathi"))
        try await canal.notificarGol(aviso(jugador: "A. Fathi"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: carpeta) == [
                "partido-1-gol-35-A__Fathi.apns"
            ])
    }

    @Test func unDirectorioQueNoExisteEsUnFalloReintentable() async throws {
        let canal = CanalAPNs(directorio: "/no/existe/marcador")
        let fallo = await #expect(throws: FalloDeEntrega.self) {
            try await canal.notificarGol(aviso())
        }
        #expect(fallo?.reintentable == true)
        #expect(fallo?.motivo.contains("/no/existe/marcador") == true)
    }

    @Test func elIdDeReemplazoEsEstableYDistinguePartidos() {
        let a = CanalEscritorio.idDeReemplazo("partido-1-gol-35-Luis")
        #expect(a == CanalEscritorio.idDeReemplazo("partido-1-gol-35-Luis"))
        #expect(a != CanalEscritorio.idDeReemplazo("partido-2-gol-35-Luis"))
        #expect(a > 0 && a < 0x8000_0000)
    }

    @Test func laClaveDeIdempotenciaEsASCII() {
        let sin = aviso(jugador: "Iván")
        let conEjecucion = AvisoDeGol(
            identificador: sin.identificador, titulo: sin.titulo, cuerpo: sin.cuerpo,
            partidoId: sin.partidoId, minuto: sin.minuto, jugador: sin.jugador,
            equipo: sin.equipo, marcador: sin.marcador, ejecucion: 7)
        #expect(conEjecucion.claveDeIdempotencia == "marcador-1-7-gol-35-Iv%C3%A1n")
    }

    @Test func sinNotifySendElEscritorioNoEstaDisponible() {
        let motivo = CanalEscritorio.indisponibilidad(entorno: ["PATH": "/nonexistent"])
        #expect(motivo == "falta notify-send (paquete libnotify-bin)")
    }

    /// The webhook against a port nobody listens on: a retryable connection failure.
    @Test func unWebhookSinServidorEsUnFalloReintentable() async throws {
        let canal = CanalWebhook(url: "http://127.0.0.1:9/nadie", limite: 2)
        let fallo = await #expect(throws: FalloDeEntrega.self) {
            try await canal.notificarGol(aviso())
        }
        #expect(fallo?.reintentable == true)
    }

    /// A name with markup reaches a notification server that renders it as text: no link,
    /// no image, no style (issue 26). The title is marcador's own.
    @Test func elEscritorioEscapaElMarcadoDeLosNombres() throws {
        let hostil = aviso(jugador: "<a href=\"https://x.example\">Ana</a> & <img src='y'>")
        let argumentos = CanalEscritorio.argumentos(hostil)
        #expect(argumentos.suffix(3).first == "--")
        #expect(argumentos.last?.contains("<") == false)
        #expect(
            argumentos.last
                == "&lt;a href=&quot;https://x.example&quot;&gt;Ana&lt;/a&gt; &amp; "
                + "&lt;img src=&#39;y&#39;&gt; (Rayo FC), minuto 35")
        #expect(CanalEscritorio.argumentos(aviso()).last == "Luis (Rayo FC), minuto 35")
    }

    /// Credentials in an attachment URL (how it was fetched) never travel in what the
    /// receivers get: the webhook document, ntfy's `Attach` header, the APNs `attached`.
    @Test func losAdjuntosViajanSinCredenciales() throws {
        let conClave = aviso(adjunto: "https://yo:clave@cdn.example:8443/g/1.png?t=2")
        let limpio = "https://cdn.example:8443/g/1.png?t=2"
        let documento = try #require(
            try JSONSerialization.jsonObject(with: Data(CanalWebhook.documento(conClave)))
                as? [String: Any])
        #expect(documento["adjunto"] as? String == limpio)
        let ntfy = CanalWebhook(url: "https://ntfy.example/goles", ntfy: true)
        let peticion = try ntfy.peticion(conClave)
        #expect(peticion.cabeceras.first { $0.0 == "Attach" }?.1 == limpio)
        let apns = try #require(
            try JSONSerialization.jsonObject(
                with: Data(CanalAPNs.carga(conClave, bundle: "es.ejemplo.Marcador")))
                as? [String: Any])
        #expect(apns["attached"] as? String == limpio)
        for bytes in [
            try CanalWebhook.documento(conClave), peticion.cuerpo ?? [],
            try CanalAPNs.carga(conClave, bundle: "b"),
        ] {
            #expect(!String(decoding: bytes, as: UTF8.self).contains("clave"))
        }
    }
}

/// Quiet hours (directo.md): the dispatcher marks what it delivers inside them, and each
/// channel then leaves out sound and banner where it can.
@Suite("Horas tranquilas")
struct HorasTranquilasTests {
    func aviso() -> AvisoDeGol {
        let rayo = Equipo("Rayo FC")
        let gol = Gol(minuto: MinutoDeJuego(35), jugador: Jugador("Luis", de: rayo), lado: .local)
        return AvisoDeGol(
            gol: gol, en: Partido(id: 1, local: rayo, visitante: Equipo("Toros"), eventos: []),
            marcador: Marcador(local: 1, visitante: 0))
    }

    @Test func cadaCanalCallaALaManeraQuePuede() throws {
        let callado = aviso().enHorasTranquilas()
        let apns = try #require(
            try JSONSerialization.jsonObject(with: Data(CanalAPNs.carga(callado, bundle: nil)))
                as? [String: Any])
        let aps = try #require(apns["aps"] as? [String: Any])
        #expect(aps["interruption-level"] as? String == "passive")
        #expect(aps["sound"] == nil)
        let normal = try #require(
            try JSONSerialization.jsonObject(with: Data(CanalAPNs.carga(aviso(), bundle: nil)))
                as? [String: Any])
        #expect((normal["aps"] as? [String: Any])?["sound"] as? String == "default")
        #expect((normal["aps"] as? [String: Any])?["interruption-level"] == nil)
        #expect(CanalEscritorio.argumentos(callado).contains("--urgency=low"))
        #expect(!CanalEscritorio.argumentos(aviso()).contains("--urgency=low"))
        let documento = try #require(
            try JSONSerialization.jsonObject(with: Data(CanalWebhook.documento(callado)))
                as? [String: Any])
        #expect(documento["tranquilo"] as? Bool == true)
        #expect(documento["tipo"] as? String == "gol")
        let ntfy = try CanalWebhook(url: "https://ntfy.example/g", ntfy: true).peticion(callado)
        #expect(ntfy.cabeceras.contains { $0 == ("Priority", "2") })
    }

    @Test func elCanalActivoSabeSiEsHoraTranquila() throws {
        setenv("TZ", "UTC", 1)
        tzset()
        let canal = CanalActivo(
            notificador: NotificadorEspia(canal: "x"),
            horasTranquilas: try #require(HorasTranquilas("23:00-08:00")))
        // 2026-12-01 23:30 UTC and 12:00 UTC.
        #expect(canal.tranquilo(en: 1_796_167_800))
        #expect(!canal.tranquilo(en: 1_796_126_400))
        #expect(
            !CanalActivo(notificador: NotificadorEspia(canal: "y")).tranquilo(en: 1_796_167_800))
    }
}
