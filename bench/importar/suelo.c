// The floor of `marcador dispositivos importar` on SQLite: the store's part alone, in C, with
// marcador's statements (per 512 devices: their old filters deleted, their channel rows
// upserted, their filter rows inserted), each text prepared once, one transaction, the same
// pragmas. The rows are the bench's: N APNs tokens following «Rayo Banco», named as marcador
// names them (`apns-` and the first 8 bytes of the token's SHA-256, in hex), in id order.
// What it leaves out is what marcador does on top: reading and checking the lines, hashing
// them on both cores, sorting, and naming the team.
//
// cc -O2 -o suelo suelo.c -lsqlite3 -lcrypto; ./suelo STORE N → one line: seconds
#include <openssl/sha.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { POR_SENTENCIA = 512 };

typedef struct {
    char nombre[24];
    char ajustes[80];
} Fila;

static sqlite3 *db;

static double ahora(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void comprobar(int codigo, const char *que) {
    if (codigo == SQLITE_OK || codigo == SQLITE_DONE || codigo == SQLITE_ROW) return;
    fprintf(stderr, "suelo: %s: %s\n", que, sqlite3_errmsg(db));
    exit(1);
}

static int por_nombre(const void *a, const void *b) {
    return strcmp(((const Fila *)a)->nombre, ((const Fila *)b)->nombre);
}

// "(?, ?), (?, ?)…": `filas` groups of `columnas` parameters, as marcador writes them.
static void grupos(char *destino, int filas, int columnas, int entre_parentesis) {
    char *p = destino;
    for (int f = 0; f < filas; f++) {
        if (f) p += sprintf(p, ", ");
        if (entre_parentesis) *p++ = '(';
        for (int c = 0; c < columnas; c++) p += sprintf(p, c ? ", ?" : "?");
        if (entre_parentesis) *p++ = ')';
    }
    *p = 0;
}

typedef struct {
    sqlite3_stmt *borrar, *canales, *filtros;
} Sentencias;

static Sentencias preparar(int filas) {
    static char lista[POR_SENTENCIA * 4 + 16], sql[POR_SENTENCIA * 40 + 1024];
    Sentencias s;
    grupos(lista, filas, 1, 0);
    snprintf(sql, sizeof sql, "DELETE FROM canal_filtro WHERE canal IN (%s)", lista);
    comprobar(sqlite3_prepare_v2(db, sql, -1, &s.borrar, 0), "preparar DELETE");
    static char valores[POR_SENTENCIA * 30 + 16];
    grupos(valores, filas, 8, 1);
    snprintf(sql, sizeof sql,
        "INSERT INTO canal (nombre, tipo, activo, ajustes, avisar, horas_tranquilas, retraso, "
        "antes)\nVALUES %s\nON CONFLICT (nombre) DO UPDATE SET tipo = excluded.tipo,\n"
        "    activo = excluded.activo, ajustes = excluded.ajustes,\n"
        "    avisar = excluded.avisar, horas_tranquilas = excluded.horas_tranquilas,\n"
        "    retraso = excluded.retraso, antes = excluded.antes", valores);
    comprobar(sqlite3_prepare_v2(db, sql, -1, &s.canales, 0), "preparar INSERT canal");
    grupos(valores, filas, 4, 1);
    snprintf(sql, sizeof sql,
        "INSERT INTO canal_filtro (canal, clase, valor, clave)\nVALUES %s ON CONFLICT DO NOTHING",
        valores);
    comprobar(sqlite3_prepare_v2(db, sql, -1, &s.filtros, 0), "preparar INSERT canal_filtro");
    return s;
}

static void ejecutar(sqlite3_stmt *s, const char *que) {
    comprobar(sqlite3_step(s), que);
    sqlite3_reset(s);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "uso: suelo ALMACEN N\n");
        return 64;
    }
    long n = atol(argv[2]);
    Fila *filas = malloc(sizeof(Fila) * n);
    for (long i = 0; i < n; i++) {
        char token[65];
        unsigned char resumen[32];
        snprintf(token, sizeof token, "%064lx", i * 2654435761L + 7);
        SHA256((unsigned char *)token, 64, resumen);
        char *p = filas[i].nombre + sprintf(filas[i].nombre, "apns-");
        for (int j = 0; j < 8; j++) p += sprintf(p, "%02x", resumen[j]);
        snprintf(filas[i].ajustes, sizeof filas[i].ajustes, "{\"token\":\"%s\"}", token);
    }
    qsort(filas, n, sizeof(Fila), por_nombre);

    comprobar(sqlite3_open(argv[1], &db), "abrir");
    comprobar(sqlite3_exec(db, "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; "
        "PRAGMA cache_size = -262144", 0, 0, 0), "pragmas");
    double inicio = ahora();
    comprobar(sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0), "BEGIN");
    // The full-size texts once; a last short group gets its own (marcador halves it instead:
    // a dozen texts, the same work per row).
    Sentencias llenas = preparar(POR_SENTENCIA);
    for (long desde = 0; desde < n; desde += POR_SENTENCIA) {
        int cuantas = n - desde < POR_SENTENCIA ? (int)(n - desde) : POR_SENTENCIA;
        Sentencias s = cuantas == POR_SENTENCIA ? llenas : preparar(cuantas);
        for (int k = 0; k < cuantas; k++) {
            Fila *f = &filas[desde + k];
            sqlite3_bind_text(s.borrar, k + 1, f->nombre, -1, SQLITE_STATIC);
            sqlite3_bind_text(s.canales, 8 * k + 1, f->nombre, -1, SQLITE_STATIC);
            sqlite3_bind_text(s.canales, 8 * k + 2, "apns-dispositivo", -1, SQLITE_STATIC);
            sqlite3_bind_int(s.canales, 8 * k + 3, 1);
            sqlite3_bind_text(s.canales, 8 * k + 4, f->ajustes, -1, SQLITE_STATIC);
            sqlite3_bind_null(s.canales, 8 * k + 5);
            sqlite3_bind_null(s.canales, 8 * k + 6);
            sqlite3_bind_double(s.canales, 8 * k + 7, 0);
            sqlite3_bind_null(s.canales, 8 * k + 8);
            sqlite3_bind_text(s.filtros, 4 * k + 1, f->nombre, -1, SQLITE_STATIC);
            sqlite3_bind_text(s.filtros, 4 * k + 2, "equipo", -1, SQLITE_STATIC);
            sqlite3_bind_text(s.filtros, 4 * k + 3, "Rayo Banco", -1, SQLITE_STATIC);
            sqlite3_bind_text(s.filtros, 4 * k + 4, "rayo banco", -1, SQLITE_STATIC);
        }
        ejecutar(s.borrar, "DELETE");
        ejecutar(s.canales, "INSERT canal");
        ejecutar(s.filtros, "INSERT canal_filtro");
        if (cuantas != POR_SENTENCIA) {
            sqlite3_finalize(s.borrar);
            sqlite3_finalize(s.canales);
            sqlite3_finalize(s.filtros);
        }
    }
    comprobar(sqlite3_exec(db, "COMMIT", 0, 0, 0), "COMMIT");
    sqlite3_finalize(llenas.borrar);
    sqlite3_finalize(llenas.canales);
    sqlite3_finalize(llenas.filtros);
    comprobar(sqlite3_close(db), "cerrar");
    printf("%.3f\n", ahora() - inicio);
    free(filas);
    return 0;
}
