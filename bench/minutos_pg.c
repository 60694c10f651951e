// The floor under the PostgreSQL engine figure of `make bench-postgresql` (issue 25): a whole
// process that does only what no client of this schema can avoid for one 90-minute match —
// load libpq, connect, start a run and commit its 90 minutes — with marcador's own statements
// (the run's INSERT, the fenced minute UPDATE, the end), each prepared once, parameters as text.
// No goals, notices, settings, pruning or listening: marcador's `jugar` does all of those as
// well, so this is a lower bound for it, not a baseline doing the same work. What it costs is
// mostly the server's: each minute's commit runs the change-log triggers of the schema.
//
// Usage: minutos_pg CONNINFO PARTIDO   (prints nothing; exits 0 after minute 90)
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define AHORA "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

static const char *const empezar =
    "INSERT INTO ejecucion (partido_id, codigo, duracion, duracion_fija, ms_por_minuto,"
    " estado, pid, pid_inicio, anfitrion, latido, cancelacion_pedida, dueno)"
    " VALUES ($1, $2, $3, $4, $5, 'en_juego', $6, $7, $8, " AHORA ", $9, $10)"
    " RETURNING id";

static const char *const minuto =
    "UPDATE ejecucion SET minuto = $1, goles_local = $2, goles_visitante = $3,"
    " latido = " AHORA
    " WHERE id = $4 AND dueno = $5 AND estado = 'en_juego' AND cancelacion_pedida IS NULL"
    " RETURNING mano_local, mano_visitante";

static const char *const terminar =
    "UPDATE ejecucion SET estado = 'terminado', minuto = $1, acabada = " AHORA
    " WHERE id = $2 AND dueno = $3 AND estado = 'en_juego' AND cancelacion_pedida IS NULL";

static void fallar(PGconn *c, const char *que) {
    fprintf(stderr, "minutos_pg: %s: %s", que, PQerrorMessage(c));
    exit(1);
}

static PGresult *ejecutar(PGconn *c, const char *nombre, int n, const char *const *valores,
                          ExecStatusType esperado) {
    PGresult *r = PQexecPrepared(c, nombre, n, valores, NULL, NULL, 0);
    if (PQresultStatus(r) != esperado) fallar(c, nombre);
    return r;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "uso: minutos_pg CONNINFO PARTIDO\n");
        return 64;
    }
    PGconn *c = PQconnectdb(argv[1]);
    if (PQstatus(c) != CONNECTION_OK) fallar(c, "conexión");
    const char *sentencias[][2] = {{"e", empezar}, {"m", minuto}, {"t", terminar}};
    for (int i = 0; i < 3; i++) {
        PGresult *r = PQprepare(c, sentencias[i][0], sentencias[i][1], 0, NULL);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) fallar(c, sentencias[i][0]);
        PQclear(r);
    }
    char pid[16];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    const char *const inicio[] = {argv[2], "suelo", "90", "1", "0", pid, "0", "suelo", NULL,
                                  "0123456789abcdef"};
    PGresult *r = ejecutar(c, "e", 10, inicio, PGRES_TUPLES_OK);
    char id[24];
    snprintf(id, sizeof id, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    char n[4];
    for (int m = 1; m <= 90; m++) {
        snprintf(n, sizeof n, "%d", m);
        const char *const valores[] = {n, "0", "0", id, "0123456789abcdef"};
        r = ejecutar(c, "m", 5, valores, PGRES_TUPLES_OK);
        if (PQntuples(r) != 1) fallar(c, "minuto sin su ejecución");
        PQclear(r);
    }
    const char *const fin[] = {"90", id, "0123456789abcdef"};
    PQclear(ejecutar(c, "t", 3, fin, PGRES_COMMAND_OK));
    PQfinish(c);
    return 0;
}
