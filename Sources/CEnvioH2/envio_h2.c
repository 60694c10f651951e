// Batches of HTTP/2 requests to one push provider over a few TLS connections kept open
// (contract.md §20). One thread runs a batch: poll() over the connections, nghttp2 frames them,
// OpenSSL encrypts. Per request it costs a few header pointers and a stream: libcurl's handle,
// a thread hand-over and a Swift task per request were what capped the dispatcher before.
#include "envio_h2.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { ESPERANDO = 0, EN_VUELO = 1, HECHA = 2 };

// A request's progress in the batch (the stream's user data while it is in flight).
typedef struct {
    int fase;
    int conexion;
    int32_t flujo;
    size_t enviado;
    double primer_envio; // ms; 0 until first sent
    size_t razon_len;
    int cierres; // streams closed by the server without an answer
    char largo[24];
} progreso;

typedef struct envio_h2_cliente envio_h2_cliente;

typedef struct {
    envio_h2_cliente *cliente;
    int indice;
    int fd;
    SSL *ssl;
    nghttp2_session *sesion;
    int viva;
    int muriendo;
    int abiertos;
    double ultimo; // ms: last bytes received, or when it went from idle to busy
    uint8_t *salida;
    size_t salida_len, salida_pos, capacidad;
    int quiere_escribir;
} conexion;

struct envio_h2_cliente {
    envio_h2_destino destino;
    char anfitrion[256];
    char ca[4096];
    char autoridad[300];
    SSL_CTX *ctx;
    conexion *conexiones;
    int abiertas_total;
    // The batch being sent.
    envio_h2_peticion *peticiones;
    progreso *progreso;
    size_t n, hechas;
    size_t *cola, cola_cabeza, cola_largo;
};

static double ahora_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void encolar(envio_h2_cliente *c, size_t i) {
    c->cola[(c->cola_cabeza + c->cola_largo) % c->n] = i;
    c->cola_largo++;
}

static void terminar(envio_h2_cliente *c, size_t i, const char *razon) {
    progreso *p = &c->progreso[i];
    if (p->fase == HECHA) return;
    p->fase = HECHA;
    c->hechas++;
    if (razon) snprintf(c->peticiones[i].razon, sizeof c->peticiones[i].razon, "%s", razon);
}

// The answer's `reason` (APNs' JSON error body), else what the body began with.
static void extraer_razon(envio_h2_peticion *pet) {
    const char *r = strstr(pet->razon, "\"reason\"");
    if (!r) return;
    r = strchr(r + 8, '"');
    if (!r) return;
    r++;
    char limpia[sizeof pet->razon];
    size_t k = 0;
    while (*r && *r != '"' && k + 1 < sizeof limpia) limpia[k++] = *r++;
    limpia[k] = 0;
    memcpy(pet->razon, limpia, k + 1);
}

// MARK: - nghttp2's callbacks

static int al_leer_cabecera(nghttp2_session *s, const nghttp2_frame *f, const uint8_t *nombre,
                            size_t nlen, const uint8_t *valor, size_t vlen, uint8_t flags,
                            void *u) {
    (void)flags;
    conexion *cx = u;
    if (f->hd.type != NGHTTP2_HEADERS) return 0;
    progreso *p = nghttp2_session_get_stream_user_data(s, f->hd.stream_id);
    if (!p) return 0;
    envio_h2_peticion *pet = &cx->cliente->peticiones[p - cx->cliente->progreso];
    char texto[16];
    if (vlen >= sizeof texto) return 0;
    if (nlen == 7 && memcmp(nombre, ":status", 7) == 0) {
        memcpy(texto, valor, vlen);
        texto[vlen] = 0;
        pet->estado = atoi(texto);
    } else if (nlen == 11 && memcmp(nombre, "retry-after", 11) == 0) {
        memcpy(texto, valor, vlen);
        texto[vlen] = 0;
        char *fin;
        long segundos = strtol(texto, &fin, 10);
        if (fin != texto && segundos >= 0) pet->reintentar_tras = (int)segundos;
    }
    return 0;
}

static int al_recibir_datos(nghttp2_session *s, uint8_t flags, int32_t id, const uint8_t *datos,
                            size_t len, void *u) {
    (void)flags;
    conexion *cx = u;
    progreso *p = nghttp2_session_get_stream_user_data(s, id);
    if (!p) return 0;
    envio_h2_peticion *pet = &cx->cliente->peticiones[p - cx->cliente->progreso];
    size_t cabe = sizeof pet->razon - 1 - p->razon_len;
    if (len > cabe) len = cabe;
    memcpy(pet->razon + p->razon_len, datos, len);
    p->razon_len += len;
    pet->razon[p->razon_len] = 0;
    return 0;
}

static int al_cerrar_flujo(nghttp2_session *s, int32_t id, uint32_t error, void *u) {
    conexion *cx = u;
    progreso *p = nghttp2_session_get_stream_user_data(s, id);
    if (!p || cx->muriendo) return 0;
    nghttp2_session_set_stream_user_data(s, id, NULL);
    envio_h2_cliente *c = cx->cliente;
    size_t i = (size_t)(p - c->progreso);
    cx->abiertos--;
    if (p->fase != EN_VUELO) return 0;
    envio_h2_peticion *pet = &c->peticiones[i];
    if (pet->estado > 0) {
        for (size_t k = 0; k < p->razon_len; k++)
            if ((unsigned char)pet->razon[k] < 0x20) pet->razon[k] = ' ';
        extraer_razon(pet);
        terminar(c, i, NULL);
    } else {
        // Closed without an answer (refused, GOAWAY past it): it goes again, twice at most (a
        // server that resets it every time refuses it).
        if (++p->cierres > 2) {
            char motivo[64];
            snprintf(motivo, sizeof motivo, "el servidor cerró el flujo sin responder (HTTP/2 %u)",
                     error);
            terminar(c, i, motivo);
        } else {
            p->fase = ESPERANDO;
            encolar(c, i);
        }
    }
    return 0;
}

static ssize_t leer_cuerpo(nghttp2_session *s, int32_t id, uint8_t *buf, size_t len,
                           uint32_t *flags, nghttp2_data_source *fuente, void *u) {
    (void)s;
    (void)id;
    conexion *cx = u;
    progreso *p = fuente->ptr;
    envio_h2_peticion *pet = &cx->cliente->peticiones[p - cx->cliente->progreso];
    size_t quedan = pet->largo - p->enviado;
    if (quedan > len) quedan = len;
    if (quedan) memcpy(buf, pet->cuerpo + p->enviado, quedan);
    p->enviado += quedan;
    if (p->enviado == pet->largo) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return (ssize_t)quedan;
}

// MARK: - Connections

static void cerrar(conexion *cx) {
    cx->muriendo = 1;
    if (cx->sesion) nghttp2_session_del(cx->sesion);
    if (cx->ssl) SSL_free(cx->ssl);
    if (cx->fd >= 0) close(cx->fd);
    free(cx->salida);
    envio_h2_cliente *c = cx->cliente;
    int indice = cx->indice;
    memset(cx, 0, sizeof *cx);
    cx->cliente = c;
    cx->indice = indice;
    cx->fd = -1;
}

// Closes a connection that failed or stalled; its requests without an answer go again.
static void matar(envio_h2_cliente *c, conexion *cx) {
    for (size_t i = 0; c->progreso && i < c->n; i++) {
        progreso *p = &c->progreso[i];
        if (p->fase == EN_VUELO && p->conexion == cx->indice) {
            p->fase = ESPERANDO;
            encolar(c, i);
        }
    }
    cerrar(cx);
}

static int esperar_fd(int fd, short eventos, double hasta) {
    for (;;) {
        double queda = hasta - ahora_ms();
        if (queda <= 0) return 0;
        struct pollfd pfd = {.fd = fd, .events = eventos};
        int r = poll(&pfd, 1, (int)queda + 1);
        if (r > 0) return 1;
        if (r < 0 && errno != EINTR) return 0;
    }
}

static int conectar_tcp(envio_h2_cliente *c, double hasta, char *error, size_t elen) {
    char puerto[16];
    snprintf(puerto, sizeof puerto, "%d", c->destino.puerto);
    struct addrinfo pista = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *lista;
    if (getaddrinfo(c->anfitrion, puerto, &pista, &lista) != 0) {
        snprintf(error, elen, "no se encuentra el servidor");
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *a = lista; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) continue;
        int r = connect(fd, a->ai_addr, a->ai_addrlen);
        if (r < 0 && errno == EINPROGRESS && esperar_fd(fd, POLLOUT, hasta)) {
            int e = 0;
            socklen_t l = sizeof e;
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &l);
            r = e == 0 ? 0 : -1;
        }
        if (r < 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(lista);
    if (fd < 0) snprintf(error, elen, "no se pudo conectar con el servidor");
    int uno = 1;
    if (fd >= 0) setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &uno, sizeof uno);
    return fd;
}

static int abrir(envio_h2_cliente *c, conexion *cx, char *error, size_t elen) {
    double hasta = ahora_ms() + c->destino.espera_ms;
    cx->fd = conectar_tcp(c, hasta, error, elen);
    if (cx->fd < 0) return -1;
    cx->ssl = SSL_new(c->ctx);
    if (!cx->ssl) goto tls;
    SSL_set_fd(cx->ssl, cx->fd);
    struct in6_addr ip;
    int es_ip = inet_pton(AF_INET, c->anfitrion, &ip) == 1 || inet_pton(AF_INET6, c->anfitrion, &ip) == 1;
    X509_VERIFY_PARAM *param = SSL_get0_param(cx->ssl);
    if (es_ip) {
        X509_VERIFY_PARAM_set1_ip_asc(param, c->anfitrion);
    } else {
        SSL_set_tlsext_host_name(cx->ssl, c->anfitrion);
        X509_VERIFY_PARAM_set1_host(param, c->anfitrion, 0);
    }
    for (;;) {
        int r = SSL_connect(cx->ssl);
        if (r == 1) break;
        int e = SSL_get_error(cx->ssl, r);
        if (e == SSL_ERROR_WANT_READ && esperar_fd(cx->fd, POLLIN, hasta)) continue;
        if (e == SSL_ERROR_WANT_WRITE && esperar_fd(cx->fd, POLLOUT, hasta)) continue;
        goto tls;
    }
    const unsigned char *alpn = NULL;
    unsigned alpn_len = 0;
    SSL_get0_alpn_selected(cx->ssl, &alpn, &alpn_len);
    if (alpn_len != 2 || memcmp(alpn, "h2", 2) != 0) {
        snprintf(error, elen, "el servidor no habla HTTP/2");
        cerrar(cx);
        return -1;
    }
    nghttp2_session_callbacks *cb;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(cb, al_leer_cabecera);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, al_recibir_datos);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, al_cerrar_flujo);
    int r = nghttp2_session_client_new(&cx->sesion, cb, cx);
    nghttp2_session_callbacks_del(cb);
    if (r != 0) {
        snprintf(error, elen, "sin memoria para HTTP/2");
        cerrar(cx);
        return -1;
    }
    nghttp2_settings_entry ajustes[] = {
        {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1 << 20},
    };
    nghttp2_submit_settings(cx->sesion, NGHTTP2_FLAG_NONE, ajustes, 2);
    nghttp2_session_set_local_window_size(cx->sesion, NGHTTP2_FLAG_NONE, 0, 1 << 24);
    cx->viva = 1;
    cx->ultimo = ahora_ms();
    c->abiertas_total++;
    return 0;
tls:
    snprintf(error, elen, "falló la conexión segura (TLS)");
    ERR_clear_error();
    cerrar(cx);
    return -1;
}

static int escribir(conexion *cx) {
    for (;;) {
        if (cx->salida_pos == cx->salida_len) {
            cx->salida_pos = cx->salida_len = 0;
            while (cx->salida_len < 32768) {
                const uint8_t *datos;
                ssize_t m = nghttp2_session_mem_send(cx->sesion, &datos);
                if (m < 0) return -1;
                if (m == 0) break;
                if (cx->salida_len + (size_t)m > cx->capacidad) {
                    size_t nueva = cx->capacidad ? cx->capacidad * 2 : 65536;
                    while (nueva < cx->salida_len + (size_t)m) nueva *= 2;
                    uint8_t *b = realloc(cx->salida, nueva);
                    if (!b) return -1;
                    cx->salida = b;
                    cx->capacidad = nueva;
                }
                memcpy(cx->salida + cx->salida_len, datos, (size_t)m);
                cx->salida_len += (size_t)m;
            }
            if (cx->salida_len == 0) {
                cx->quiere_escribir = 0;
                return 0;
            }
        }
        int w = SSL_write(cx->ssl, cx->salida + cx->salida_pos, (int)(cx->salida_len - cx->salida_pos));
        if (w <= 0) {
            int e = SSL_get_error(cx->ssl, w);
            if (e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ) {
                cx->quiere_escribir = 1;
                return 0;
            }
            return -1;
        }
        cx->salida_pos += (size_t)w;
    }
}

static int leer(conexion *cx) {
    uint8_t buf[32768];
    for (;;) {
        int r = SSL_read(cx->ssl, buf, sizeof buf);
        if (r <= 0) {
            int e = SSL_get_error(cx->ssl, r);
            if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) return 0;
            return -1;
        }
        cx->ultimo = ahora_ms();
        if (nghttp2_session_mem_recv(cx->sesion, buf, (size_t)r) < 0) return -1;
        if (!cx->viva) return -1;
    }
}

// MARK: - The client

struct envio_h2_parada {
    atomic_int alzada;
};

envio_h2_parada *envio_h2_parada_nueva(void) { return calloc(1, sizeof(envio_h2_parada)); }
void envio_h2_parar(envio_h2_parada *p) { atomic_store(&p->alzada, 1); }
void envio_h2_parada_liberar(envio_h2_parada *p) { free(p); }

envio_h2_cliente *envio_h2_nuevo(const envio_h2_destino *destino) {
    // A peer that closes while we write must be an error of that connection, not the end of
    // the process (SIGPIPE's default); only a default disposition is changed.
    struct sigaction actual;
    if (sigaction(SIGPIPE, NULL, &actual) == 0 && actual.sa_handler == SIG_DFL)
        signal(SIGPIPE, SIG_IGN);
    envio_h2_cliente *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->destino = *destino;
    if (c->destino.conexiones < 1) c->destino.conexiones = 1;
    if (c->destino.maximo_por_conexion < 1) c->destino.maximo_por_conexion = 100;
    if (c->destino.espera_ms < 1) c->destino.espera_ms = 10000;
    if (c->destino.atasco_ms < 1) c->destino.atasco_ms = 2000;
    snprintf(c->anfitrion, sizeof c->anfitrion, "%s", destino->anfitrion ? destino->anfitrion : "");
    snprintf(c->ca, sizeof c->ca, "%s", destino->ca ? destino->ca : "");
    c->destino.anfitrion = c->anfitrion;
    c->destino.ca = destino->ca ? c->ca : NULL;
    int ipv6 = strchr(c->anfitrion, ':') != NULL;
    snprintf(c->autoridad, sizeof c->autoridad, ipv6 ? "[%s]:%d" : "%s:%d", c->anfitrion,
             c->destino.puerto);
    c->ctx = SSL_CTX_new(TLS_client_method());
    c->conexiones = calloc((size_t)c->destino.conexiones, sizeof(conexion));
    if (!c->ctx || !c->conexiones) {
        envio_h2_liberar(c);
        return NULL;
    }
    SSL_CTX_set_min_proto_version(c->ctx, TLS1_2_VERSION);
    SSL_CTX_set_verify(c->ctx, SSL_VERIFY_PEER, NULL);
    if (c->destino.ca)
        SSL_CTX_load_verify_locations(c->ctx, c->ca, NULL);
    else
        SSL_CTX_set_default_verify_paths(c->ctx);
    static const unsigned char alpn[] = {2, 'h', '2'};
    SSL_CTX_set_alpn_protos(c->ctx, alpn, sizeof alpn);
    for (int k = 0; k < c->destino.conexiones; k++) {
        c->conexiones[k].cliente = c;
        c->conexiones[k].indice = k;
        c->conexiones[k].fd = -1;
    }
    return c;
}

void envio_h2_liberar(envio_h2_cliente *c) {
    if (!c) return;
    for (int k = 0; c->conexiones && k < c->destino.conexiones; k++)
        if (c->conexiones[k].viva || c->conexiones[k].fd >= 0) cerrar(&c->conexiones[k]);
    free(c->conexiones);
    if (c->ctx) SSL_CTX_free(c->ctx);
    free(c);
}

int envio_h2_conexiones_abiertas(const envio_h2_cliente *c) { return c->abiertas_total; }

static int limite(envio_h2_cliente *c, conexion *cx) {
    uint32_t servidor =
        nghttp2_session_get_remote_settings(cx->sesion, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
    int maximo = c->destino.maximo_por_conexion;
    return servidor < (uint32_t)maximo ? (int)servidor : maximo;
}

static int someter(envio_h2_cliente *c, conexion *cx, size_t i, double ahora) {
    envio_h2_peticion *pet = &c->peticiones[i];
    progreso *p = &c->progreso[i];
    nghttp2_nv nv[40];
    int n = 0;
#define NV(nombre, valor, vlen)                                                                \
    nv[n++] = (nghttp2_nv){(uint8_t *)(nombre), (uint8_t *)(valor), strlen(nombre), (vlen),     \
                           NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE}
    NV(":method", "POST", 4);
    NV(":scheme", "https", 5);
    NV(":authority", c->autoridad, strlen(c->autoridad));
    NV(":path", pet->ruta, strlen(pet->ruta));
    snprintf(p->largo, sizeof p->largo, "%zu", pet->largo);
    NV("content-length", p->largo, strlen(p->largo));
    for (int k = 0; k < pet->n_cabeceras && n < 40; k++)
        NV(pet->cabeceras[2 * k], pet->cabeceras[2 * k + 1], strlen(pet->cabeceras[2 * k + 1]));
    if (pet->extra_nombre) NV(pet->extra_nombre, pet->extra_valor, strlen(pet->extra_valor));
#undef NV
    p->enviado = 0;
    p->razon_len = 0;
    pet->razon[0] = 0;
    pet->estado = 0;
    pet->reintentar_tras = -1;
    nghttp2_data_provider cuerpo = {.source.ptr = p, .read_callback = leer_cuerpo};
    int32_t flujo = nghttp2_submit_request(cx->sesion, NULL, nv, (size_t)n, &cuerpo, p);
    if (flujo < 0) return -1;
    if (cx->abiertos == 0) cx->ultimo = ahora;
    cx->abiertos++;
    p->fase = EN_VUELO;
    p->conexion = cx->indice;
    p->flujo = flujo;
    if (p->primer_envio == 0) p->primer_envio = ahora;
    return 0;
}

int envio_h2_enviar(envio_h2_cliente *c, envio_h2_peticion *peticiones, size_t n,
                    envio_h2_parada *parar) {
    if (n == 0) return 0;
    c->peticiones = peticiones;
    c->n = n;
    c->hechas = 0;
    c->progreso = calloc(n, sizeof(progreso));
    c->cola = malloc(n * sizeof(size_t));
    if (!c->progreso || !c->cola) {
        for (size_t i = 0; i < n; i++) {
            peticiones[i].estado = 0;
            snprintf(peticiones[i].razon, sizeof peticiones[i].razon, "sin memoria");
        }
        free(c->progreso);
        free(c->cola);
        c->progreso = NULL;
        c->cola = NULL;
        return -1;
    }
    c->cola_cabeza = 0;
    c->cola_largo = 0;
    for (size_t i = 0; i < n; i++) {
        peticiones[i].estado = 0;
        peticiones[i].reintentar_tras = -1;
        peticiones[i].razon[0] = 0;
        encolar(c, i);
    }
    int resultado = 0;
    char error[96] = "";
    int k_total = c->destino.conexiones;
    struct pollfd *pfd = calloc((size_t)k_total, sizeof(struct pollfd));
    while (c->hechas < n) {
        double ahora = ahora_ms();
        if (parar && atomic_load(&parar->alzada)) {
            for (int k = 0; k < k_total; k++)
                if (c->conexiones[k].viva) cerrar(&c->conexiones[k]);
            for (size_t i = 0; i < n; i++) terminar(c, i, "cancelada");
            break;
        }
        // Deadlines: a request still without an answer after espera_ms fails (the stream is
        // reset so a late answer is not read as another's).
        for (size_t i = 0; i < n; i++) {
            progreso *p = &c->progreso[i];
            if (p->fase == HECHA || p->primer_envio == 0) continue;
            if (ahora - p->primer_envio < c->destino.espera_ms) continue;
            if (p->fase == EN_VUELO) {
                conexion *cx = &c->conexiones[p->conexion];
                if (cx->viva) {
                    nghttp2_session_set_stream_user_data(cx->sesion, p->flujo, NULL);
                    nghttp2_submit_rst_stream(cx->sesion, NGHTTP2_FLAG_NONE, p->flujo,
                                              NGHTTP2_CANCEL);
                    cx->abiertos--;
                }
            }
            char motivo[64];
            snprintf(motivo, sizeof motivo, "tiempo agotado tras %d s", c->destino.espera_ms / 1000);
            terminar(c, i, motivo);
        }
        if (c->hechas >= n) break;
        // A connection with streams out that has said nothing for atasco_ms is replaced.
        for (int k = 0; k < k_total; k++) {
            conexion *cx = &c->conexiones[k];
            if (cx->viva && cx->abiertos > 0 && ahora - cx->ultimo > c->destino.atasco_ms)
                matar(c, cx);
        }
        // Open what is missing.
        int vivas = 0;
        for (int k = 0; k < k_total; k++) {
            conexion *cx = &c->conexiones[k];
            if (!cx->viva && c->cola_largo > 0) abrir(c, cx, error, sizeof error);
            vivas += cx->viva;
        }
        if (vivas == 0) {
            for (size_t i = 0; i < n; i++) terminar(c, i, error[0] ? error : "error de red");
            resultado = -1;
            break;
        }
        // Hand the waiting requests to the least busy connections.
        while (c->cola_largo > 0) {
            conexion *mejor = NULL;
            for (int k = 0; k < k_total; k++) {
                conexion *cx = &c->conexiones[k];
                if (!cx->viva || cx->abiertos >= limite(c, cx)) continue;
                if (!mejor || cx->abiertos < mejor->abiertos) mejor = cx;
            }
            if (!mejor) break;
            size_t i = c->cola[c->cola_cabeza];
            c->cola_cabeza = (c->cola_cabeza + 1) % n;
            c->cola_largo--;
            if (c->progreso[i].fase != ESPERANDO) continue;
            if (someter(c, mejor, i, ahora) != 0) {
                terminar(c, i, "HTTP/2 no aceptó la petición");
            }
        }
        for (int k = 0; k < k_total; k++) {
            conexion *cx = &c->conexiones[k];
            if (cx->viva && escribir(cx) != 0) matar(c, cx);
        }
        int m = 0;
        int indices[64];
        for (int k = 0; k < k_total && m < 64; k++) {
            conexion *cx = &c->conexiones[k];
            if (!cx->viva) continue;
            pfd[m] = (struct pollfd){.fd = cx->fd,
                                     .events = (short)(POLLIN | (cx->quiere_escribir ? POLLOUT : 0))};
            indices[m++] = k;
        }
        // SSL may hold decrypted bytes the socket no longer shows.
        int pendiente = 0;
        for (int j = 0; j < m; j++) pendiente |= SSL_pending(c->conexiones[indices[j]].ssl) > 0;
        int r = poll(pfd, (nfds_t)m, pendiente ? 0 : 50);
        if (r < 0 && errno != EINTR) break;
        for (int j = 0; j < m; j++) {
            conexion *cx = &c->conexiones[indices[j]];
            if (!cx->viva) continue;
            if ((pfd[j].revents & (POLLIN | POLLERR | POLLHUP)) || SSL_pending(cx->ssl) > 0) {
                if (leer(cx) != 0) {
                    matar(c, cx);
                    continue;
                }
            }
            if (!nghttp2_session_want_read(cx->sesion) && !nghttp2_session_want_write(cx->sesion)) {
                matar(c, cx);
                continue;
            }
            if (escribir(cx) != 0) matar(c, cx);
        }
    }
    free(pfd);
    free(c->progreso);
    free(c->cola);
    c->progreso = NULL;
    c->cola = NULL;
    c->peticiones = NULL;
    return resultado;
}
