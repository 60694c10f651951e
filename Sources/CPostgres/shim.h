// libpq for the PostgreSQL store, loaded with dlopen when a `postgresql://` database is opened:
// libpq brings in TLS and Kerberos libraries that every other command would pay for at start.
// Only the header (Debian's libpq-dev) is needed to build.
#include <dlfcn.h>
// Debian puts it under postgresql/, outside the default include path.
#include <postgresql/libpq-fe.h>
#include <stddef.h>

typedef struct {
    PGconn *(*connectdb)(const char *conninfo);
    ConnStatusType (*status)(const PGconn *conn);
    char *(*error_message)(const PGconn *conn);
    void (*finish)(PGconn *conn);
    PGresult *(*exec)(PGconn *conn, const char *query);
    PGresult *(*prepare)(PGconn *conn, const char *name, const char *query, int nParams,
                         const Oid *paramTypes);
    PGresult *(*exec_prepared)(PGconn *conn, const char *name, int nParams,
                               const char *const *paramValues, const int *paramLengths,
                               const int *paramFormats, int resultFormat);
    ExecStatusType (*result_status)(const PGresult *res);
    char *(*result_error_field)(const PGresult *res, int fieldcode);
    char *(*result_error_message)(const PGresult *res);
    int (*ntuples)(const PGresult *res);
    int (*nfields)(const PGresult *res);
    char *(*fname)(const PGresult *res, int column);
    char *(*getvalue)(const PGresult *res, int row, int column);
    int (*getisnull)(const PGresult *res, int row, int column);
    int (*getlength)(const PGresult *res, int row, int column);
    char *(*cmd_tuples)(PGresult *res);
    void (*clear)(PGresult *res);
    int (*socket)(const PGconn *conn);
    int (*consume_input)(PGconn *conn);
    PGnotify *(*notifies)(PGconn *conn);
    void (*freemem)(void *ptr);
    PQnoticeProcessor (*set_notice_processor)(PGconn *conn, PQnoticeProcessor proc, void *arg);
    PGTransactionStatusType (*transaction_status)(const PGconn *conn);
    PGconn *(*connect_start_params)(const char *const *keywords, const char *const *values,
                                    int expand_dbname);
    PostgresPollingStatusType (*connect_poll)(PGconn *conn);
    int (*send_query)(PGconn *conn, const char *query);
    int (*send_prepare)(PGconn *conn, const char *name, const char *query, int nParams,
                        const Oid *paramTypes);
    int (*send_query_prepared)(PGconn *conn, const char *name, int nParams,
                               const char *const *paramValues, const int *paramLengths,
                               const int *paramFormats, int resultFormat);
    PGresult *(*get_result)(PGconn *conn);
    int (*is_busy)(PGconn *conn);
    int (*enter_pipeline)(PGconn *conn);
    int (*exit_pipeline)(PGconn *conn);
    int (*pipeline_sync)(PGconn *conn);
    int (*send_query_params)(PGconn *conn, const char *command, int nParams,
                             const Oid *paramTypes, const char *const *paramValues,
                             const int *paramLengths, const int *paramFormats, int resultFormat);
} marcador_pq_api;

static void marcador_pq_silencio(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

// Fills `api`; returns 0 on success, -1 when libpq (Debian's libpq5) is missing.
static inline int marcador_pq_cargar(marcador_pq_api *api) {
    const char *nombres[] = {"libpq.so.5", "libpq.so"};
    void *biblioteca = NULL;
    for (size_t i = 0; i < sizeof nombres / sizeof nombres[0] && biblioteca == NULL; i++) {
        biblioteca = dlopen(nombres[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (biblioteca == NULL) return -1;
#define MARCADOR_PQ(campo, simbolo) \
    *(void **)(&api->campo) = dlsym(biblioteca, simbolo); \
    if (api->campo == NULL) return -1;
    MARCADOR_PQ(connectdb, "PQconnectdb")
    MARCADOR_PQ(status, "PQstatus")
    MARCADOR_PQ(error_message, "PQerrorMessage")
    MARCADOR_PQ(finish, "PQfinish")
    MARCADOR_PQ(exec, "PQexec")
    MARCADOR_PQ(prepare, "PQprepare")
    MARCADOR_PQ(exec_prepared, "PQexecPrepared")
    MARCADOR_PQ(result_status, "PQresultStatus")
    MARCADOR_PQ(result_error_field, "PQresultErrorField")
    MARCADOR_PQ(result_error_message, "PQresultErrorMessage")
    MARCADOR_PQ(ntuples, "PQntuples")
    MARCADOR_PQ(nfields, "PQnfields")
    MARCADOR_PQ(fname, "PQfname")
    MARCADOR_PQ(getvalue, "PQgetvalue")
    MARCADOR_PQ(getisnull, "PQgetisnull")
    MARCADOR_PQ(getlength, "PQgetlength")
    MARCADOR_PQ(cmd_tuples, "PQcmdTuples")
    MARCADOR_PQ(clear, "PQclear")
    MARCADOR_PQ(socket, "PQsocket")
    MARCADOR_PQ(consume_input, "PQconsumeInput")
    MARCADOR_PQ(notifies, "PQnotifies")
    MARCADOR_PQ(freemem, "PQfreemem")
    MARCADOR_PQ(set_notice_processor, "PQsetNoticeProcessor")
    MARCADOR_PQ(transaction_status, "PQtransactionStatus")
    MARCADOR_PQ(connect_start_params, "PQconnectStartParams")
    MARCADOR_PQ(connect_poll, "PQconnectPoll")
    MARCADOR_PQ(send_query, "PQsendQuery")
    MARCADOR_PQ(send_prepare, "PQsendPrepare")
    MARCADOR_PQ(send_query_prepared, "PQsendQueryPrepared")
    MARCADOR_PQ(get_result, "PQgetResult")
    MARCADOR_PQ(is_busy, "PQisBusy")
    MARCADOR_PQ(enter_pipeline, "PQenterPipelineMode")
    MARCADOR_PQ(exit_pipeline, "PQexitPipelineMode")
    MARCADOR_PQ(pipeline_sync, "PQpipelineSync")
    MARCADOR_PQ(send_query_params, "PQsendQueryParams")
#undef MARCADOR_PQ
    return 0;
}

// Server notices (WARNING, NOTICE) would go to stderr; marcador says what matters itself.
static inline void marcador_pq_callar(marcador_pq_api *api, PGconn *conn) {
    api->set_notice_processor(conn, marcador_pq_silencio, NULL);
}
