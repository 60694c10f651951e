#ifndef MARCADOR_ENVIO_H2_H
#define MARCADOR_ENVIO_H2_H

#include <stddef.h>
#include <stdint.h>

// Many requests to one push provider at once (contract.md §20): HTTP/2 over TLS on libnghttp2
// and OpenSSL, several connections kept open between batches, each carrying up to the
// server's concurrent-stream limit. A batch is handed over whole and returns when every
// request has an answer, its deadline has passed, or the caller asked to stop: no thread, task
// or handle per request. A connection that stays silent with streams outstanding is replaced
// and its requests go again on the others (same headers: the same apns-id or Topic).

typedef struct envio_h2_cliente envio_h2_cliente;

typedef struct {
    const char *anfitrion;   // host name or IP literal (TLS checks it against the certificate)
    int puerto;
    const char *ca;          // CA file, or NULL for the system's
    int conexiones;          // connections kept open
    int maximo_por_conexion; // streams per connection at most (the server's limit also holds)
    int espera_ms;           // a request without an answer this long fails (no answer)
    int atasco_ms;           // a connection silent this long with streams out is replaced
} envio_h2_destino;

typedef struct {
    // In: ":path", headers as name/value pairs (`n_cabeceras` pairs, shared by many requests),
    // one header of its own (`extra_nombre` NULL: none), the body.
    const char *ruta;
    const char *const *cabeceras;
    int n_cabeceras;
    const char *extra_nombre;
    const char *extra_valor;
    const uint8_t *cuerpo;
    size_t largo;
    // Out: the HTTP status (0: no answer), Retry-After in seconds (-1: none), and the answer's
    // `reason` (APNs) or the first bytes of its body, NUL-terminated.
    int estado;
    int reintentar_tras;
    char razon[96];
} envio_h2_peticion;

// A client for `destino` (copied); NULL without memory. Connections open with the first batch.
envio_h2_cliente *envio_h2_nuevo(const envio_h2_destino *destino);
void envio_h2_liberar(envio_h2_cliente *cliente);

// A stop flag another thread may raise while a batch runs.
typedef struct envio_h2_parada envio_h2_parada;
envio_h2_parada *envio_h2_parada_nueva(void);
void envio_h2_parar(envio_h2_parada *parada);
void envio_h2_parada_liberar(envio_h2_parada *parada);

// Sends `n` requests and fills in their answers. `parar`, when not NULL, is read between
// rounds: once raised, requests still without an answer are left with estado 0 and razon
// "cancelada". Returns 0, or -1 when no connection could be opened (every request then
// carries the reason in `razon`: e.g. "falló la conexión segura (TLS)").
int envio_h2_enviar(envio_h2_cliente *cliente, envio_h2_peticion *peticiones, size_t n,
                    envio_h2_parada *parar);

// Connections opened by this client so far (a test counts reconnections).
int envio_h2_conexiones_abiertas(const envio_h2_cliente *cliente);

#endif
