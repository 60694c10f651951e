import Testing

@testable import Torneo

/// Days, kick-off times and instants (import.md): only real days, openfootball's time forms,
/// and instants that match the calendar.
@Suite("Fechas y horas de saque")
struct FechasTests {
    @Test(arguments: [
        ("1970-01-01", 0), ("2000-03-01", 11_017), ("2018-06-14", 17_696), ("1969-12-31", -1),
        ("2024-02-29", 19_782), ("1900-03-01", -25_508),
    ])
    func losDiasSeCuentanDesde1970(texto: String, dias: Int) throws {
        let fecha = try #require(FechaDeCalendario(texto))
        #expect(fecha.diasDesde1970 == dias)
        #expect(FechaDeCalendario(diasDesde1970: dias) == fecha)
        #expect(fecha.description == texto)
    }

    @Test func cuatrocientosAnosDeDiasVanYVuelven() {
        var anterior: FechaDeCalendario?
        for dias in stride(from: -40_000, through: 100_000, by: 1) {
            let fecha = FechaDeCalendario(diasDesde1970: dias)
            #expect(fecha.diasDesde1970 == dias)
            if let anterior { #expect(anterior < fecha) }
            anterior = fecha
        }
    }

    @Test(arguments: [
        "2024-02-30", "2023-02-29", "1900-02-29", "2018-13-01", "2018-00-10", "2018-06-31",
        "2018-6-14", "18-06-14", "2018-06-14T10:00", "２０１８-06-14", "", "2018-06-1a",
        "1700-01-01",
    ])
    func unDiaQueNoExisteNoEsUnaFecha(texto: String) {
        #expect(FechaDeCalendario(texto) == nil)
    }

    @Test func losBisiestosSonLosDelCalendario() {
        #expect(FechaDeCalendario("2000-02-29") != nil)
        #expect(FechaDeCalendario("2024-02-29") != nil)
        #expect(FechaDeCalendario("2100-02-29") == nil)
    }

    @Test(arguments: [
        ("18:00 UTC+3", 18, 0, 180 as Int?), ("13:00 UTC-6", 13, 0, -360), ("9:30", 9, 30, nil),
        ("19:30 UTC+5:30", 19, 30, 330), ("20:45 UTC", 20, 45, 0), ("00:05 UTC-4:30", 0, 5, -270),
    ])
    func lasHorasDeOpenfootball(texto: String, hora: Int, minuto: Int, desplazamiento: Int?)
        throws
    {
        let leida = try #require(HoraDeSaque(texto))
        #expect(leida.hora == hora && leida.minuto == minuto)
        #expect(leida.desplazamiento == desplazamiento)
    }

    @Test(arguments: [
        "25:00", "18:60", "18", "18:00 GMT+1", "18:00 UTC+15", "18:00 UTC+3:75", "18:00 UTC3",
        "18:00 UTC+3 extra", "18.00", "",
    ])
    func unaHoraMalEscritaNoEsUnaHora(texto: String) {
        #expect(HoraDeSaque(texto) == nil)
    }

    /// 2018-06-14 18:00 at UTC+3 is 15:00 UTC: 1,528,988,400 seconds after 1970.
    @Test func elInstanteDeUnSaqueConDesfase() throws {
        let saque = try #require(Saque(fecha: "2018-06-14", hora: "18:00 UTC+3"))
        #expect(saque.instanteConocido)
        #expect(saque.segundos == 1_528_988_400)
        let sinDesfase = try #require(Saque(fecha: "2021-06-11", hora: "21:00"))
        #expect(!sinDesfase.instanteConocido)
        #expect(sinDesfase.segundos == 1_623_445_200)
        #expect(Saque(fecha: "2024-02-30", hora: "18:00") == nil)
        #expect(Saque(fecha: nil, hora: "18:00") == nil)
        // Later at the venue but earlier in UTC: the instant decides the order.
        let mexico = try #require(Saque(fecha: "2018-06-14", hora: "23:00 UTC-6"))
        let moscu = try #require(Saque(fecha: "2018-06-15", hora: "01:00 UTC+3"))
        #expect(moscu < mexico)
    }
}

@Suite("Clases de aviso y horas tranquilas")
struct ClasesYHorasTests {
    @Test func lasClasesSeLeenYSeEscriben() {
        #expect(ClaseDeAviso.leer("goles, anulados,final") == [.goles, .anulados, .final])
        #expect(ClaseDeAviso.leer("rojas,goles") == [.goles, .rojas])
        #expect(ClaseDeAviso.leer("recordatorio") == [.recordatorio])
        #expect(Antelacion("15m")?.segundos == 900 && Antelacion("15")?.segundos == 900)
        #expect(Antelacion("2h")?.segundos == 7_200 && Antelacion("90S")?.segundos == 90)
        #expect(Antelacion("15m")?.description == "15 min")
        #expect(Antelacion("90s")?.description == "90 s")
        #expect(Antelacion("2h")?.description == "2 h")
        for malo in ["", "m", "30s", "25h", "-5m", "nan", "inf", "١٥m", "1e9"] {
            #expect(Antelacion(malo) == nil, "\(malo)")
        }
        #expect(ClaseDeAviso.texto([.final, .rojas, .goles]) == "goles,rojas,final")
        #expect(ClaseDeAviso.leer("goles,penaltis") == nil)
        #expect(ClaseDeAviso.leer("") == nil)
        #expect(ClaseDeAviso.texto([.final, .goles]) == "goles,final")
        #expect(TipoDeAviso.anulado.clase == .anulados)
        #expect(TipoDeAviso.prueba.clase == nil)
    }

    @Test func lasHorasTranquilasCruzanLaMedianoche() throws {
        let noche = try #require(HorasTranquilas("23:00-08:00"))
        #expect(noche.contienen(23 * 60))
        #expect(noche.contienen(3 * 60))
        #expect(!noche.contienen(8 * 60))
        #expect(!noche.contienen(12 * 60))
        let siesta = try #require(HorasTranquilas("15:00-17:30"))
        #expect(siesta.contienen(16 * 60) && !siesta.contienen(17 * 60 + 30))
        #expect(siesta.description == "15:00-17:30")
        for malo in ["23:00", "25:00-08:00", "23:00-23:00", "23:00 UTC+1-08:00", "a-b"] {
            #expect(HorasTranquilas(malo) == nil, "\(malo)")
        }
    }
}
