// A loopback HTTP/2 + TLS sink that answers like a push provider (contract.md §20), for
// `make bench-difusion` and the fan-out tests: APNs paths (/3/device/TOKEN) get 200, any other
// path 201 (Web Push), a token that starts with "dead" gets 410 Unregistered. It counts what it
// got and, with --estado, rewrites a line «requests first last» (unix seconds) every 50 ms.
//
//   sumidero --cert C --clave K [--puerto N] [--puerto-en F] [--estado F] [--registro F]
//            [--atascar N]
//
// --registro appends each request's path, one a line; --atascar N never answers on the N-th
// connection accepted (a stalled provider connection). One thread, epoll, non-blocking TLS,
// nghttp2's server session; at most 1000 concurrent streams a connection, as APNs allows.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int fd;
    SSL *ssl;
    nghttp2_session *sesion;
    int atascada;
    int lista;  // TLS handshake done
    unsigned char *salida;
    size_t salida_len, salida_cap, salida_pos;
} conexion;

typedef struct {
    char ruta[512];
    size_t ruta_len;
} flujo;

static long long peticiones = 0;
static double primero = 0, ultimo = 0;
static FILE *registro = NULL;
static int conexiones_aceptadas = 0;
static int atascar = 0;
static volatile sig_atomic_t seguir = 1;

static double ahora(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void fin(int senal) {
    (void)senal;
    seguir = 0;
}

static int alpn(SSL *ssl, const unsigned char **out, unsigned char *outlen,
                const unsigned char *in, unsigned int inlen, void *arg) {
    (void)ssl;
    (void)arg;
    if (nghttp2_select_next_protocol((unsigned char **)out, outlen, in, inlen) != 1)
        return SSL_TLSEXT_ERR_NOACK;
    return SSL_TLSEXT_ERR_OK;
}

static void guardar(conexion *c, const uint8_t *datos, size_t len) {
    if (c->salida_len + len > c->salida_cap) {
        size_t nueva = c->salida_cap ? c->salida_cap * 2 : 65536;
        while (nueva < c->salida_len + len) nueva *= 2;
        c->salida = realloc(c->salida, nueva);
        c->salida_cap = nueva;
    }
    memcpy(c->salida + c->salida_len, datos, len);
    c->salida_len += len;
}

// Moves nghttp2's frames to TLS; what TLS does not take now waits for EPOLLOUT.
static int vaciar(conexion *c) {
    for (;;) {
        const uint8_t *datos;
        ssize_t n = nghttp2_session_mem_send(c->sesion, &datos);
        if (n < 0) return -1;
        if (n == 0) break;
        guardar(c, datos, (size_t)n);
    }
    while (c->salida_pos < c->salida_len) {
        int n = SSL_write(c->ssl, c->salida + c->salida_pos, (int)(c->salida_len - c->salida_pos));
        if (n <= 0) {
            int e = SSL_get_error(c->ssl, n);
            if (e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ) return 0;
            return -1;
        }
        c->salida_pos += (size_t)n;
    }
    c->salida_len = c->salida_pos = 0;
    return 0;
}

static int al_empezar_cabeceras(nghttp2_session *s, const nghttp2_frame *f, void *u) {
    (void)u;
    if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    flujo *fl = calloc(1, sizeof(flujo));
    nghttp2_session_set_stream_user_data(s, f->hd.stream_id, fl);
    return 0;
}

static int al_leer_cabecera(nghttp2_session *s, const nghttp2_frame *f, const uint8_t *nombre,
                            size_t nlen, const uint8_t *valor, size_t vlen, uint8_t flags,
                            void *u) {
    (void)flags;
    (void)u;
    if (f->hd.type != NGHTTP2_HEADERS) return 0;
    flujo *fl = nghttp2_session_get_stream_user_data(s, f->hd.stream_id);
    if (fl && nlen == 5 && memcmp(nombre, ":path", 5) == 0) {
        fl->ruta_len = vlen < sizeof(fl->ruta) - 1 ? vlen : sizeof(fl->ruta) - 1;
        memcpy(fl->ruta, valor, fl->ruta_len);
        fl->ruta[fl->ruta_len] = 0;
    }
    return 0;
}

static const char cuerpo_410[] = "{\"reason\":\"Unregistered\"}";

static ssize_t leer_cuerpo(nghttp2_session *s, int32_t id, uint8_t *buf, size_t len,
                           uint32_t *flags, nghttp2_data_source *fuente, void *u) {
    (void)s;
    (void)id;
    (void)u;
    size_t n = strlen(cuerpo_410);
    if (n > len) n = len;
    memcpy(buf, fuente->ptr, n);
    *flags |= NGHTTP2_DATA_FLAG_EOF;
    return (ssize_t)n;
}

static int al_recibir(nghttp2_session *s, const nghttp2_frame *f, void *u) {
    conexion *c = u;
    if ((f->hd.type != NGHTTP2_HEADERS && f->hd.type != NGHTTP2_DATA) ||
        !(f->hd.flags & NGHTTP2_FLAG_END_STREAM))
        return 0;
    flujo *fl = nghttp2_session_get_stream_user_data(s, f->hd.stream_id);
    if (!fl) return 0;
    if (c->atascada) return 0;
    double t = ahora();
    if (peticiones == 0) primero = t;
    ultimo = t;
    peticiones++;
    if (registro) fprintf(registro, "%s\n", fl->ruta);
    const char *token = strncmp(fl->ruta, "/3/device/", 10) == 0 ? fl->ruta + 10 : NULL;
    const char *codigo = token ? "200" : "201";
    int muerto = token && strncmp(token, "dead", 4) == 0;
    if (muerto) codigo = "410";
    nghttp2_nv cabeceras[] = {
        {(uint8_t *)":status", (uint8_t *)codigo, 7, 3, NGHTTP2_NV_FLAG_NONE},
    };
    if (muerto) {
        nghttp2_data_provider cuerpo = {.source.ptr = (void *)cuerpo_410,
                                        .read_callback = leer_cuerpo};
        nghttp2_submit_response(s, f->hd.stream_id, cabeceras, 1, &cuerpo);
    } else {
        nghttp2_submit_response(s, f->hd.stream_id, cabeceras, 1, NULL);
    }
    return 0;
}

static int al_cerrar_flujo(nghttp2_session *s, int32_t id, uint32_t error, void *u) {
    (void)error;
    (void)u;
    free(nghttp2_session_get_stream_user_data(s, id));
    nghttp2_session_set_stream_user_data(s, id, NULL);
    return 0;
}

static void cerrar(int ep, conexion *c) {
    epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
    if (c->sesion) nghttp2_session_del(c->sesion);
    SSL_free(c->ssl);
    close(c->fd);
    free(c->salida);
    free(c);
}

static void escribir_estado(const char *ruta) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", ruta);
    FILE *f = fopen(tmp, "w");
    if (!f) return;
    fprintf(f, "%lld %.6f %.6f\n", peticiones, primero, ultimo);
    fclose(f);
    rename(tmp, ruta);
}

int main(int argc, char **argv) {
    const char *cert = NULL, *clave = NULL, *estado = NULL, *puerto_en = NULL;
    int puerto = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--cert")) cert = argv[i + 1];
        else if (!strcmp(argv[i], "--clave")) clave = argv[i + 1];
        else if (!strcmp(argv[i], "--puerto")) puerto = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--estado")) estado = argv[i + 1];
        else if (!strcmp(argv[i], "--puerto-en")) puerto_en = argv[i + 1];
        else if (!strcmp(argv[i], "--atascar")) atascar = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--registro")) registro = fopen(argv[i + 1], "a");
        else {
            fprintf(stderr, "sumidero: opción desconocida %s\n", argv[i]);
            return 64;
        }
    }
    if (!cert || !clave) {
        fprintf(stderr, "uso: sumidero --cert C --clave K [--puerto N] [--estado F] "
                        "[--registro F] [--atascar N]\n");
        return 64;
    }
    signal(SIGPIPE, SIG_IGN);
    signal(SIGTERM, fin);
    signal(SIGINT, fin);
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx, clave, SSL_FILETYPE_PEM) != 1) {
        fprintf(stderr, "sumidero: no se pudo leer el certificado o la clave\n");
        return 66;
    }
    SSL_CTX_set_alpn_select_cb(ctx, alpn, NULL);

    int escucha = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    int uno = 1;
    setsockopt(escucha, SOL_SOCKET, SO_REUSEADDR, &uno, sizeof uno);
    struct sockaddr_in dir = {.sin_family = AF_INET, .sin_port = htons((uint16_t)puerto),
                              .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(escucha, (struct sockaddr *)&dir, sizeof dir) != 0 || listen(escucha, 512) != 0) {
        perror("sumidero");
        return 74;
    }
    socklen_t largo = sizeof dir;
    getsockname(escucha, (struct sockaddr *)&dir, &largo);
    printf("%d\n", ntohs(dir.sin_port));
    fflush(stdout);
    if (puerto_en) {
        // Written aside and renamed: a reader never sees the file half written.
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s.tmp", puerto_en);
        FILE *f = fopen(tmp, "w");
        if (f) {
            fprintf(f, "%d", ntohs(dir.sin_port));
            fclose(f);
            rename(tmp, puerto_en);
        }
    }

    nghttp2_session_callbacks *cb;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, al_empezar_cabeceras);
    nghttp2_session_callbacks_set_on_header_callback(cb, al_leer_cabecera);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, al_recibir);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, al_cerrar_flujo);

    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(ep, EPOLL_CTL_ADD, escucha, &ev);
    struct epoll_event eventos[64];
    double ultimo_estado = 0;
    long long contado = -1;
    unsigned char buf[65536];
    while (seguir) {
        int n = epoll_wait(ep, eventos, 64, 50);
        for (int i = 0; i < n; i++) {
            if (eventos[i].data.ptr == NULL) {
                int fd;
                while ((fd = accept4(escucha, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &uno, sizeof uno);
                    conexion *c = calloc(1, sizeof(conexion));
                    c->fd = fd;
                    c->ssl = SSL_new(ctx);
                    SSL_set_fd(c->ssl, fd);
                    SSL_set_accept_state(c->ssl);
                    c->atascada = ++conexiones_aceptadas == atascar;
                    struct epoll_event e = {.events = EPOLLIN | EPOLLOUT | EPOLLET, .data.ptr = c};
                    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e);
                }
                continue;
            }
            conexion *c = eventos[i].data.ptr;
            int mal = 0;
            if (!c->lista) {
                int r = SSL_do_handshake(c->ssl);
                if (r != 1) {
                    int e = SSL_get_error(c->ssl, r);
                    if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) cerrar(ep, c);
                    continue;
                }
                c->lista = 1;
                nghttp2_session_server_new(&c->sesion, cb, c);
                nghttp2_settings_entry ajustes[] = {
                    {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 1000},
                    {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1 << 20},
                };
                nghttp2_submit_settings(c->sesion, NGHTTP2_FLAG_NONE, ajustes, 2);
                nghttp2_session_set_local_window_size(c->sesion, NGHTTP2_FLAG_NONE, 0, 1 << 24);
            }
            for (;;) {
                int r = SSL_read(c->ssl, buf, sizeof buf);
                if (r <= 0) {
                    int e = SSL_get_error(c->ssl, r);
                    if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE) mal = 1;
                    break;
                }
                if (nghttp2_session_mem_recv(c->sesion, buf, (size_t)r) < 0) {
                    mal = 1;
                    break;
                }
            }
            if (!mal && vaciar(c) != 0) mal = 1;
            if (mal) cerrar(ep, c);
        }
        double t = ahora();
        if (estado && contado != peticiones && t - ultimo_estado >= 0.05) {
            escribir_estado(estado);
            contado = peticiones;
            ultimo_estado = t;
            if (registro) fflush(registro);
        }
    }
    if (estado) escribir_estado(estado);
    if (registro) fclose(registro);
    fprintf(stderr, "sumidero: %lld peticiones\n", peticiones);
    return 0;
}
