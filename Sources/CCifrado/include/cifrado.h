#ifndef MARCADOR_CIFRADO_H
#define MARCADOR_CIFRADO_H

#include <stddef.h>
#include <stdint.h>

// The primitives of Web Push message encryption (RFC 8291 over RFC 8188 `aes128gcm`) on
// OpenSSL's libcrypto: P-256 keys and ECDH, HKDF-SHA-256, AES-128-GCM. Every function
// returns 1 on success and 0 on failure, and writes nothing it was not asked for.

/// A new P-256 key pair: the private scalar (32 bytes) and the uncompressed public point
/// (65 bytes, 0x04 || X || Y).
int cifrado_generar_p256(uint8_t privada[32], uint8_t publica[65]);

/// The public point of a private scalar.
int cifrado_publica_p256(const uint8_t privada[32], uint8_t publica[65]);

/// Whether `publica` (0x04 || X || Y) is a point of the curve. P-256's cofactor is 1: every
/// point of the curve but infinity, which this encoding cannot name, is a valid public key.
int cifrado_es_punto_p256(const uint8_t publica[65]);

/// ECDH: the X coordinate of `privada` × `ajena`; 0 when `ajena` is not a point of the curve.
int cifrado_ecdh_p256(const uint8_t privada[32], const uint8_t ajena[65], uint8_t secreto[32]);

/// `largo` bytes from OpenSSL's CSPRNG.
int cifrado_aleatorio(uint8_t *salida, size_t largo);

/// HKDF-SHA-256 (RFC 5869) with at most 32 bytes of output.
int cifrado_hkdf_sha256(const uint8_t *sal, size_t largo_sal, const uint8_t *clave,
                        size_t largo_clave, const uint8_t *info, size_t largo_info,
                        uint8_t *salida, size_t largo_salida);

/// AES-128-GCM: `salida` gets the ciphertext (`largo` bytes) followed by the 16-byte tag.
int cifrado_aes128gcm(const uint8_t clave[16], const uint8_t nonce[12], const uint8_t *texto,
                      size_t largo, uint8_t *salida);

/// ES256 (ECDSA P-256 with SHA-256) over `datos`, as JOSE writes it: r || s, 32 bytes each.
int cifrado_firmar_es256(const uint8_t privada[32], const uint8_t *datos, size_t largo,
                         uint8_t firma[64]);

/// 1 when `firma` (r || s) is `publica`'s ES256 signature of `datos`.
int cifrado_verificar_es256(const uint8_t publica[65], const uint8_t *datos, size_t largo,
                            const uint8_t firma[64]);

/// The private scalar of a PEM PKCS#8 P-256 key (Apple's `AuthKey_KID.p8`); 0 for anything
/// else (another curve, another algorithm, an encrypted or malformed file).
int cifrado_leer_p8(const char *pem, size_t largo, uint8_t privada[32]);

/// SHA-256 of `datos`.
int cifrado_sha256(const uint8_t *datos, size_t largo, uint8_t resumen[32]);

#endif
