"""A loopback Web Push service (RFC 8030) for marcador's tests, over TLS with a CA of its
own: it makes browser-like subscriptions (a P-256 key pair and an auth secret each), and for
every push it verifies VAPID (RFC 8292: the JWT's ES256 signature under the key in `k`, `aud`
= this origin, `exp` within 24 h, `sub`) with `cryptography`, and decrypts the body with
PyPI's `http_ece` (RFC 8291 aes128gcm), an implementation independent of marcador's. It
answers what the test asks per subscription (respuestas.json: {"2": [410]}, or a list of
answers, one per request).

Usage: servicio_push.py CARPETA N
Writes CARPETA/ca.pem and CARPETA/suscripcion-K.json (K = 1…N), then CARPETA/puerto; one JSON
line per push in CARPETA/peticiones.jsonl."""
import base64
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

import certificado
from comun import Respuestas, b64, firma_valida

carpeta, cuantas = sys.argv[1], int(sys.argv[2])
cerrojo = threading.Lock()
suscripciones = {}


def b64e(datos):
    return base64.urlsafe_b64encode(datos).rstrip(b"=").decode()


def comprobar_vapid(autorizacion, origen):
    """What is wrong with the VAPID authorization, or None."""
    if not autorizacion.startswith("vapid "):
        return "sin vapid"
    partes = dict(p.strip().split("=", 1) for p in autorizacion[6:].split(","))
    token, k = partes.get("t", ""), partes.get("k", "")
    try:
        publica = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64(k))
    except ValueError:
        return "k no es una clave P-256"
    trozos = token.split(".")
    if len(trozos) != 3:
        return "JWT mal formado"
    cabecera, reclamaciones = json.loads(b64(trozos[0])), json.loads(b64(trozos[1]))
    if cabecera.get("alg") != "ES256":
        return "alg"
    if not firma_valida(publica, trozos):
        return "firma"
    if reclamaciones.get("aud") != origen:
        return f"aud {reclamaciones.get('aud')} en vez de {origen}"
    exp = reclamaciones.get("exp", 0)
    if not time.time() < exp <= time.time() + 24 * 3600:
        return "exp"
    if not str(reclamaciones.get("sub", "")).startswith(("mailto:", "https:")):
        return "sub"
    return None


def respuesta_pedida(clave):
    return respuestas.pedida(clave) or 201


respuestas = Respuestas(carpeta, lambda p: isinstance(p, list) and bool(p))


class Manejador(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *argumentos):
        pass

    def do_POST(self):
        largo = int(self.headers.get("Content-Length", "0"))
        cuerpo = self.rfile.read(largo)
        clave = self.path.rsplit("/", 1)[-1]
        origen = f"https://127.0.0.1:{self.server.server_address[1]}"
        vapid = comprobar_vapid(self.headers.get("Authorization", ""), origen)
        mensaje, problema = None, None
        suscripcion = suscripciones.get(clave)
        if suscripcion is None:
            problema = "suscripción desconocida"
        elif self.headers.get("Content-Encoding") != "aes128gcm":
            problema = "Content-Encoding"
        else:
            try:
                claro = http_ece.decrypt(
                    cuerpo,
                    private_key=suscripcion["privada"],
                    auth_secret=suscripcion["auth"],
                    version="aes128gcm",
                )
                mensaje = json.loads(claro)
            except Exception as error:  # noqa: BLE001 - any failure is the test's finding
                problema = f"no se descifra: {error!r}"
        if vapid or problema:
            codigo = 400 if problema else 403
        else:
            codigo = respuesta_pedida(clave)
        with cerrojo:
            with open(f"{carpeta}/peticiones.jsonl", "a") as f:
                f.write(
                    json.dumps(
                        {
                            "suscripcion": clave,
                            "vapid": vapid or "verificado",
                            "problema": problema,
                            "cabeceras": {
                                n: self.headers.get(n) for n in ("TTL", "Urgency", "Topic", "Content-Encoding")
                            },
                            "mensaje": mensaje,
                            "bytes": len(cuerpo),
                            "respuesta": codigo,
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
        self.send_response(codigo)
        if codigo == 429:
            self.send_header("Retry-After", "1")
        self.send_header("Content-Length", "0")
        self.end_headers()


def main():
    rutas = certificado.crear(carpeta)
    servidor = ThreadingHTTPServer(("127.0.0.1", 0), Manejador)
    puerto = servidor.server_address[1]
    for k in range(1, cuantas + 1):
        privada = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        suscripciones[str(k)] = {"privada": privada, "auth": auth}
        publica = privada.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        with open(f"{carpeta}/suscripcion-{k}.json", "w") as f:
            json.dump(
                {
                    "endpoint": f"https://127.0.0.1:{puerto}/w/{k}",
                    "expirationTime": None,
                    "keys": {"p256dh": b64e(publica), "auth": b64e(auth)},
                },
                f,
            )
    contexto = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    contexto.load_cert_chain(rutas["servidor.pem"], rutas["servidor.key"])
    servidor.socket = contexto.wrap_socket(servidor.socket, server_side=True)
    temporal = f"{carpeta}/puerto.tmp"
    with open(temporal, "w") as f:
        f.write(str(puerto))
    os.rename(temporal, f"{carpeta}/puerto")
    servidor.serve_forever()


main()
