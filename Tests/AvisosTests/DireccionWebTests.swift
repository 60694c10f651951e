import Testing

@testable import Avisos

/// URLs a user gives for webhooks and that data gives for attachments (safety.md).
@Suite("DireccionWeb")
struct DireccionWebTests {
    @Test(arguments: [
        ("https://hooks.example.com/T0/B1/secreto", "https://hooks.example.com/***"),
        ("http://yo:clave@127.0.0.1:8080/gol?token=x", "http://***@127.0.0.1:8080/***"),
        ("https://ntfy.sh", "https://ntfy.sh"),
        ("HTTP://EJEMPLO.es:443/x", "http://ejemplo.es:443/***"),
        ("http://[::1]:9/x", "http://[::1]:9/***"),
        ("https://h.es/ruta;token=secreto", "https://h.es/***"),
        ("https://h.es;token=secreto/x", "https://***"),
        ("http://SECRETO@/x", "http://***"),
        ("basura", "***"),
        ("javascript:alert(1)", "***"),
    ])
    func nuncaEnsenaSecretos(url: String, visible: String) {
        #expect(DireccionWeb.visible(url) == visible)
        #expect(CanalWebhook.urlVisible(url) == visible)
    }

    @Test(arguments: [
        ("http://[::1", DireccionWeb.Fallo.anfitrion),
        ("http://h.es:99999/x", .puerto),
        ("http://h.es:0/", .puerto),
        ("http://h.es:-1/", .puerto),
        ("http://h.es:80a/", .puerto),
        ("ftp://h.es/", .esquema),
        ("h.es/gol", .esquema),
        ("http:///gol", .anfitrion),
        ("http://SECRETO@/x", .anfitrion),
        ("http://h .es/", .caracteres),
        ("http://h.es/\u{1B}[2J", .caracteres),
        ("http://h.es/a\r\nX-Inyectada: 1", .caracteres),
    ])
    func rechazaLasQueNoSirven(url: String, fallo: DireccionWeb.Fallo) {
        #expect(throws: fallo) { try DireccionWeb(url) }
    }

    @Test func leeLasPartes() throws {
        let direccion = try DireccionWeb("https://yo:clave@Hooks.Example.com:8443/a/b?c=d#e")
        #expect(direccion.esquema == "https")
        #expect(direccion.credenciales == "yo:clave")
        #expect(direccion.anfitrion == "hooks.example.com")
        #expect(direccion.puertoEfectivo == 8443)
        #expect(direccion.resto == "/a/b?c=d#e")
        #expect(direccion.sinCredenciales == "https://hooks.example.com:8443/a/b?c=d#e")
        #expect(try DireccionWeb("http://h.es").puertoEfectivo == 80)
    }
}
