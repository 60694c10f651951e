// libcurl is loaded with dlopen on first use instead of linked: it drags in some thirty
// shared libraries (TLS, Kerberos, LDAP…), which would add about 6 ms to the start of every
// command, including those that never touch the network. Only the header is needed to build.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the typed
// wrappers below give Swift one entry point per argument type.
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

typedef struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_perform)(CURL *curl);
    void (*easy_cleanup)(CURL *curl);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
} marcador_curl_api;

// Fills `api`; returns 0 on success, -1 when libcurl (libcurl4 / libcurl3-gnutls) is missing.
static inline int marcador_curl_cargar(marcador_curl_api *api) {
    const char *nombres[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"};
    void *biblioteca = NULL;
    for (size_t i = 0; i < sizeof nombres / sizeof nombres[0] && biblioteca == NULL; i++) {
        biblioteca = dlopen(nombres[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (biblioteca == NULL) return -1;
    api->global_init = (CURLcode (*)(long))dlsym(biblioteca, "curl_global_init");
    api->easy_init = (CURL *(*)(void))dlsym(biblioteca, "curl_easy_init");
    api->easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(biblioteca, "curl_easy_setopt");
    api->easy_perform = (CURLcode (*)(CURL *))dlsym(biblioteca, "curl_easy_perform");
    api->easy_cleanup = (void (*)(CURL *))dlsym(biblioteca, "curl_easy_cleanup");
    api->easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(biblioteca, "curl_easy_getinfo");
    api->easy_strerror = (const char *(*)(CURLcode))dlsym(biblioteca, "curl_easy_strerror");
    api->slist_append = (struct curl_slist *(*)(struct curl_slist *, const char *))dlsym(biblioteca, "curl_slist_append");
    api->slist_free_all = (void (*)(struct curl_slist *))dlsym(biblioteca, "curl_slist_free_all");
    if (!api->global_init || !api->easy_init || !api->easy_setopt || !api->easy_perform ||
        !api->easy_cleanup || !api->easy_getinfo || !api->easy_strerror || !api->slist_append ||
        !api->slist_free_all) return -1;
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
