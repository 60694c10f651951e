#include "cifrado.h"

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/obj_mac.h>
#include <openssl/rand.h>
#include <string.h>

// The EC_GROUP/EC_POINT/BIGNUM calls used here are not deprecated in OpenSSL 3 (EC_KEY is):
// ECDH is written as the point multiplication it is, which needs no EVP_PKEY round trip.

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
    EC_GROUP *grupo = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
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
    EC_GROUP_free(grupo);
    return bien;
}

int cifrado_publica_p256(const uint8_t privada[32], uint8_t publica[65]) {
    EC_GROUP *grupo = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    BN_CTX *ctx = BN_CTX_new();
    BIGNUM *escalar = BN_bin2bn(privada, 32, NULL);
    int bien = grupo != NULL && ctx != NULL && escalar != NULL && !BN_is_zero(escalar) &&
               BN_cmp(escalar, EC_GROUP_get0_order(grupo)) < 0 &&
               publica_de(grupo, escalar, publica, ctx);
    BN_clear_free(escalar);
    BN_CTX_free(ctx);
    EC_GROUP_free(grupo);
    return bien;
}

int cifrado_ecdh_p256(const uint8_t privada[32], const uint8_t ajena[65], uint8_t secreto[32]) {
    EC_GROUP *grupo = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
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
    EC_GROUP_free(grupo);
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
