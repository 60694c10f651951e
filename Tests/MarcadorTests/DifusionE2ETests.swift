import ApoyoDePruebas
import Foundation
import Testing

/// One goal to many devices (contract.md §20), end to end: the built binary against the C
/// HTTP/2 + TLS sink of the bench (bench/sumidero/sumidero.c, libnghttp2 + OpenSSL), which
/// answers like APNs (200, and 410 Unregistered for tokens that start with «dead») and writes
/// every request's path.
@Suite("Difusión a muchos dispositivos (binario)", .serialized)
struct DifusionE2ETests {
    static let raiz = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Why the sink cannot be built here, or `nil`.
    static let falta: String? = {
        for ruta in ["/usr/bin/cc", "/usr/bin/openssl"]
        where !FileManager.default.isExecutableFile(atPath: ruta) {
            return "falta \(ruta)"
        }
        guard FileManager.default.fileExists(atPath: "/usr/include/nghttp2/nghttp2.h") else {
            return "faltan las cabeceras de nghttp2 (Debian: libnghttp2-dev)"
        }
        return nil
    }()

    // 20,000 devices keep both cores busy for a minute: `make test` runs this suite alone,
    // after the other process suites (scripts/pruebas.sh).
    static let vivos = 19_000
    static let muertos = 1_000

    static func token(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }
    static func tokenMuerto(_ i: Int) -> String {
        let hex = String(i, radix: 16)
        return "dead" + String(repeating: "0", count: 60 - hex.count) + hex
    }

    /// A scenario with APNs pointed at a fresh sink, `n` live devices and `m` dead ones
    /// following «Rayo Banco», and one match with one goal of theirs, played (its shards
    /// written). Returns the sink's folder.
    static func preparar(_ almacen: String, vivos n: Int, muertos m: Int, atascar: Int = 0)
        async throws -> (Escenario, String, Proceso)
    {
        let escenario = try await RelevoE2ETests.escenario(almacen)
        let carpeta = escenario.carpeta
        func ejecutar(_ programa: String, _ argumentos: [String]) async throws {
            let proceso = try Proceso(argumentos, carpeta: carpeta, ejecutable: programa)
            let fin = await proceso.esperar()
            #expect(fin.codigo == 0, "\(programa): \(fin.error)")
        }
        try await ejecutar(
            "/usr/bin/cc",
            [
                "-O2", "-o", carpeta + "/sumidero", raiz + "/bench/sumidero/sumidero.c",
                "-lnghttp2", "-lssl", "-lcrypto",
            ])
        try await ejecutar(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", carpeta + "/clave.pem", "-out", carpeta + "/cert.pem", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        try await ejecutar(
            "/usr/bin/openssl",
            [
                "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out",
                carpeta + "/AuthKey.p8",
            ])
        let sumidero = try Proceso(
            [
                "--cert", carpeta + "/cert.pem", "--clave", carpeta + "/clave.pem",
                "--puerto-en", carpeta + "/puerto", "--estado", carpeta + "/estado",
                "--registro", carpeta + "/rutas", "--atascar", String(atascar),
            ], carpeta: carpeta, ejecutable: carpeta + "/sumidero")
        #expect(
            await esperarQue {
                Int((try? String(contentsOfFile: carpeta + "/puerto", encoding: .utf8)) ?? "")
                    != nil
            })
        let puerto = try #require(
            Int((try? String(contentsOfFile: carpeta + "/puerto", encoding: .utf8)) ?? ""))
        let apns = try await escenario.marcador(
            "empuje", "apns", "--clave", carpeta + "/AuthKey.p8", "--id-clave", "ABC123DEFG",
            "--equipo", "DEF123GHIJ", "--tema", "es.ejemplo.marcador", "--url",
            "https://127.0.0.1:\(puerto)", "--ca", carpeta + "/cert.pem")
        #expect(apns.codigo == 0, "\(apns.error)")
        #expect(try await escenario.marcador("avisos", "activar").codigo == 0)
        try #"""
        {"name": "Final", "matches": [{"round": "Final", "date": "2026-07-19",
         "team1": "Rayo Banco", "team2": "Toros Banco", "score": {"ft": [1, 0]},
         "goals1": [{"name": "Ana", "minute": 10}], "goals2": []}]}
        """#.write(toFile: carpeta + "/final.json", atomically: true, encoding: .utf8)
        #expect(try await escenario.marcador("importar", carpeta + "/final.json").codigo == 0)
        var lineas = (0..<n).map { #"{"apns":"\#(token($0))","equipos":["Rayo Banco"]}"# }
        lineas += (0..<m).map { #"{"apns":"\#(tokenMuerto($0))","equipos":["Rayo Banco"]}"# }
        // And some who follow another team: the shard skips them.
        lineas += (0..<50).map {
            #"{"apns":"\#(tokenMuerto(100_000 + $0))","equipos":["Toros Banco"]}"#
        }
        try lineas.joined(separator: "\n").write(
            toFile: carpeta + "/dispositivos.jsonl", atomically: true, encoding: .utf8)
        let importado = try await escenario.marcador(
            "dispositivos", "importar", carpeta + "/dispositivos.jsonl")
        #expect(importado.codigo == 0, "\(importado.error)")
        let partidos = try await escenario.marcador("partidos", "--json")
        let lista =
            try JSONSerialization.jsonObject(with: Data(partidos.salida.utf8)) as? [[String: Any]]
        let id = try #require(
            lista?.first { $0["local"] as? String == "Rayo Banco" }?["id"] as? Int)
        let jugado = try await escenario.marcador("jugar", String(id), "--ms-por-minuto", "0")
        #expect(jugado.codigo == 0, "\(jugado.error)")
        return (escenario, carpeta, sumidero)
    }

    /// Paths the sink got, by how many times.
    static func rutas(_ carpeta: String) -> [Substring: Int] {
        let texto = (try? String(contentsOfFile: carpeta + "/rutas", encoding: .utf8)) ?? ""
        var cuenta: [Substring: Int] = [:]
        for linea in texto.split(separator: "\n") { cuenta[linea, default: 0] += 1 }
        return cuenta
    }

    static func vivosEntregados(_ rutas: [Substring: Int], _ n: Int) -> Int {
        (0..<n).filter { rutas[Substring("/3/device/" + token($0))] != nil }.count
    }

    static func dispositivos(_ escenario: Escenario) async throws -> Int {
        let r = try await escenario.marcador("dispositivos", "--json")
        return (try JSONSerialization.jsonObject(with: Data(r.salida.utf8)) as? [Any])?.count ?? -1
    }

    /// 20,000 devices: each live token exactly once, the 1,000 dead ones asked once and
    /// removed, those following another team never asked.
    @Test(
        .enabled(if: falta == nil, Comment(rawValue: falta ?? "")), .timeLimit(.minutes(4)),
        arguments: ["SQLite", "PostgreSQL"])
    func veinteMilCadaUnoUnaVezYLosMuertosSeVan(almacen: String) async throws {
        let (escenario, carpeta, sumidero) = try await Self.preparar(
            almacen, vivos: Self.vivos, muertos: Self.muertos)
        defer { sumidero.senal(SIGKILL) }
        let total = Self.vivos + Self.muertos
        let llegaron = await esperarQue(limite: .seconds(150)) {
            _ = try? await escenario.marcador("avisos", "enviar")
            return Self.rutas(carpeta).count >= total
        }
        let rutas = Self.rutas(carpeta)
        #expect(llegaron, "\(rutas.count) de \(total)")
        #expect(Self.vivosEntregados(rutas, Self.vivos) == Self.vivos)
        #expect(rutas.count == total, "nadie de otro equipo: \(rutas.count)")
        #expect(rutas.values.allSatisfy { $0 == 1 }, "\(rutas.filter { $0.value > 1 }.prefix(5))")
        #expect(try await Self.dispositivos(escenario) == Self.vivos + 50)
    }

    /// Two dispatchers share the fan-out; one is killed with SIGKILL in the middle: the other
    /// resumes its shard from the cursor. No device is missed; what is sent twice is bounded by
    /// the pages the dead one was sending.
    @Test(
        .enabled(if: falta == nil, Comment(rawValue: falta ?? "")), .timeLimit(.minutes(4)),
        arguments: ["SQLite", "PostgreSQL"])
    func unKillDeUnoDeDosDespachadoresNoPierdeNinguno(almacen: String) async throws {
        let (escenario, carpeta, sumidero) = try await Self.preparar(
            almacen, vivos: Self.vivos, muertos: Self.muertos)
        defer { sumidero.senal(SIGKILL) }
        let victima = try escenario.lanzar("avisos", "vigilar")
        let otro = try escenario.lanzar("avisos", "vigilar")
        defer { otro.senal(SIGKILL) }
        #expect(await esperarQue { Self.rutas(carpeta).count >= 3_000 })
        victima.senal(SIGKILL)
        _ = await victima.esperar()
        let total = Self.vivos + Self.muertos
        let llegaron = await esperarQue(limite: .seconds(150)) {
            Self.rutas(carpeta).count >= total
        }
        otro.senal(SIGTERM)
        _ = await otro.esperar()
        let rutas = Self.rutas(carpeta)
        #expect(llegaron, "\(rutas.count) de \(total)")
        #expect(Self.vivosEntregados(rutas, Self.vivos) == Self.vivos)
        // Two shards at a time, each sending one page of 2,000 devices between commits
        // (Difusor.Configuracion): at most those pages go again.
        let repetidas = rutas.values.reduce(0) { $0 + $1 - 1 }
        #expect(repetidas <= 2 * 2_000, "\(repetidas) repetidas")
        #expect(try await Self.dispositivos(escenario) == Self.vivos + 50)
    }

    /// The sink never answers on its first connection: that connection is replaced once it
    /// has been silent for a while, and its requests go again on the others; no device is
    /// missed, none is delivered twice (the stalled connection never answered any).
    @Test(.enabled(if: falta == nil, Comment(rawValue: falta ?? "")), .timeLimit(.minutes(3)))
    func unaConexionAtascadaNoRetieneALasDemas() async throws {
        let n = 4_000
        let (escenario, carpeta, sumidero) = try await Self.preparar(
            "SQLite", vivos: n, muertos: 0, atascar: 1)
        defer { sumidero.senal(SIGKILL) }
        let vigilar = try escenario.lanzar("avisos", "vigilar")
        defer { vigilar.senal(SIGKILL) }
        let llegaron = await esperarQue(limite: .seconds(120)) {
            Self.vivosEntregados(Self.rutas(carpeta), n) == n
        }
        let rutas = Self.rutas(carpeta)
        #expect(llegaron, "\(rutas.count) de \(n)")
        #expect(rutas.values.allSatisfy { $0 == 1 }, "\(rutas.filter { $0.value > 1 }.prefix(5))")
        // Nothing failed: the stalled requests were not given up, they went elsewhere.
        let registro = try await escenario.marcador("registro")
        #expect(!registro.salida.contains("no se pudo publicar la notificación"))
    }
}
