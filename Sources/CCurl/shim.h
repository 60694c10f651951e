// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: these typed
// wrappers give Swift one entry point per argument type.
#include <curl/curl.h>

static inline CURLcode marcador_curl_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode marcador_curl_setopt_pointer(CURL *curl, CURLoption option, const void *value) {
    return curl_easy_setopt(curl, option, value);
}

typedef size_t (*marcador_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode marcador_curl_setopt_data_callback(CURL *curl, CURLoption option, marcador_curl_data_callback callback) {
    return curl_easy_setopt(curl, option, callback);
}

typedef int (*marcador_curl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode marcador_curl_setopt_progress_callback(CURL *curl, marcador_curl_progress_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode marcador_curl_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
