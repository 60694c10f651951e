// libcurl is loaded with dlopen on first use instead of linked: it drags in some thirty
// shared libraries (TLS, Kerberos, LDAP…), which would add about 6 ms to the start of every
// command, including those that never touch the network. Only the header is needed to build.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the typed
// wrappers below give Swift one entry point per argument type. Transfers run through the multi
// interface so that another thread can wake a transfer (curl_multi_wakeup) and cancel it at
// once, whatever the peer is doing.
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

typedef struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    void (*easy_cleanup)(CURL *curl);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *curl);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *curl);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int n, int timeout_ms, int *numfds);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_timeout)(CURLM *multi, long *timeout_ms);
} marcador_curl_api;

// Fills `api`; returns 0 on success, -1 when libcurl (libcurl4 / libcurl3-gnutls, 7.68 or
// newer for curl_multi_poll and curl_multi_wakeup) is missing.
static inline int marcador_curl_cargar(marcador_curl_api *api) {
    const char *nombres[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"};
    void *biblioteca = NULL;
    for (size_t i = 0; i < sizeof nombres / sizeof nombres[0] && biblioteca == NULL; i++) {
        biblioteca = dlopen(nombres[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (biblioteca == NULL) return -1;
#define MARCADOR_CARGAR(campo, simbolo) \
    *(void **)(&api->campo) = dlsym(biblioteca, simbolo); \
    if (api->campo == NULL) return -1;
    MARCADOR_CARGAR(global_init, "curl_global_init")
    MARCADOR_CARGAR(easy_init, "curl_easy_init")
    MARCADOR_CARGAR(easy_setopt, "curl_easy_setopt")
    MARCADOR_CARGAR(easy_cleanup, "curl_easy_cleanup")
    MARCADOR_CARGAR(easy_getinfo, "curl_easy_getinfo")
    MARCADOR_CARGAR(easy_strerror, "curl_easy_strerror")
    MARCADOR_CARGAR(slist_append, "curl_slist_append")
    MARCADOR_CARGAR(slist_free_all, "curl_slist_free_all")
    MARCADOR_CARGAR(multi_init, "curl_multi_init")
    MARCADOR_CARGAR(multi_add_handle, "curl_multi_add_handle")
    MARCADOR_CARGAR(multi_remove_handle, "curl_multi_remove_handle")
    MARCADOR_CARGAR(multi_perform, "curl_multi_perform")
    MARCADOR_CARGAR(multi_poll, "curl_multi_poll")
    MARCADOR_CARGAR(multi_wakeup, "curl_multi_wakeup")
    MARCADOR_CARGAR(multi_info_read, "curl_multi_info_read")
    MARCADOR_CARGAR(multi_cleanup, "curl_multi_cleanup")
    MARCADOR_CARGAR(multi_timeout, "curl_multi_timeout")
#undef MARCADOR_CARGAR
    return api->global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK ? 0 : -1;
}

static inline CURLcode marcador_curl_setopt_long(const marcador_curl_api *api, CURL *curl, CURLoption option, long value) {
    return api->easy_setopt(curl, option, value);
}

static inline CURLcode marcador_curl_setopt_pointer(const marcador_curl_api *api, CURL *curl, CURLoption option, const void *value) {
    return api->easy_setopt(curl, option, value);
}

typedef size_t (*marcador_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode marcador_curl_setopt_data_callback(const marcador_curl_api *api, CURL *curl, CURLoption option, marcador_curl_data_callback callback) {
    return api->easy_setopt(curl, option, callback);
}

static inline CURLcode marcador_curl_getinfo_long(const marcador_curl_api *api, CURL *curl, CURLINFO info, long *value) {
    return api->easy_getinfo(curl, info, value);
}

static inline CURLcode marcador_curl_getinfo_string(const marcador_curl_api *api, CURL *curl, CURLINFO info, char **value) {
    return api->easy_getinfo(curl, info, value);
}

// The result of a finished transfer: CURLMsg keeps it in a union Swift reads awkwardly.
static inline int marcador_curl_mensaje_terminado(const CURLMsg *mensaje, CURLcode *resultado) {
    if (mensaje == NULL || mensaje->msg != CURLMSG_DONE) return 0;
    *resultado = mensaje->data.result;
    return 1;
}

// The transfer a finished-transfer message is about.
static inline CURL *marcador_curl_mensaje_easy(const CURLMsg *mensaje) {
    return mensaje == NULL ? NULL : mensaje->easy_handle;
}
