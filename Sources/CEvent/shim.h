// libevent for `marcador servir`, loaded with dlopen when the server starts: every other command
// runs without it, and a machine without libevent only loses `servir`, with a message saying
// which package to install. Only the headers (libevent-dev) are needed to build.
//
// The server uses libevent's loop, its listener and its buffered sockets; HTTP/1.1 itself is
// parsed by `Sources/Servidor` (evhttp in 2.1 can neither bound its connections, nor give a
// header deadline, nor put headers on its own error pages: issue 41). Everything runs on the
// server's one event-loop thread; these are libevent's own functions, reached through one
// table so Swift calls them like any C function pointer.
#include <dlfcn.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <stddef.h>

typedef struct {
    struct event_base *(*base_new)(void);
    void (*base_free)(struct event_base *);
    int (*base_dispatch)(struct event_base *);
    int (*base_loopbreak)(struct event_base *);
    struct event *(*event_new)(struct event_base *, evutil_socket_t, short,
                               void (*)(evutil_socket_t, short, void *), void *);
    int (*event_add)(struct event *, const struct timeval *);
    int (*event_del)(struct event *);
    void (*event_free)(struct event *);

    struct evconnlistener *(*listener_new)(struct event_base *, evconnlistener_cb, void *,
                                           unsigned, int, evutil_socket_t);
    void (*listener_free)(struct evconnlistener *);
    int (*listener_enable)(struct evconnlistener *);
    int (*listener_disable)(struct evconnlistener *);
    void (*listener_set_error_cb)(struct evconnlistener *, evconnlistener_errorcb);

    struct bufferevent *(*socket_new)(struct event_base *, evutil_socket_t, int);
    void (*setcb)(struct bufferevent *, bufferevent_data_cb, bufferevent_data_cb,
                  bufferevent_event_cb, void *);
    int (*enable)(struct bufferevent *, short);
    int (*disable)(struct bufferevent *, short);
    void (*bufferevent_free)(struct bufferevent *);
    struct evbuffer *(*get_input)(struct bufferevent *);
    struct evbuffer *(*get_output)(struct bufferevent *);
    int (*write)(struct bufferevent *, const void *, size_t);
    int (*set_timeouts)(struct bufferevent *, const struct timeval *, const struct timeval *);

    size_t (*buffer_get_length)(const struct evbuffer *);
    unsigned char *(*buffer_pullup)(struct evbuffer *, ev_ssize_t);
    int (*buffer_drain)(struct evbuffer *, size_t);
} marcador_event_api;

// Fills `api`; returns 0 on success, -1 when libevent 2.1 (Debian's libevent-2.1-7) is missing.
static inline int marcador_event_cargar(marcador_event_api *api) {
    const char *nombres[] = {"libevent-2.1.so.7", "libevent.so"};
    void *biblioteca = NULL;
    for (size_t i = 0; i < sizeof nombres / sizeof nombres[0] && biblioteca == NULL; i++) {
        biblioteca = dlopen(nombres[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (biblioteca == NULL) return -1;
#define MARCADOR_EVENTO(campo, simbolo) \
    *(void **)(&api->campo) = dlsym(biblioteca, simbolo); \
    if (api->campo == NULL) return -1;
    MARCADOR_EVENTO(base_new, "event_base_new")
    MARCADOR_EVENTO(base_free, "event_base_free")
    MARCADOR_EVENTO(base_dispatch, "event_base_dispatch")
    MARCADOR_EVENTO(base_loopbreak, "event_base_loopbreak")
    MARCADOR_EVENTO(event_new, "event_new")
    MARCADOR_EVENTO(event_add, "event_add")
    MARCADOR_EVENTO(event_del, "event_del")
    MARCADOR_EVENTO(event_free, "event_free")
    MARCADOR_EVENTO(listener_new, "evconnlistener_new")
    MARCADOR_EVENTO(listener_free, "evconnlistener_free")
    MARCADOR_EVENTO(listener_enable, "evconnlistener_enable")
    MARCADOR_EVENTO(listener_disable, "evconnlistener_disable")
    MARCADOR_EVENTO(listener_set_error_cb, "evconnlistener_set_error_cb")
    MARCADOR_EVENTO(socket_new, "bufferevent_socket_new")
    MARCADOR_EVENTO(setcb, "bufferevent_setcb")
    MARCADOR_EVENTO(enable, "bufferevent_enable")
    MARCADOR_EVENTO(disable, "bufferevent_disable")
    MARCADOR_EVENTO(bufferevent_free, "bufferevent_free")
    MARCADOR_EVENTO(get_input, "bufferevent_get_input")
    MARCADOR_EVENTO(get_output, "bufferevent_get_output")
    MARCADOR_EVENTO(write, "bufferevent_write")
    MARCADOR_EVENTO(set_timeouts, "bufferevent_set_timeouts")
    MARCADOR_EVENTO(buffer_get_length, "evbuffer_get_length")
    MARCADOR_EVENTO(buffer_pullup, "evbuffer_pullup")
    MARCADOR_EVENTO(buffer_drain, "evbuffer_drain")
#undef MARCADOR_EVENTO
    return 0;
}
