// The C baseline of `make bench-postgresql` for dispatch (issue 25): the one-statement design
// marcador's PostgreSQL outbox now follows, written as directly as libpq allows, so the ratio
// measures what marcador's own layers cost on the same server and data.
//
// Each process drains channel `registro` the way `avisos enviar` does: claim a batch of 256
// with marcador's claim (one statement: candidates locked with SKIP LOCKED, each run's first
// blocker looked up once, lease, notice rows returned), store one log line per notice (one
// multi-row INSERT, where marcador writes 64 rows a statement inside a transaction with its
// request id), then mark the batch delivered (one statement). Every statement is prepared once
// per connection; parameters are text, as marcador sends them.
//
// Usage: despacho_pg CONNINFO   (exits 0 when the channel has nothing left to claim)
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { LOTE = 256 };

static const char *const reclamar =
    "WITH candidata AS ("
    " SELECT e.aviso_id, e.ejecucion_id FROM entrega e"
    " WHERE e.canal = $3 AND e.estado = 'pendiente' AND e.proximo_intento <= $4"
    " AND (e.arrendado_hasta IS NULL OR e.arrendado_hasta < $5"
    " OR (e.arrendatario = $1 AND e.arrendado_hasta = $2))"
    " AND ($6 = 0 OR e.intentos = 0)"
    " AND CAST($7 AS BIGINT) IS NULL AND CAST($9 AS BIGINT) IS NULL"
    " ORDER BY e.aviso_id LIMIT $8 FOR UPDATE SKIP LOCKED"
    "), freno AS MATERIALIZED ("
    " SELECT r.ejecucion_id, ("
    " SELECT p.aviso_id FROM entrega p JOIN aviso pa ON pa.id = p.aviso_id"
    " WHERE p.canal = $3 AND p.ejecucion_id = r.ejecucion_id"
    " AND p.estado = 'pendiente' AND pa.creado >= $10"
    " AND p.aviso_id NOT IN (SELECT aviso_id FROM candidata)"
    " ORDER BY p.aviso_id LIMIT 1) AS primero"
    " FROM (SELECT DISTINCT ejecucion_id FROM candidata WHERE ejecucion_id <> 0) r"
    "), arrendada AS ("
    " UPDATE entrega SET arrendatario = $1, arrendado_hasta = $2"
    " FROM candidata c LEFT JOIN freno f ON f.ejecucion_id = c.ejecucion_id"
    " WHERE entrega.canal = $3 AND entrega.aviso_id = c.aviso_id"
    " AND (f.primero IS NULL OR c.aviso_id < f.primero)"
    " RETURNING entrega.aviso_id, entrega.intentos"
    ")"
    " SELECT a.partido_id, a.identificador, a.titulo, a.cuerpo, a.minuto, a.anadido, a.jugador,"
    " a.equipo, a.marcador_local, a.marcador_visitante, a.adjunto, a.creado, a.ejecucion_id,"
    " a.tipo, a.id, a.seguimiento_id, r.intentos"
    " FROM arrendada r"
    " CROSS JOIN LATERAL (SELECT * FROM aviso WHERE aviso.id = r.aviso_id OFFSET 0) a"
    " ORDER BY a.id";

static const char *const marcar =
    "UPDATE entrega SET estado = 'entregada', entregada_en = $1, ultimo_error = NULL,"
    " arrendatario = NULL, arrendado_hasta = NULL, intentos = intentos + 1"
    " WHERE canal = $2 AND arrendatario = $3"
    " AND aviso_id IN (SELECT CAST(t.v AS bigint)"
    " FROM json_array_elements_text(CAST($4 AS json)) AS t(v))";

static double ahora(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fallar(PGconn *c, const char *que) {
    fprintf(stderr, "despacho_pg: %s: %s", que, PQerrorMessage(c));
    exit(1);
}

static void preparar(PGconn *c, const char *nombre, const char *sql, int n) {
    PGresult *r = PQprepare(c, nombre, sql, n, NULL);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) fallar(c, nombre);
    PQclear(r);
}

// The log insert for `n` rows, prepared the first time a batch of that size comes.
static const char *insertar(PGconn *c, int n) {
    static char preparado[LOTE + 1];
    static char nombres[LOTE + 1][16];
    if (!preparado[n]) {
        size_t tam = 64 + (size_t)n * 24;
        char *sql = malloc(tam);
        size_t k = (size_t)snprintf(sql, tam, "INSERT INTO registro (partido_id, linea) VALUES ");
        for (int i = 0; i < n; i++)
            k += (size_t)snprintf(sql + k, tam - k, "%s($%d, $%d)", i ? ", " : "", 2 * i + 1,
                                  2 * i + 2);
        snprintf(nombres[n], sizeof nombres[n], "log%d", n);
        preparar(c, nombres[n], sql, 2 * n);
        free(sql);
        preparado[n] = 1;
    }
    return nombres[n];
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "uso: despacho_pg CONNINFO\n");
        return 64;
    }
    PGconn *c = PQconnectdb(argv[1]);
    if (PQstatus(c) != CONNECTION_OK) fallar(c, "conexión");
    preparar(c, "reclamar", reclamar, 10);
    preparar(c, "marcar", marcar, 4);
    char arrendatario[64];
    snprintf(arrendatario, sizeof arrendatario, "c-%d", (int)getpid());
    char hasta[32], vencidas[32], caducidad[32], momento[32], limite[8];
    snprintf(limite, sizeof limite, "%d", LOTE);
    static char lineas[LOTE][160];
    static char partidos[LOTE][16];
    const char *valores[2 * LOTE];
    char *lista = malloc((size_t)LOTE * 24 + 2);
    long total = 0;
    for (;;) {
        double t = ahora();
        snprintf(hasta, sizeof hasta, "%.6f", t + 60);
        snprintf(vencidas, sizeof vencidas, "%.6f", t);
        snprintf(caducidad, sizeof caducidad, "%.6f", t - 600);
        const char *p[10] = {arrendatario, hasta, "registro", vencidas, vencidas, "0",
                             NULL,         limite, NULL,      caducidad};
        PGresult *r = PQexecPrepared(c, "reclamar", 10, p, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_TUPLES_OK) fallar(c, "reclamar");
        int n = PQntuples(r);
        if (n == 0) {
            PQclear(r);
            break;
        }
        // What the log channel writes for a goal: «title», scorer and minute.
        size_t k = 0;
        lista[k++] = '[';
        for (int i = 0; i < n; i++) {
            snprintf(lineas[i], sizeof lineas[i], "notificación «%s» enviada: %s, minuto %s",
                     PQgetvalue(r, i, 2), PQgetvalue(r, i, 6), PQgetvalue(r, i, 4));
            snprintf(partidos[i], sizeof partidos[i], "%s", PQgetvalue(r, i, 0));
            valores[2 * i] = partidos[i];
            valores[2 * i + 1] = lineas[i];
            k += (size_t)sprintf(lista + k, "%s%s", i ? "," : "", PQgetvalue(r, i, 14));
        }
        lista[k++] = ']';
        lista[k] = 0;
        PQclear(r);
        r = PQexecPrepared(c, insertar(c, n), 2 * n, valores, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) fallar(c, "registro");
        PQclear(r);
        snprintf(momento, sizeof momento, "%.6f", ahora());
        const char *m[4] = {momento, "registro", arrendatario, lista};
        r = PQexecPrepared(c, "marcar", 4, m, NULL, NULL, 0);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) fallar(c, "marcar");
        total += atol(PQcmdTuples(r));
        PQclear(r);
    }
    free(lista);
    PQfinish(c);
    printf("%ld\n", total);
    return 0;
}
