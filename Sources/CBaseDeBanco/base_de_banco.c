#include "base_de_banco.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    BEGIN, COMMIT,
    // Start of a run (CronicaSQLite.empezar).
    OTRAS_VIVAS, AJUSTES, INSERTAR_EJECUCION,
    // A minute (CronicaSQLite.registrar and BuzonSQLite.encolar).
    MINUTO, PERMISO_Y_ENCUENTRO, CANALES_Y_FILTROS, INSERTAR_AVISO, INSERTAR_ENTREGA,
    GOLES_A_MANO, ULTIMO_AVISO,
    // The end.
    TERMINAR, REGISTRO,
    // Dispatch (Despachador's orphan check, BuzonSQLite.reclamar and registrar).
    BEGIN_LECTURA, TITULARES, HUERFANAS, RECLAMAR, QUEDAN, LEER_AVISOS, MARCAR,
    // The best design.
    RECLAMAR_OPTIMO, LEER_OPTIMO, MARCAR_OPTIMO,
    SENTENCIAS
};

/// What marcador's claim may lease (BuzonSQL.reclamable), shared by the claim and the check a
/// drain makes after an empty claim.
#define RECLAMABLE \
    "e.canal = ?1 AND e.estado = 'pendiente' AND e.proximo_intento <= ?2" \
    " AND (e.arrendado_hasta IS NULL OR e.arrendado_hasta < ?3)" \
    " AND (?4 = 0 OR e.intentos = 0)" \
    " AND (CAST(?5 AS BIGINT) IS NULL OR e.ejecucion_id = ?5)" \
    " AND (CAST(?6 AS BIGINT) IS NULL OR e.aviso_id = ?6)" \
    " AND (e.ejecucion_id = 0 OR NOT EXISTS (" \
    " SELECT 1 FROM entrega p JOIN aviso pa ON pa.id = p.aviso_id" \
    " WHERE p.canal = ?1 AND p.ejecucion_id = e.ejecucion_id" \
    " AND p.aviso_id < e.aviso_id AND p.estado = 'pendiente'" \
    " AND pa.creado >= ?7" \
    " AND NOT (p.proximo_intento <= ?2" \
    " AND (p.arrendado_hasta IS NULL OR p.arrendado_hasta < ?3)" \
    " AND (?4 = 0 OR p.intentos = 0)" \
    " AND (CAST(?6 AS BIGINT) IS NULL OR p.aviso_id = ?6))))"

static const char *const sql[SENTENCIAS] = {
    [BEGIN] = "BEGIN IMMEDIATE",
    [BEGIN_LECTURA] = "BEGIN DEFERRED",
    [COMMIT] = "COMMIT",
    [OTRAS_VIVAS] =
        "SELECT id, pid, pid_inicio, anfitrion FROM ejecucion "
        "WHERE partido_id = ?1 AND estado = 'en_juego' AND cancelacion_pedida IS NULL "
        "AND (CAST(?2 AS BIGINT) IS NULL OR id <> ?2)",
    [AJUSTES] = "SELECT clave, valor FROM ajuste",
    [INSERTAR_EJECUCION] =
        "INSERT INTO ejecucion (partido_id, codigo, duracion, duracion_fija, ms_por_minuto, "
        "estado, pid, pid_inicio, anfitrion, latido, cancelacion_pedida, dueno) "
        "VALUES (?, ?, ?, ?, ?, 'en_juego', ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?) "
        "RETURNING id",
    [MINUTO] =
        "UPDATE ejecucion SET minuto = ?, goles_local = ?, goles_visitante = ?, "
        "latido = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
        "WHERE id = ? AND dueno = ? AND estado = 'en_juego' AND cancelacion_pedida IS NULL "
        "RETURNING mano_local, mano_visitante",
    [PERMISO_Y_ENCUENTRO] =
        "SELECT (SELECT valor FROM ajuste WHERE clave = ?) AS permiso, "
        "l.nombre AS local, v.nombre AS visitante, p.competicion "
        "FROM (SELECT 1 AS una) AS fila "
        "LEFT JOIN partido p ON p.id = ? "
        "LEFT JOIN equipo l ON l.id = p.local_id "
        "LEFT JOIN equipo v ON v.id = p.visitante_id",
    [CANALES_Y_FILTROS] =
        "SELECT c.nombre, c.avisar, f.clase, f.valor FROM canal c "
        "LEFT JOIN canal_filtro f ON f.canal = c.nombre "
        "WHERE c.activo = 1 ORDER BY c.nombre, f.valor",
    [INSERTAR_AVISO] =
        "INSERT INTO aviso (ejecucion_id, partido_id, tipo, identificador, titulo, "
        "cuerpo, minuto, anadido, jugador, equipo, marcador_local, marcador_visitante, adjunto, "
        "creado, seguimiento_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING RETURNING id",
    [INSERTAR_ENTREGA] =
        "INSERT INTO entrega (aviso_id, canal, ejecucion_id, estado, proximo_intento, "
        "ultimo_error) VALUES (?, ?, ?, ?, ?, ?)",
    [GOLES_A_MANO] = "SELECT mano_local, mano_visitante FROM ejecucion WHERE id = ?",
    [ULTIMO_AVISO] = "UPDATE ejecucion SET ultimo_aviso = ? WHERE id = ?",
    [TERMINAR] =
        "UPDATE ejecucion SET estado = 'terminado', minuto = ?, "
        "acabada = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') "
        "WHERE id = ? AND dueno = ? AND estado = 'en_juego' AND cancelacion_pedida IS NULL",
    [REGISTRO] = "INSERT INTO registro (partido_id, linea) VALUES (?, ?)",
    [TITULARES] =
        "SELECT DISTINCT arrendatario FROM entrega WHERE arrendatario IS NOT NULL AND estado = 'pendiente'",
    [HUERFANAS] =
        "SELECT DISTINCT x.id, x.pid, x.pid_inicio, x.anfitrion FROM entrega e "
        "JOIN ejecucion x ON x.id = e.ejecucion_id WHERE e.canal = ? AND e.estado = 'pendiente'",
    [RECLAMAR] =
        "UPDATE entrega SET arrendatario = ?9, arrendado_hasta = ?10 "
        "WHERE canal = ?1 AND aviso_id IN ("
        " SELECT e.aviso_id FROM entrega e WHERE " RECLAMABLE
        " ORDER BY e.aviso_id LIMIT ?8) "
        "RETURNING aviso_id, intentos",
    [QUEDAN] = "SELECT count(*) FROM (SELECT 1 FROM entrega e WHERE " RECLAMABLE " LIMIT 1) x",
    [LEER_AVISOS] =
        "SELECT partido_id AS partido_id, identificador AS identificador, titulo AS titulo, "
        "cuerpo AS cuerpo, minuto AS minuto, anadido AS anadido, jugador AS jugador, "
        "equipo AS equipo, marcador_local AS marcador_local, "
        "marcador_visitante AS marcador_visitante, adjunto AS adjunto, creado AS creado, "
        "ejecucion_id AS ejecucion_id, tipo AS tipo, id AS id, seguimiento_id AS seguimiento_id "
        "FROM aviso WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id",
    [MARCAR] =
        "UPDATE entrega SET estado = 'entregada', entregada_en = ?1, ultimo_error = NULL, "
        "arrendatario = NULL, arrendado_hasta = NULL, intentos = intentos + 1 "
        "WHERE canal = ?2 AND arrendatario = ?3 "
        "AND aviso_id IN (SELECT value FROM json_each(?4))",
    [RECLAMAR_OPTIMO] =
        "UPDATE entrega SET arrendatario = ?1, arrendado_hasta = ?2 "
        "WHERE canal = ?3 AND aviso_id IN ("
        " SELECT aviso_id FROM entrega WHERE canal = ?3 AND estado = 'pendiente' "
        " AND arrendado_hasta IS NULL ORDER BY aviso_id LIMIT ?4) "
        "RETURNING aviso_id",
    [LEER_OPTIMO] =
        "SELECT coalesce(partido_id, 0), identificador, titulo, cuerpo, jugador, equipo, id "
        "FROM aviso WHERE id IN (SELECT value FROM json_each(?))",
    [MARCAR_OPTIMO] =
        "UPDATE entrega SET estado = 'entregada', entregada_en = ?1, arrendatario = NULL, "
        "arrendado_hasta = NULL, intentos = intentos + 1 "
        "WHERE canal = ?2 AND arrendatario = ?3",
};

/// Log lines go in up to this many per statement, as marcador's `RegistroSQL` writes them.
#define LINEAS_POR_INSERT 64

struct marcador_base {
    sqlite3 *db;
    void (*al_ejecutar)(const char *sql, void *contexto);
    void *contexto;
    sqlite3_stmt *s[SENTENCIAS];
    /// `INSERT INTO registro … VALUES (?, ?), …` with n rows, prepared on first use and kept
    /// (marcador's statement cache does the same for each size it meets).
    sqlite3_stmt *registro[LINEAS_POR_INSERT + 1];
};

/// The n-row log INSERT, prepared once.
static sqlite3_stmt *insertar_lineas(marcador_base *base, int n) {
    if (base->registro[n]) return base->registro[n];
    char sql[64 + LINEAS_POR_INSERT * 8];
    int largo = snprintf(sql, sizeof sql, "INSERT INTO registro (partido_id, linea) VALUES ");
    for (int i = 0; i < n; i++) largo += snprintf(sql + largo, sizeof sql - (size_t)largo, i ? ", (?, ?)" : "(?, ?)");
    if (sqlite3_prepare_v3(base->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &base->registro[n], NULL) != SQLITE_OK) {
        return NULL;
    }
    return base->registro[n];
}

marcador_base *marcador_base_abrir(const char *ruta) {
    marcador_base *base = calloc(1, sizeof *base);
    if (!base) return NULL;
    if (sqlite3_open_v2(ruta, &base->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        marcador_base_cerrar(base);
        return NULL;
    }
    sqlite3_busy_timeout(base->db, 5000);
    // The same connection settings as marcador (Almacen.configurar).
    sqlite3_exec(base->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
    sqlite3_exec(base->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
    sqlite3_exec(base->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
    for (int i = 0; i < SENTENCIAS; i++) {
        if (sqlite3_prepare_v3(base->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &base->s[i], NULL)
            != SQLITE_OK) {
            fprintf(stderr, "base: %s\n%s\n", sqlite3_errmsg(base->db), sql[i]);
            marcador_base_cerrar(base);
            return NULL;
        }
    }
    return base;
}

void marcador_base_cerrar(marcador_base *base) {
    if (!base) return;
    for (int i = 0; i < SENTENCIAS; i++) sqlite3_finalize(base->s[i]);
    for (int n = 0; n <= LINEAS_POR_INSERT; n++) sqlite3_finalize(base->registro[n]);
    sqlite3_close_v2(base->db);
    free(base);
}

/// Steps a statement to the end (reading every row, as marcador maps them) and resets it.
static int correr(sqlite3_stmt *s) {
    int codigo;
    while ((codigo = sqlite3_step(s)) == SQLITE_ROW) {
        for (int c = 0; c < sqlite3_column_count(s); c++) (void)sqlite3_column_text(s, c);
    }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return codigo == SQLITE_DONE ? 0 : codigo;
}

/// Steps an `INSERT … RETURNING id` and resets it: the id, or -1 when nothing was inserted.
static sqlite3_int64 insertar(sqlite3_stmt *s, int *codigo) {
    sqlite3_int64 id = -1;
    int paso;
    while ((paso = sqlite3_step(s)) == SQLITE_ROW) id = sqlite3_column_int64(s, 0);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    *codigo = paso == SQLITE_DONE ? 0 : paso;
    return id;
}

#define T(texto) sqlite3_bind_text(s, i++, (texto), -1, SQLITE_TRANSIENT)
#define I(valor) sqlite3_bind_int64(s, i++, (valor))
#define D(valor) sqlite3_bind_double(s, i++, (valor))
#define N() sqlite3_bind_null(s, i++)

int marcador_base_partido(
    marcador_base *base, int partido, const marcador_gol *goles, int n, double ahora) {
    sqlite3_stmt *s;
    int i, codigo;
    // Start: stop the others, read the settings, insert the run.
    if ((codigo = correr(base->s[BEGIN]))) return codigo;
    s = base->s[OTRAS_VIVAS]; i = 1; I(partido); N();
    if ((codigo = correr(s))) return codigo;
    if ((codigo = correr(base->s[AJUSTES]))) return codigo;
    s = base->s[INSERTAR_EJECUCION]; i = 1;
    I(partido); T("c0de1"); I(90); I(0); I(0); I(1); I(1); T(""); N(); T("00c0ffee00c0ffee");
    sqlite3_int64 ejecucion = insertar(s, &codigo);
    if (codigo) return codigo;
    if ((codigo = correr(base->s[COMMIT]))) return codigo;

    int local = 0, visitante = 0, siguiente = 0;
    char ultimo[64] = "ninguno";
    for (int minuto = 1; minuto <= 90; minuto++) {
        if ((codigo = correr(base->s[BEGIN]))) return codigo;
        int primero = siguiente;
        while (siguiente < n && goles[siguiente].minuto == minuto) {
            if (goles[siguiente].lado == 0) local++; else visitante++;
            siguiente++;
        }
        s = base->s[MINUTO]; i = 1; I(minuto); I(local); I(visitante); I(ejecucion);
        T("00c0ffee00c0ffee");
        if ((codigo = correr(s))) return codigo;
        if (siguiente > primero) {
            s = base->s[PERMISO_Y_ENCUENTRO]; i = 1; T("avisos_permitidos"); I(partido);
            if ((codigo = correr(s))) return codigo;
            // The active channels (one row per filter), kept as marcador keeps them.
            char canales[8][64];
            int cuantos = 0;
            s = base->s[CANALES_Y_FILTROS];
            while ((codigo = sqlite3_step(s)) == SQLITE_ROW) {
                const char *nombre = (const char *)sqlite3_column_text(s, 0);
                (void)sqlite3_column_text(s, 1);
                (void)sqlite3_column_text(s, 2);
                (void)sqlite3_column_text(s, 3);
                if (cuantos < 8 && (cuantos == 0 || strcmp(canales[cuantos - 1], nombre) != 0)) {
                    snprintf(canales[cuantos++], 64, "%s", nombre);
                }
            }
            sqlite3_reset(s);
            if (codigo != SQLITE_DONE) return codigo;
            for (int g = primero; g < siguiente; g++) {
                s = base->s[INSERTAR_AVISO]; i = 1;
                I(ejecucion); I(partido); T("gol"); T(goles[g].identificador); T("¡Gol!");
                T(goles[g].cuerpo); I(goles[g].minuto); I(goles[g].anadido); T(goles[g].jugador);
                T(goles[g].equipo); I(local); I(visitante); N(); D(ahora); N();
                sqlite3_int64 aviso = insertar(s, &codigo);
                if (codigo) return codigo;
                if (aviso < 0) continue;
                for (int c = 0; c < cuantos; c++) {
                    s = base->s[INSERTAR_ENTREGA]; i = 1;
                    I(aviso); T(canales[c]); I(ejecucion); T("pendiente"); D(ahora); N();
                    if ((codigo = correr(s))) return codigo;
                }
            }
        }
        // As the engine: «último aviso» written only when it changes, every 15 minutes (so the
        // schema's trigger fires 6 times a match, as for marcador).
        if (minuto % 15 == 0) {
            snprintf(ultimo, sizeof ultimo, "minuto %d con %d-%d", minuto, local, visitante);
            s = base->s[ULTIMO_AVISO]; i = 1; T(ultimo); I(ejecucion);
            if ((codigo = correr(s))) return codigo;
        }
        if ((codigo = correr(base->s[COMMIT]))) return codigo;
    }
    if ((codigo = correr(base->s[BEGIN]))) return codigo;
    s = base->s[TERMINAR]; i = 1; I(90); I(ejecucion); T("00c0ffee00c0ffee");
    if ((codigo = correr(s))) return codigo;
    s = base->s[GOLES_A_MANO]; i = 1; I(ejecucion);
    if ((codigo = correr(s))) return codigo;
    if ((codigo = correr(base->s[COMMIT]))) return codigo;
    if ((codigo = correr(base->s[BEGIN]))) return codigo;
    s = base->s[REGISTRO]; i = 1; I(partido); T("partido TERMINADO en el minuto 90 (c0de1)");
    if ((codigo = correr(s))) return codigo;
    return correr(base->s[COMMIT]);
}

/// `[1,2,3]` into `buffer` (the dispatcher binds its batch as one JSON text).
static void lista(char *buffer, size_t tamano, const sqlite3_int64 *ids, int n) {
    size_t usado = 0;
    buffer[usado++] = '[';
    for (int k = 0; k < n && usado + 24 < tamano; k++) {
        usado += (size_t)snprintf(buffer + usado, tamano - usado, k ? ",%lld" : "%lld", (long long)ids[k]);
    }
    buffer[usado++] = ']';
    buffer[usado] = 0;
}

static int despachar(
    marcador_base *base, const char *canal, int lote, double ahora, int registro);

int marcador_base_despachar(marcador_base *base, const char *canal, int lote, double ahora) {
    return despachar(base, canal, lote, ahora, -1);
}

int marcador_base_despachar_registro(
    marcador_base *base, const char *canal, int lote, double ahora, int fd) {
    return despachar(base, canal, lote, ahora, fd);
}

static int despachar(
    marcador_base *base, const char *canal, int lote, double ahora, int registro) {
    sqlite3_int64 *ids = malloc(sizeof *ids * (size_t)lote);
    size_t tamano = (size_t)lote * 24 + 8;
    char *json = malloc(tamano);
    size_t tamano_lineas = (size_t)lote * 512;
    char *lineas = malloc(tamano_lineas);
    int total = 0;
    {
        // Before its first drain the dispatcher reads who holds leases on pending deliveries
        // (to take at once the work of a holder that is gone), in a read transaction of its own.
        if (correr(base->s[BEGIN_LECTURA]) || correr(base->s[TITULARES]) || correr(base->s[COMMIT]))
            goto fallo;
    }
    {
        // Before its first claim the dispatcher reads which runs its pending rows belong to
        // (to hand back those of a player that died), in a read transaction of its own.
        sqlite3_stmt *s = base->s[HUERFANAS];
        int i = 1;
        T(canal);
        if (correr(base->s[BEGIN_LECTURA]) || correr(s) || correr(base->s[COMMIT])) goto fallo;
    }
    for (;;) {
        sqlite3_stmt *s;
        int i, n = 0;
        if (correr(base->s[BEGIN])) goto fallo;
        s = base->s[RECLAMAR]; i = 1;
        T(canal); D(ahora); D(ahora); I(0); N(); N(); D(ahora - 600); I(lote); T("base");
        D(ahora + 60);
        while (sqlite3_step(s) == SQLITE_ROW) {
            ids[n++] = sqlite3_column_int64(s, 0);
            (void)sqlite3_column_int64(s, 1);
        }
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        size_t escrito = 0;
        if (n > 0) {
            lista(json, tamano, ids, n);
            s = base->s[LEER_AVISOS]; i = 1; T(json);
            while (sqlite3_step(s) == SQLITE_ROW) {
                for (int c = 0; c < sqlite3_column_count(s); c++) (void)sqlite3_column_text(s, c);
                if (registro >= 0 && escrito + 256 < tamano_lineas) {
                    // The team and marks: what the body has between "<scorer> (" and
                    // "), minuto", as marcador's log line takes them.
                    const char *cuerpo = (const char *)sqlite3_column_text(s, 3);
                    const char *jugador = (const char *)sqlite3_column_text(s, 6);
                    size_t largo = strlen(jugador);
                    const char *marcas = cuerpo + largo + 2;
                    const char *fin = strstr(cuerpo, "), minuto ");
                    int con_marcas = strncmp(cuerpo, jugador, largo) == 0 && cuerpo[largo] == ' '
                        && cuerpo[largo + 1] == '(' && fin != NULL && fin > marcas;
                    escrito += (size_t)snprintf(
                        lineas + escrito, tamano_lineas - escrito,
                        "notificación «%s» enviada: %s, minuto %d (%.*s)\n",
                        (const char *)sqlite3_column_text(s, 2), jugador, sqlite3_column_int(s, 4),
                        con_marcas ? (int)(fin - marcas) : (int)strlen((const char *)sqlite3_column_text(s, 7)),
                        con_marcas ? marcas : (const char *)sqlite3_column_text(s, 7));
                }
            }
            sqlite3_reset(s);
            sqlite3_clear_bindings(s);
        }
        if (correr(base->s[COMMIT])) goto fallo;
        if (n == 0) {
            // An empty claim ends the drain only if nothing claimable is left (a read).
            sqlite3_int64 quedan = 0;
            if (correr(base->s[BEGIN_LECTURA])) goto fallo;
            s = base->s[QUEDAN]; i = 1;
            T(canal); D(ahora); D(ahora); I(0); N(); N(); D(ahora - 600);
            if (sqlite3_step(s) == SQLITE_ROW) quedan = sqlite3_column_int64(s, 0);
            sqlite3_reset(s);
            sqlite3_clear_bindings(s);
            if (correr(base->s[COMMIT])) goto fallo;
            if (quedan == 0) break;
            continue;
        }
        if (registro >= 0) {
            // The log channel: the batch's lines to stderr's stand-in and to `registro`.
            if (write(registro, lineas, escrito) < 0) goto fallo;
            if (correr(base->s[BEGIN])) goto fallo;
            for (char *linea = lineas; linea < lineas + escrito;) {
                // The next (up to) 64 lines in one statement.
                int cuantas = 0;
                for (char *l = linea; l < lineas + escrito && cuantas < LINEAS_POR_INSERT; cuantas++) {
                    l = (char *)memchr(l, '\n', (size_t)(lineas + escrito - l)) + 1;
                }
                if (!(s = insertar_lineas(base, cuantas))) goto fallo;
                i = 1;
                for (int k = 0; k < cuantas; k++) {
                    char *fin = memchr(linea, '\n', (size_t)(lineas + escrito - linea));
                    I(1);
                    sqlite3_bind_text(s, i++, linea, (int)(fin - linea), SQLITE_TRANSIENT);
                    linea = fin + 1;
                }
                if (correr(s)) goto fallo;
            }
            if (correr(base->s[COMMIT])) goto fallo;
        }
        if (correr(base->s[BEGIN])) goto fallo;
        s = base->s[MARCAR]; i = 1; D(ahora); T(canal); T("base"); T(json);
        if (correr(s)) goto fallo;
        if (correr(base->s[COMMIT])) goto fallo;
        total += n;
    }
    free(ids);
    free(json);
    free(lineas);
    return total;
fallo:
    free(ids);
    free(json);
    free(lineas);
    return -1;
}

int marcador_base_despachar_optimo(marcador_base *base, const char *canal, int lote, double ahora) {
    sqlite3_int64 *ids = malloc(sizeof *ids * (size_t)lote);
    size_t tamano = (size_t)lote * 24 + 8;
    char *json = malloc(tamano);
    int total = 0;
    for (;;) {
        sqlite3_stmt *s;
        int i, n = 0;
        if (correr(base->s[BEGIN])) goto fallo;
        s = base->s[RECLAMAR_OPTIMO]; i = 1; T("optimo"); D(ahora + 60); T(canal); I(lote);
        while (sqlite3_step(s) == SQLITE_ROW) ids[n++] = sqlite3_column_int64(s, 0);
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
        if (n > 0) {
            lista(json, tamano, ids, n);
            s = base->s[LEER_OPTIMO]; i = 1; T(json);
            if (correr(s)) goto fallo;
        }
        if (correr(base->s[COMMIT])) goto fallo;
        if (n == 0) break;
        if (correr(base->s[BEGIN])) goto fallo;
        s = base->s[MARCAR_OPTIMO]; i = 1; D(ahora); T(canal); T("optimo");
        if (correr(s)) goto fallo;
        if (correr(base->s[COMMIT])) goto fallo;
        total += n;
    }
    free(ids);
    free(json);
    return total;
fallo:
    free(ids);
    free(json);
    return -1;
}

static int trazar(unsigned tipo, void *contexto, void *sentencia, void *texto) {
    (void)tipo;
    (void)sentencia;
    marcador_base *base = contexto;
    // A trigger's start comes as a comment (`-- TRIGGER …`): not a statement run.
    if (strncmp(texto, "--", 2) != 0) base->al_ejecutar(texto, base->contexto);
    return 0;
}

void marcador_base_trazar(
    marcador_base *base, void (*al_ejecutar)(const char *sql, void *contexto), void *contexto) {
    base->al_ejecutar = al_ejecutar;
    base->contexto = contexto;
    sqlite3_trace_v2(base->db, al_ejecutar ? SQLITE_TRACE_STMT : 0, al_ejecutar ? trazar : NULL,
                     base);
}
