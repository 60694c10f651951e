import Foundation

/// Fan views (fans.md) on a competition of 10,000 imported matches, beside `sqlite3`
/// running one query that computes the same tables and the same scorers' list.
@MainActor
func medirAficionado() async throws {
    informar("aficionado: importar 10.000 partidos…")
    let (ruta, _) = try nuevaBase("aficionado")
    let fichero = carpeta + "/banco-10000.json"
    try competicionGrande(grupos: 1_000).write(to: URL(fileURLWithPath: fichero))
    let importado = lanzar(binario, ["--db", ruta, "importar", fichero])
    guard importado.codigo == 0 else {
        informar("aficionado: la importación falló (\(importado.codigo))")
        return
    }
    let repeticiones = rapido ? 5 : 15
    for (nombre, argumentos, consulta) in [
        ("clasificacion", ["clasificacion", "--competicion", "Banco"], consultaDeClasificacion),
        ("goleadores", ["goleadores", "--competicion", "Banco"], consultaDeGoleadores),
    ] {
        var nuestro: [Double] = []
        var base: [Double] = []
        for _ in 0..<repeticiones {
            nuestro.append(lanzar(binario, ["--db", ruta] + argumentos).segundos * 1000)
            base.append(lanzar("sqlite3", [ruta, consulta]).segundos * 1000)
        }
        medidas.append(
            Medida(
                nombre: "aficionado: marcador \(nombre) (10.000 partidos)", unidad: "ms",
                valores: nuestro, base: "sqlite3 con la consulta equivalente", valoresBase: base))
    }
}

/// An openfootball file: `grupos` groups of five teams, each playing the other four once
/// (ten matches a group), every match with its score and its scorers.
func competicionGrande(grupos: Int) throws -> Data {
    var partidos: [[String: Any]] = []
    for grupo in 0..<grupos {
        let equipos = (0..<5).map { "Equipo \(grupo)-\($0)" }
        for a in 0..<5 {
            for b in (a + 1)..<5 {
                let golesA = (grupo + a * 3 + b) % 4
                let golesB = (grupo * 7 + b + a * 2) % 3
                func goles(_ n: Int, _ equipo: Int) -> [[String: Any]] {
                    (0..<n).map { k in
                        [
                            "name": "Jugador \(grupo)-\(equipo)-\(k % 3)",
                            "minute": 10 + k * 17 + equipo,
                        ]
                    }
                }
                partidos.append([
                    "round": "Matchday \(a + 1)", "date": "2030-06-\(10 + a + b)",
                    "group": "Group \(grupo)", "team1": equipos[a], "team2": equipos[b],
                    "score": ["ft": [golesA, golesB]], "goals1": goles(golesA, a),
                    "goals2": goles(golesB, b),
                ])
            }
        }
    }
    return try JSONSerialization.data(withJSONObject: ["name": "Banco", "matches": partidos])
}

/// The group tables: points, wins, draws, losses and goals per team and group, from the
/// official score (after extra time when there was one), in the command's order.
let consultaDeClasificacion = """
    WITH r AS (
        SELECT grupo, local_id AS equipo, coalesce(et_local, ft_local) AS gf,
            coalesce(et_visitante, ft_visitante) AS gc
        FROM partido WHERE competicion = 'Banco' AND ft_local IS NOT NULL
        UNION ALL
        SELECT grupo, visitante_id, coalesce(et_visitante, ft_visitante),
            coalesce(et_local, ft_local)
        FROM partido WHERE competicion = 'Banco' AND ft_local IS NOT NULL)
    SELECT grupo, e.nombre, count(*), sum(gf > gc), sum(gf = gc), sum(gf < gc), sum(gf),
        sum(gc), sum(gf) - sum(gc) AS dif, sum(3 * (gf > gc) + (gf = gc)) AS puntos
    FROM r JOIN equipo e ON e.id = r.equipo
    GROUP BY grupo, r.equipo
    ORDER BY grupo, puntos DESC, dif DESC, sum(gf) DESC, e.nombre
    """

/// The top 20 scorers: goals (own goals excluded) and penalties per player.
let consultaDeGoleadores = """
    SELECT j.nombre, q.nombre, count(*) AS goles, sum(v.penalti)
    FROM evento v
    JOIN partido p ON p.id = v.partido_id
    JOIN jugador j ON j.id = v.jugador_id
    JOIN equipo q ON q.id = j.equipo_id
    WHERE p.competicion = 'Banco' AND v.tipo = 'gol' AND NOT v.en_propia_puerta
    GROUP BY j.id
    ORDER BY goles DESC, j.nombre
    LIMIT 20
    """
