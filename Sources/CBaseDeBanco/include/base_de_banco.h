// Baselines for `make bench`, in C: each runs exactly the statements and transactions of the
// marcador figure it stands beside, on marcador's own schema, with every statement (BEGIN and
// COMMIT included) prepared once. What is left between the two is the cost of marcador's Swift
// layers, nothing else.
#ifndef BASE_DE_BANCO_H
#define BASE_DE_BANCO_H

typedef struct marcador_base marcador_base;

/// A scripted goal as the engine plays it.
typedef struct {
    int minuto;
    int anadido;
    int lado;               // 0 local, 1 visitante
    const char *identificador;
    const char *cuerpo;
    const char *jugador;
    const char *equipo;
} marcador_gol;

/// Opens the database at `ruta` (already migrated and seeded by marcador) and prepares every
/// statement. NULL on failure.
marcador_base *marcador_base_abrir(const char *ruta);
void marcador_base_cerrar(marcador_base *base);

/// One run of match `partido` from 0 to 90 at 0 ms a minute: the start transaction (stop the
/// others, read the settings, insert the run), 90 minute transactions (with the outbox rows of
/// the minutes with goals), the end transaction and the TERMINADO log line.
/// Returns 0, or the SQLite error code.
int marcador_base_partido(
    marcador_base *base, int partido, const marcador_gol *goles, int n, double ahora);

/// Drains channel `canal` as marcador's dispatcher does, batch by batch: claim with its
/// ordering rule and read the notices in one transaction, mark the batch delivered in another.
/// Returns the rows delivered, or -1.
int marcador_base_despachar(marcador_base *base, const char *canal, int lote, double ahora);

/// The best design for the same work: a plain claim `UPDATE … RETURNING`, one read and one mark
/// per batch, without marcador's per-run ordering rule. Returns the rows delivered, or -1.
int marcador_base_despachar_optimo(marcador_base *base, const char *canal, int lote, double ahora);

/// `marcador_base_despachar` on the log channel: each batch's log lines are also formatted,
/// written to `fd` and inserted into `registro` in one transaction, as the `registro` channel
/// does. Returns the rows delivered, or -1.
int marcador_base_despachar_registro(
    marcador_base *base, const char *canal, int lote, double ahora, int fd);

/// Calls `al_ejecutar` with the SQL text of every statement the baseline starts (not those its
/// triggers run), until called with NULL: the bench compares it with marcador's own.
void marcador_base_trazar(
    marcador_base *base, void (*al_ejecutar)(const char *sql, void *contexto), void *contexto);

#endif
