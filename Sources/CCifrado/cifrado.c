#include "cifrado.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/err.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <pthread.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <pthread.h>
#include <string.h>

// The EC_GROUP/EC_POINT/BIGNUM calls used here are not deprecated in OpenSSL 3 (EC_KEY is):
// ECDH is written as the point multiplication it is, which needs no EVP_PKEY round trip.

// The curve, built once: OpenSSL 3 spends tens of microseconds making a named group, more
// than Web Push's whole encryption of a message (contract.md §20: a million messages a goal).
// A group is only read after it is made, which OpenSSL allows from any number of threads.
static EC_GROUP *la_curva;
static pthread_once_t curva_hecha = PTHREAD_ONCE_INIT;
static void hacer_curva(void) { la_curva = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1); }
static const EC_GROUP *curva_p256(void) {
    pthread_once(&curva_hecha, hacer_curva);
    return la_curva;
}

static int publica_de(const EC_GROUP *grupo, const BIGNUM *escalar, uint8_t publica[65],
                      BN_CTX *ctx) {
    EC_POINT *punto = EC_POINT_new(grupo);
    int bien = punto != NULL && EC_POINT_mul(grupo, punto, escalar, NULL, NULL, ctx) == 1 &&
               EC_POINT_point2oct(grupo, punto, POINT_CONVERSION_UNCOMPRESSED, publica, 65,
                                  ctx) == 65;
    EC_POINT_free(punto);
    return bien;
}

int cifrado_generar_p256(uint8_t privada[32], uint8_t publica[65]) {
    const EC_GROUP *grupo = curva_p256();
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *escalar = BN_new();
    int bien = grupo != NULL && ctx != NULL && escalar != NULL;
    // A scalar in [1, n - 1], from OpenSSL's CSPRNG.
    do {
        bien = bien && BN_priv_rand_range(escalar, EC_GROUP_get0_order(grupo)) == 1;
    } while (bien && BN_is_zero(escalar));
    bien = bien && BN_bn2binpad(escalar, privada, 32) == 32 &&
           publica_de(grupo, escalar, publica, ctx);
    BN_clear_free(escalar);
    BN_CTX_free(ctx);
    return bien;
}

int cifrado_publica_p256(const uint8_t privada[32], uint8_t publica[65]) {
    const EC_GROUP *grupo = curva_p256();
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *escalar = BN_bin2bn(privada, 32, NULL);
    int bien = grupo != NULL && ctx != NULL && escalar != NULL && !BN_is_zero(escalar) &&
               BN_cmp(escalar, EC_GROUP_get0_order(grupo)) < 0 &&
               publica_de(grupo, escalar, publica, ctx);
    BN_clear_free(escalar);
    BN_CTX_free(ctx);
    return bien;
}

int cifrado_es_punto_p256(const uint8_t publica[65]) {
    const EC_GROUP *grupo = curva_p256();
    BN_CTX *ctx = BN_CTX_new();
    EC_POINT *punto = grupo ? EC_POINT_new(grupo) : NULL;
    int bien = ctx != NULL && punto != NULL && publica[0] == 0x04 &&
               EC_POINT_oct2point(grupo, punto, publica, 65, ctx) == 1 &&
               EC_POINT_is_on_curve(grupo, punto, ctx) == 1;
    EC_POINT_free(punto);
    BN_CTX_free(ctx);
    return bien;
}

int cifrado_ecdh_p256(const uint8_t privada[32], const uint8_t ajena[65], uint8_t secreto[32]) {
    const EC_GROUP *grupo = curva_p256();
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *escalar = BN_bin2bn(privada, 32, NULL);
    BIGNUM *x = BN_new();
    EC_POINT *punto = grupo ? EC_POINT_new(grupo) : NULL;
    EC_POINT *producto = grupo ? EC_POINT_new(grupo) : NULL;
    // oct2point refuses a point off the curve; the point at infinity is refused below.
    int bien = grupo != NULL && ctx != NULL && escalar != NULL && x != NULL && punto != NULL &&
               producto != NULL && ajena[0] == 0x04 &&
               EC_POINT_oct2point(grupo, punto, ajena, 65, ctx) == 1 &&
               EC_POINT_is_on_curve(grupo, punto, ctx) == 1 &&
               EC_POINT_mul(grupo, producto, NULL, punto, escalar, ctx) == 1 &&
               !EC_POINT_is_at_infinity(grupo, producto) &&
               EC_POINT_get_affine_coordinates(grupo, producto, x, NULL, ctx) == 1 &&
               BN_bn2binpad(x, secreto, 32) == 32;
    EC_POINT_free(producto);
    EC_POINT_free(punto);
    BN_free(x);
    BN_clear_free(escalar);
    BN_CTX_free(ctx);
    return bien;
}

int cifrado_aleatorio(uint8_t *salida, size_t largo) {
    return largo <= 0x7fffffff && RAND_bytes(salida, (int)largo) == 1;
}

int cifrado_hkdf_sha256(const uint8_t *sal, size_t largo_sal, const uint8_t *clave,
                        size_t largo_clave, const uint8_t *info, size_t largo_info,
                        uint8_t *salida, size_t largo_salida) {
    if (largo_salida > 32 || largo_info > 256) return 0;
    uint8_t prk[32];
    unsigned int largo = 0;
    // Extract, then one block of expand: T(1) = HMAC(PRK, info || 0x01).
    if (HMAC(EVP_sha256(), sal, (int)largo_sal, clave, largo_clave, prk, &largo) == NULL ||
        largo != 32)
        return 0;
    uint8_t bloque[257];
    memcpy(bloque, info, largo_info);
    bloque[largo_info] = 0x01;
    uint8_t t[32];
    int bien = HMAC(EVP_sha256(), prk, 32, bloque, largo_info + 1, t, &largo) != NULL &&
               largo == 32;
    if (bien) memcpy(salida, t, largo_salida);
    OPENSSL_cleanse(prk, sizeof prk);
    OPENSSL_cleanse(t, sizeof t);
    return bien;
}

int cifrado_aes128gcm(const uint8_t clave[16], const uint8_t nonce[12], const uint8_t *texto,
                      size_t largo, uint8_t *salida) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    int escrito = 0, final = 0;
    int bien = ctx != NULL && largo <= 0x7fffffff &&
               EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, NULL, NULL) == 1 &&
               EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) == 1 &&
               EVP_EncryptInit_ex(ctx, NULL, NULL, clave, nonce) == 1 &&
               EVP_EncryptUpdate(ctx, salida, &escrito, texto, (int)largo) == 1 &&
               EVP_EncryptFinal_ex(ctx, salida + escrito, &final) == 1 &&
               (size_t)(escrito + final) == largo &&
               EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, salida + largo) == 1;
    EVP_CIPHER_CTX_free(ctx);
    return bien;
}

// ECDSA goes through EVP_PKEY (the non-deprecated way in OpenSSL 3): a key is built from the
// raw scalar and point with OSSL_PARAM, the DER signature turned into JOSE's raw r || s.

static EVP_PKEY *clave_p256(const uint8_t *privada, const uint8_t publica[65]) {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    BIGNUM *escalar = privada ? BN_bin2bn(privada, 32, NULL) : NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *clave = NULL;
    int bien = bld != NULL && ctx != NULL && (privada == NULL || escalar != NULL) &&
               OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1",
                                               0) == 1 &&
               OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, publica, 65) == 1 &&
               (escalar == NULL ||
                OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, escalar) == 1) &&
               (params = OSSL_PARAM_BLD_to_param(bld)) != NULL &&
               EVP_PKEY_fromdata_init(ctx) == 1;
    if (bien && EVP_PKEY_fromdata(ctx, &clave, privada ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY,
                                  params) != 1) {
        clave = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    BN_clear_free(escalar);
    OSSL_PARAM_BLD_free(bld);
    return clave;
}

int cifrado_firmar_es256(const uint8_t privada[32], const uint8_t *datos, size_t largo,
                         uint8_t firma[64]) {
    uint8_t publica[65];
    if (!cifrado_publica_p256(privada, publica)) return 0;
    EVP_PKEY *clave = clave_p256(privada, publica);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    uint8_t der[80];
    size_t largo_der = sizeof der;
    ECDSA_SIG *sig = NULL;
    const unsigned char *cursor = der;
    const BIGNUM *r = NULL, *s = NULL;
    int bien = clave != NULL && md != NULL &&
               EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, clave) == 1 &&
               EVP_DigestSign(md, der, &largo_der, datos, largo) == 1 &&
               (sig = d2i_ECDSA_SIG(NULL, &cursor, (long)largo_der)) != NULL;
    if (bien) {
        ECDSA_SIG_get0(sig, &r, &s);
        bien = BN_bn2binpad(r, firma, 32) == 32 && BN_bn2binpad(s, firma + 32, 32) == 32;
    }
    ECDSA_SIG_free(sig);
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(clave);
    return bien;
}

int cifrado_verificar_es256(const uint8_t publica[65], const uint8_t *datos, size_t largo,
                            const uint8_t firma[64]) {
    EVP_PKEY *clave = clave_p256(NULL, publica);
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(firma, 32, NULL), *s = BN_bin2bn(firma + 32, 32, NULL);
    unsigned char *der = NULL;
    int largo_der = 0;
    int bien = clave != NULL && md != NULL && sig != NULL && r != NULL && s != NULL &&
               ECDSA_SIG_set0(sig, r, s) == 1;
    if (bien) {
        r = s = NULL;  // now owned by sig
        bien = (largo_der = i2d_ECDSA_SIG(sig, &der)) > 0 &&
               EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, clave) == 1 &&
               EVP_DigestVerify(md, der, (size_t)largo_der, datos, largo) == 1;
    }
    OPENSSL_free(der);
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(sig);
    EVP_MD_CTX_free(md);
    EVP_PKEY_free(clave);
    return bien;
}

int cifrado_leer_p8(const char *pem, size_t largo, uint8_t privada[32]) {
    if (largo > 0x7fffffff) return 0;
    BIO *bio = BIO_new_mem_buf(pem, (int)largo);
    EVP_PKEY *clave = bio ? PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL) : NULL;
    BIGNUM *escalar = NULL;
    char grupo[32] = {0};
    size_t largo_grupo = 0;
    int bien = clave != NULL && EVP_PKEY_is_a(clave, "EC") &&
               EVP_PKEY_get_utf8_string_param(clave, OSSL_PKEY_PARAM_GROUP_NAME, grupo,
                                              sizeof grupo, &largo_grupo) == 1 &&
               strcmp(grupo, "prime256v1") == 0 &&
               EVP_PKEY_get_bn_param(clave, OSSL_PKEY_PARAM_PRIV_KEY, &escalar) == 1 &&
               BN_bn2binpad(escalar, privada, 32) == 32;
    BN_clear_free(escalar);
    EVP_PKEY_free(clave);
    BIO_free(bio);
    // A refused file leaves OpenSSL's error queue full; nothing else reads it.
    ERR_clear_error();
    return bien;
}

// EVP_sha256() is fetched again from the default provider on every digest; an import names a
// million devices, so the algorithm is fetched once and kept.
static EVP_MD *sha256_buscado;
static pthread_once_t sha256_una_vez = PTHREAD_ONCE_INIT;

static void buscar_sha256(void) { sha256_buscado = EVP_MD_fetch(NULL, "SHA256", NULL); }

int cifrado_sha256(const uint8_t *datos, size_t largo, uint8_t resumen[32]) {
    pthread_once(&sha256_una_vez, buscar_sha256);
    unsigned int escrito = 0;
    const EVP_MD *algoritmo = sha256_buscado != NULL ? sha256_buscado : EVP_sha256();
    return EVP_Digest(datos, largo, resumen, &escrito, algoritmo, NULL) == 1 && escrito == 32;
}
