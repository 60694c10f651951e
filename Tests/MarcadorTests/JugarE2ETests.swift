import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("marcador jugar (binario)")
struct JugarE2ETests {
    /// The status column of match `id` in `marcador partidos`.
    func estado(_ escenario: Escenario, _ id: Int) async throws -> [String: Any] {
        let salida = try await escenario.marcador("partidos", "--json").salida
        let lista = try JSONSerialization.jsonObject(with: Data(salida.utf8)) as? [[String: Any]]
        return lista?.first { ($0["id"] as? Int) == id } ?? [:]
    }

    @Test func elPartidoUnoAcabaTresADosConLaLineaTerminado() async throws {
        let escenario = Escenario()
        let resultado = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        #expect(resultado.codigo == 0)
        #expect(resultado.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (90 minutos).\n"))
        #expect(resultado.salida.contains("Gol: Luis (Rayo FC), minuto 35. Rayo FC 2-1 Toros\n"))
        #expect(!resultado.salida.contains("\u{1B}["))
        let codigo = try #require(
            resultado.error.firstMatch(of: /partido TERMINADO en el minuto 90 \((\w{5})\)/))
        #expect(resultado.salida.contains("(\(codigo.1))."))
        let json = try await estado(escenario, 1)
        #expect(json["estadoTexto"] as? String == "Partido terminado")
        #expect(json["marcador"] as? String == "3-2")
        let registro = try await escenario.marcador("registro", "--partido", "1").salida
        #expect(registro.contains("partido TERMINADO en el minuto 90 (\(codigo.1))"))
    }

    /// Log and run times in the user's zone on the terminal, the stored UTC instant in --json
    /// (issue 42: they were raw UTC).
    @Test func losMomentosSeLeenEnLaZonaDelUsuario() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        let json = try await escenario.marcador("registro", "--ultimas", "1", "--json").salida
        let lista = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let momento = try #require(lista.first?["momento"] as? String)
        #expect(momento.hasSuffix("Z") && momento.contains("T"))
        // The same instant, nine hours later in Tokyo (no summer time there).
        var formato = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        formato.timeZone = TimeZone(identifier: "UTC")!
        let instante = try Date(momento, strategy: formato)
        var tokio = Calendar(identifier: .gregorian)
        tokio.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        let c = tokio.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: instante)
        func dos(_ n: Int?) -> String { String(format: "%02d", n ?? 0) }
        let esperado =
            "\(c.year ?? 0)-\(dos(c.month))-\(dos(c.day)) \(dos(c.hour)):\(dos(c.minute)):\(dos(c.second))"
        let texto = try await escenario.marcador(
            "registro", "--ultimas", "1", entorno: ["TZ": "Asia/Tokyo"]
        ).salida
        #expect(texto.hasPrefix(esperado + "  "), "\(texto) ≠ \(esperado)")
        let ficha = try await escenario.marcador("partido", "1", entorno: ["TZ": "Asia/Tokyo"])
        #expect(!ficha.salida.contains("Z\n"), "\(ficha.salida)")
    }

    @Test func sesentaMinutosTambienAcabanTresADosPorqueElSesentaCuenta() async throws {
        let resultado = try await Escenario().marcador(
            "jugar", "1", "--ms-por-minuto", "0", "--duracion", "60")
        #expect(resultado.codigo == 0)
        #expect(resultado.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (60 minutos).\n"))
        #expect(resultado.error.contains("partido TERMINADO en el minuto 60 ("))
    }

    @Test func duracionesNoValidas() async throws {
        let escenario = Escenario()
        let cuarenta = try await escenario.marcador("jugar", "1", "--duracion", "45")
        #expect(cuarenta.codigo == 64)
        #expect(cuarenta.error.contains("Indica una duración de 60, 90 o 120 minutos"))
        let prorroga = try await escenario.marcador("jugar", "1", "--duracion", "120")
        #expect(prorroga.codigo == 64)
        #expect(prorroga.error.contains("no tuvo prórroga"))
        let texto = try await escenario.marcador("jugar", "1", "--duracion", "noventa")
        #expect(texto.codigo == 64)
        let negativo = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "-5")
        #expect(negativo.codigo == 64)
        #expect(try await estado(escenario, 1)["estado"] as? String == "sin_empezar")
    }

    @Test func unPartidoConProrrogaSeJuegaCientoVeinteMinutos() async throws {
        let resultado = try await Escenario().marcador("jugar", "3", "--ms-por-minuto", "0")
        #expect(resultado.codigo == 0)
        #expect(
            resultado.salida.hasSuffix(
                "Partido terminado: Dragones del Norte 2-1 Halcones (120 minutos).\n"))
    }

    @Test func unIdQueNoExiste() async throws {
        let escenario = Escenario()
        let resultado = try await escenario.marcador("jugar", "99", "--ms-por-minuto", "0")
        #expect(resultado.codigo == 66)
        #expect(
            resultado.error
                == "marcador: No existe el partido 99. Mira los que hay con «marcador partidos».\n")
        let mal = try await escenario.marcador("jugar", "uno")
        #expect(mal.codigo == 64)
        #expect(mal.error.contains("El id del partido es un número entero positivo, no «uno»."))
        #expect(try await escenario.marcador("jugar").codigo == 64)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func unaSenalCancelaElPartidoYLoAnota(senal: Int32, codigo: Int32) async throws {
        let escenario = Escenario()
        // The signal goes once the child reported minute 15: 75 minutes of 100 ms are left, far
        // more than any machine needs to deliver it.
        let proceso = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "100")
        #expect(await proceso.esperarTexto("minuto 15 con", enSalida: true))
        proceso.senal(senal)
        let resultado = await proceso.esperar()
        #expect(resultado.codigo == codigo)
        #expect(resultado.sinTrazaDeFallo)
        let linea = try #require(
            resultado.error.firstMatch(of: /partido CANCELADO en el minuto (\d+) \(\w{5}\)/))
        let minuto = try #require(Int(linea.1))
        #expect(minuto >= 15 && minuto < 90)
        #expect(resultado.salida.contains("Cancelado en el minuto \(minuto): "))
        #expect(
            try await estado(escenario, 1)["estadoTexto"] as? String
                == "Cancelado en el minuto \(minuto)")
        #expect(
            try await escenario.marcador("registro").salida.contains(
                "partido CANCELADO en el minuto \(minuto)"))
    }

    /// `.task(id:)` across processes: the second `jugar` cancels the first and starts from zero.
    @Test func unSegundoJugarReemplazaAlPrimero() async throws {
        let escenario = Escenario()
        // Replaced at once: the 100 ms minutes only leave the second start time to come.
        let primero = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "100")
        #expect(await primero.esperarTexto("minuto 15 con", enSalida: true))
        let segundo = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "0")
        let uno = await primero.esperar()
        let dos = await segundo.esperar()
        #expect(uno.codigo == 0)
        #expect(uno.error.contains("partido CANCELADO en el minuto"))
        #expect(uno.salida.contains("otro «marcador jugar 1» lo juega ahora."))
        #expect(dos.codigo == 0)
        #expect(dos.salida.contains("desde el minuto 0"))
        #expect(dos.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (90 minutos).\n"))
        #expect(try await estado(escenario, 1)["estadoTexto"] as? String == "Partido terminado")
    }

    /// Changing the duration relaunches the running match from zero, as `.task(id: duracion)`.
    @Test func cambiarLaDuracionRelanzaElPartido() async throws {
        let escenario = Escenario()
        // 75 minutes of 100 ms (7.5 s) left after minute 15 for the change to come.
        let jugando = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "100")
        #expect(await jugando.esperarTexto("minuto 15 con", enSalida: true))
        let ajuste = try await escenario.marcador("ajustes", "duracion", "60")
        #expect(ajuste.codigo == 0)
        #expect(
            ajuste.salida
                == "Duración: 60 minutos.\nUn partido en juego vuelve a empezar con la nueva duración.\n"
        )
        let resultado = await jugando.esperar()
        #expect(resultado.codigo == 0)
        #expect(resultado.error.contains("partido CANCELADO en el minuto"))
        #expect(resultado.error.contains("partido TERMINADO en el minuto 60"))
        #expect(
            resultado.salida.contains(
                "La duración cambió a 60 minutos: el partido vuelve a empezar."))
        #expect(resultado.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (60 minutos).\n"))
        // The goals of minute 10 happen again in the new run.
        #expect(
            resultado.salida.components(separatedBy: "Gol: Ana (Rayo FC), minuto 10.").count == 3)
    }

    /// After a relaunch the new run's goals notify again, from the same process.
    @Test func trasRelanzarLosGolesVuelvenAAvisar() async throws {
        let escenario = Escenario()
        _ = try await escenario.marcador("avisos", "activar")
        // 150 ms a minute: 45 minutes, 6.75 s, between minute 15 and Marta's goal for the change
        // to arrive (at 60 ms a loaded machine once let the first run reach minute 60 first).
        let jugando = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "150")
        #expect(await jugando.esperarTexto("minuto 15 con", enSalida: true))
        _ = try await escenario.marcador("ajustes", "duracion", "60")
        let resultado = await jugando.esperar()
        #expect(resultado.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (60 minutos).\n"))
        // Ana's goal was notified in both runs; Marta's (60') only in the second.
        #expect(
            resultado.error.components(separatedBy: "notificación «¡Gol!» enviada: Ana, minuto 10")
                .count == 3)
        #expect(
            resultado.error.components(
                separatedBy: "notificación «¡Gol!» enviada: Marta, minuto 60"
            ).count == 2)
    }

    @Test func trasUnSIGKILLSeVeInterrumpidoYSeReanudaSinRepetirGoles() async throws {
        let escenario = Escenario()
        // Killed once the child reported minute 15, with 75 minutes of 100 ms still to go.
        let proceso = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "100")
        #expect(await proceso.esperarTexto("minuto 15 con", enSalida: true))
        proceso.senal(SIGKILL)
        #expect(await proceso.esperar().senal == SIGKILL)
        let json = try await estado(escenario, 1)
        let minuto = try #require(json["minuto"] as? Int)
        try #require(minuto >= 15 && minuto < 90, "the kill lands after minute 15: \(minuto)")
        #expect(json["estadoTexto"] as? String == "Interrumpido en el minuto \(minuto)")
        // The stored score is what the script says up to the stored minute, never more.
        let esperado = minuto < 35 ? "1-1" : minuto < 60 ? "2-2" : "3-2"
        #expect(json["marcador"] as? String == esperado)
        let reanudado = try await escenario.marcador(
            "jugar", "1", "--reanudar", "--ms-por-minuto", "0")
        #expect(reanudado.codigo == 0)
        #expect(reanudado.salida.contains("desde el minuto \(minuto)"))
        #expect(!reanudado.salida.contains("minuto 10."))
        #expect(reanudado.salida.contains("Gol: Luis (Rayo FC), minuto 35.") == (minuto < 35))
        #expect(reanudado.salida.contains("Gol: Marta (Rayo FC), minuto 60.") == (minuto < 60))
        #expect(reanudado.salida.hasSuffix("Partido terminado: Rayo FC 3-2 Toros (90 minutos).\n"))
        #expect(reanudado.error.contains("partido REANUDADO en el minuto \(minuto)"))
        #expect(try await estado(escenario, 1)["marcador"] as? String == "3-2")
        let otraVez = try await escenario.marcador("jugar", "1", "--reanudar")
        #expect(otraVez.codigo == 64)
        #expect(otraVez.error.contains("ya terminó"))
    }

    /// glibc reserves 64 MiB of address space, aligned to 64 MiB, for every arena past the
    /// main one; a playing match has the store's lanes, the dispatchers and the concurrency pool
    /// allocating, and without `Memoria.unaSolaArena` each of them got one (8 seen).
    @Test func unPartidoEnJuegoTieneUnaSolaArenaDeMemoria() async throws {
        let escenario = Escenario()
        let proceso = try escenario.lanzar("jugar", "1", "--ms-por-minuto", "100")
        #expect(await proceso.esperarTexto("minuto 15 con", enSalida: true))
        let mapa = try String(contentsOfFile: "/proc/\(proceso.pid)/maps", encoding: .utf8)
        proceso.senal(SIGINT)
        #expect(await proceso.esperar().codigo == 130)
        // Anonymous mappings: start, end. A secondary arena is a run of them (the part in use,
        // then the part reserved) that starts on a 64 MiB boundary and spans exactly 64 MiB.
        let anonimas: [(UInt, UInt)] = mapa.split(separator: "\n").compactMap { linea in
            let campos = linea.split(separator: " ", omittingEmptySubsequences: true)
            guard campos.count == 5 else { return nil }
            let limites = campos[0].split(separator: "-").compactMap { UInt($0, radix: 16) }
            return limites.count == 2 ? (limites[0], limites[1]) : nil
        }
        let arena: UInt = 64 << 20
        var arenas = 0
        for (i, (inicio, fin)) in anonimas.enumerated() where inicio % arena == 0 {
            var final = fin
            for (siguiente, hasta) in anonimas[(i + 1)...]
            where siguiente == final && final - inicio < arena {
                final = hasta
            }
            if final - inicio == arena { arenas += 1 }
        }
        #expect(arenas == 0)
    }

    /// The seeds' red card (partido 2, 78'): said on the terminal as it happens, notified once
    /// to the channel that asks for cards and to no other, and listed on the card.
    @Test func laRojaDelGuionAvisaSoloAQuienLaPide() async throws {
        let escenario = Escenario()
        #expect(try await escenario.marcador("avisos", "activar").codigo == 0)
        let canal = try await escenario.marcador(
            "avisos", "canales", "añadir", "registro", "--nombre", "rojas", "--avisar", "rojas")
        #expect(canal.codigo == 0, "\(canal.error)")
        let jugado = try await escenario.marcador("jugar", "2", "--ms-por-minuto", "0")
        #expect(jugado.codigo == 0, "\(jugado.error)")
        #expect(
            jugado.salida.contains(
                "Tarjeta roja: Björn (Cigüeñas FC, doble amarilla), minuto 78.\n"))
        #expect(
            jugado.salida.hasSuffix("Partido terminado: Águilas CF 3-2 Cigüeñas FC (90 minutos).\n")
        )
        let registro = try await escenario.marcador("registro", "--partido", "2").salida
        let roja =
            "notificación «Tarjeta roja» enviada: Björn, minuto 78 (Cigüeñas FC, doble amarilla)"
        #expect(registro.components(separatedBy: roja).count == 2, "\(registro)")
        // The goals went to the default channel only: five lines, not ten.
        #expect(registro.components(separatedBy: "notificación «¡Gol!» enviada:").count == 6)
        let ficha = try await escenario.marcador("partido", "2")
        #expect(
            ficha.salida.contains(
                "Tarjetas rojas:\nMINUTO  JUGADOR                 EQUIPO\n   78'  Björn (doble amarilla)  Cigüeñas FC\n"
            ), "\(ficha.salida)")
        let json = try await escenario.marcador("partido", "2", "--json")
        let documento =
            try JSONSerialization.jsonObject(with: Data(json.salida.utf8)) as? [String: Any]
        let cronologia = documento?["cronologia"] as? [[String: Any]] ?? []
        #expect(
            cronologia.map { $0["clase"] as? String ?? "" } == [
                "gol", "gol", "gol", "gol", "roja", "gol",
            ])
        #expect(
            cronologia[4]["texto"] as? String == "Tarjeta roja: Björn (Cigüeñas FC, doble amarilla)"
        )
    }

    @Test func reanudarUnPartidoSinEmpezar() async throws {
        let resultado = try await Escenario().marcador("jugar", "2", "--reanudar")
        #expect(resultado.codigo == 64)
        #expect(resultado.error.contains("no ha empezado"))
    }

    @Test func unGolAManoDeOtroProcesoApareceEnElPartido() async throws {
        let escenario = Escenario()
        // 200 ms a minute: 9 s after minute 15 for the other process's goal (at 100 ms a
        // loaded machine once ran that command after the final whistle).
        let jugando = try escenario.lanzar(
            "jugar", "1", "--ms-por-minuto", "200", "--duracion", "60")
        #expect(await jugando.esperarTexto("minuto 15 con", enSalida: true))
        let gol = try await escenario.marcador("gol-a-mano", "1", "visitante")
        #expect(gol.codigo == 0)
        #expect(gol.salida.hasPrefix("Gol a mano de Toros: Rayo FC "))
        let resultado = await jugando.esperar()
        #expect(resultado.salida.hasSuffix("Partido terminado: Rayo FC 3-3 Toros (60 minutos).\n"))
        #expect(try await estado(escenario, 1)["golesAMano"] as? String == "0-1")
    }
}

@Suite("marcador gol-a-mano y ajustes (binario)")
struct GolAManoYAjustesE2ETests {
    @Test func golesAManoSinJugar() async throws {
        let escenario = Escenario()
        #expect(
            try await escenario.marcador("gol-a-mano", "1", "local").salida
                == "Gol a mano de Rayo FC: Rayo FC 1-0 Toros.\n")
        #expect(try await escenario.marcador("gol-a-mano", "1", "visitante").codigo == 0)
        #expect(
            try await escenario.marcador("gol-a-mano", "1", "visitante").salida
                == "Gol a mano de Toros: Rayo FC 1-2 Toros.\n")
        let tabla = try await escenario.marcador("partidos").salida
        #expect(
            tabla.contains(
                " 1  Rayo FC             Toros        Sin empezar       0  1-2             90"))
        // A new run starts its manual goals at zero again.
        let jugado = try await escenario.marcador("jugar", "1", "--ms-por-minuto", "0")
        #expect(jugado.salida.hasSuffix("Rayo FC 3-2 Toros (90 minutos).\n"))
    }

    @Test func golAManoConArgumentosMalos() async throws {
        let escenario = Escenario()
        let lado = try await escenario.marcador("gol-a-mano", "1", "arriba")
        #expect(lado.codigo == 64)
        #expect(lado.error.contains("Indica «local» o «visitante», no «arriba»."))
        let id = try await escenario.marcador("gol-a-mano", "7", "local")
        #expect(id.codigo == 66)
        let falta = try await escenario.marcador("gol-a-mano", "1")
        #expect(falta.codigo == 64)
        #expect(falta.error.contains("Falta LADO"))
        #expect(
            try await escenario.marcador("partidos").salida.contains("Sin empezar       0  0-0"))
    }

    @Test func ajustesSeMuestranYCambian() async throws {
        let escenario = Escenario()
        #expect(
            try await escenario.marcador("ajustes").salida == """
                AJUSTE           VALOR
                duracion         90 minutos
                ms-por-minuto    250
                silencio         no
                avisos           desactivados
                plazo-adjuntos   30 s
                registro-dias    30
                registro-lineas  100000

                """)
        #expect(
            try await escenario.marcador("ajustes", "duracion", "60").salida
                == "Duración: 60 minutos.\n")
        #expect(try await escenario.marcador("ajustes", "ms-por-minuto", "0").codigo == 0)
        #expect(try await escenario.marcador("ajustes", "silencio", "si").codigo == 0)
        let json = try await escenario.marcador("ajustes", "--json").salida
        let objeto = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(objeto?["duracion"] as? Int == 60)
        #expect(objeto?["msPorMinuto"] as? Int == 0)
        #expect(objeto?["sinAvisosEnPrimerPlano"] as? Bool == true)
        // The stored settings drive jugar: 60 minutes at 0 ms.
        let jugado = try await escenario.marcador("jugar", "1")
        #expect(jugado.salida.hasSuffix("(60 minutos).\n"))
    }

    @Test func ajustesNoValidos() async throws {
        let escenario = Escenario()
        for (argumentos, texto) in [
            (["ajustes", "duracion", "45"], "Indica una duración de 60 o 90 minutos, no «45»."),
            (["ajustes", "duracion", "120"], "Indica una duración de 60 o 90 minutos, no «120»."),
            (["ajustes", "ms-por-minuto", "-1"], "ms-por-minuto va de 0 a 600000"),
            (["ajustes", "silencio", "quizá"], "Indica «si» o «no»"),
            (["ajustes", "color", "rojo"], "Subcomando desconocido «color»"),
            (["ajustes", "duracion"], "Falta MINUTOS"),
            (
                ["ajustes", "plazo-adjuntos", "0"],
                "plazo-adjuntos va de 0.1 a 300 segundos, no «0»."
            ),
        ] {
            let resultado = try await escenario.marcadorSinDB(["--db", escenario.db] + argumentos)
            #expect(resultado.codigo == 64)
            #expect(resultado.error.contains(texto))
        }
        #expect(try await escenario.marcador("ajustes").salida.contains("90 minutos"))
    }
}
