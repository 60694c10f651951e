// libevent (evhttp) for `marcador servir`, loaded with dlopen when the server starts: every
// other command runs without it, and a machine without libevent only loses `servir`, with a
// message saying which package to install. Only the headers (libevent-dev) are needed to build.
//
// Everything runs on the server's one event-loop thread; these are libevent's own functions,
// reached through one table so Swift calls them like any C function pointer.
#include <dlfcn.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <stddef.h>

typedef struct {
    struct event_base *(*base_new)(void);
    void (*base_free)(struct event_base *);
    int (*base_dispatch)(struct event_base *);
    int (*base_loopbreak)(struct event_base *);
    struct event *(*event_new)(struct event_base *, evutil_socket_t, short,
                               void (*)(evutil_socket_t, short, void *), void *);
    int (*event_add)(struct event *, const struct timeval *);
    void (*event_free)(struct event *);

    struct evhttp *(*http_new)(struct event_base *);
    void (*http_free)(struct evhttp *);
    struct evhttp_bound_socket *(*bind_socket_with_handle)(struct evhttp *, const char *,
                                                           ev_uint16_t);
    struct evhttp_bound_socket *(*accept_socket_with_handle)(struct evhttp *, evutil_socket_t);
    evutil_socket_t (*bound_socket_get_fd)(struct evhttp_bound_socket *);
    void (*set_gencb)(struct evhttp *, void (*)(struct evhttp_request *, void *), void *);
    void (*set_max_headers_size)(struct evhttp *, ev_ssize_t);
    void (*set_max_body_size)(struct evhttp *, ev_ssize_t);
    void (*set_timeout)(struct evhttp *, int);
    void (*set_allowed_methods)(struct evhttp *, ev_uint16_t);

    enum evhttp_cmd_type (*request_get_command)(const struct evhttp_request *);
    const char *(*request_get_uri)(const struct evhttp_request *);
    const struct evhttp_uri *(*request_get_evhttp_uri)(const struct evhttp_request *);
    const char *(*uri_get_path)(const struct evhttp_uri *);
    const char *(*uri_get_query)(const struct evhttp_uri *);
    struct evkeyvalq *(*request_get_input_headers)(struct evhttp_request *);
    struct evkeyvalq *(*request_get_output_headers)(struct evhttp_request *);
    struct evbuffer *(*request_get_input_buffer)(struct evhttp_request *);
    struct evhttp_connection *(*request_get_connection)(struct evhttp_request *);
    int (*add_header)(struct evkeyvalq *, const char *, const char *);
    void (*send_reply)(struct evhttp_request *, int, const char *, struct evbuffer *);
    void (*send_reply_start)(struct evhttp_request *, int, const char *);
    void (*send_reply_chunk)(struct evhttp_request *, struct evbuffer *);
    void (*send_reply_end)(struct evhttp_request *);
    void (*connection_set_closecb)(struct evhttp_connection *,
                                   void (*)(struct evhttp_connection *, void *), void *);
    struct bufferevent *(*connection_get_bufferevent)(struct evhttp_connection *);
    struct evbuffer *(*bufferevent_get_output)(struct bufferevent *);

    struct evbuffer *(*buffer_new)(void);
    void (*buffer_free)(struct evbuffer *);
    int (*buffer_add)(struct evbuffer *, const void *, size_t);
    size_t (*buffer_get_length)(const struct evbuffer *);
    ev_ssize_t (*buffer_copyout)(struct evbuffer *, void *, size_t);
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
    MARCADOR_EVENTO(event_free, "event_free")
    MARCADOR_EVENTO(http_new, "evhttp_new")
    MARCADOR_EVENTO(http_free, "evhttp_free")
    MARCADOR_EVENTO(bind_socket_with_handle, "evhttp_bind_socket_with_handle")
    MARCADOR_EVENTO(accept_socket_with_handle, "evhttp_accept_socket_with_handle")
    MARCADOR_EVENTO(bound_socket_get_fd, "evhttp_bound_socket_get_fd")
    MARCADOR_EVENTO(set_gencb, "evhttp_set_gencb")
    MARCADOR_EVENTO(set_max_headers_size, "evhttp_set_max_headers_size")
    MARCADOR_EVENTO(set_max_body_size, "evhttp_set_max_body_size")
    MARCADOR_EVENTO(set_timeout, "evhttp_set_timeout")
    MARCADOR_EVENTO(set_allowed_methods, "evhttp_set_allowed_methods")
    MARCADOR_EVENTO(request_get_command, "evhttp_request_get_command")
    MARCADOR_EVENTO(request_get_uri, "evhttp_request_get_uri")
    MARCADOR_EVENTO(request_get_evhttp_uri, "evhttp_request_get_evhttp_uri")
    MARCADOR_EVENTO(uri_get_path, "evhttp_uri_get_path")
    MARCADOR_EVENTO(uri_get_query, "evhttp_uri_get_query")
    MARCADOR_EVENTO(request_get_input_headers, "evhttp_request_get_input_headers")
    MARCADOR_EVENTO(request_get_output_headers, "evhttp_request_get_output_headers")
    MARCADOR_EVENTO(request_get_input_buffer, "evhttp_request_get_input_buffer")
    MARCADOR_EVENTO(request_get_connection, "evhttp_request_get_connection")
    MARCADOR_EVENTO(add_header, "evhttp_add_header")
    MARCADOR_EVENTO(send_reply, "evhttp_send_reply")
    MARCADOR_EVENTO(send_reply_start, "evhttp_send_reply_start")
    MARCADOR_EVENTO(send_reply_chunk, "evhttp_send_reply_chunk")
    MARCADOR_EVENTO(send_reply_end, "evhttp_send_reply_end")
    MARCADOR_EVENTO(connection_set_closecb, "evhttp_connection_set_closecb")
    MARCADOR_EVENTO(connection_get_bufferevent, "evhttp_connection_get_bufferevent")
    MARCADOR_EVENTO(bufferevent_get_output, "bufferevent_get_output")
    MARCADOR_EVENTO(buffer_new, "evbuffer_new")
    MARCADOR_EVENTO(buffer_free, "evbuffer_free")
    MARCADOR_EVENTO(buffer_add, "evbuffer_add")
    MARCADOR_EVENTO(buffer_get_length, "evbuffer_get_length")
    MARCADOR_EVENTO(buffer_copyout, "evbuffer_copyout")
#undef MARCADOR_EVENTO
    return 0;
}
