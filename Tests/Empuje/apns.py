"""A loopback stand-in for APNs' provider API (HTTP/2 over TLS, ALPN h2), for marcador's
tests: it checks each request as APNs would (the ES256 provider token against the .p8's
public key, kid, iss, the path's device token, the apns-* headers, the payload) and answers
what the test asks for each device token (respuestas.json, read at each request:
{"TOKEN": [410, "Unregistered"]}, or a list of answers used one per request).

An answer may carry a third element, seconds to wait before answering ([200, null, 30]): the
request is logged in CARPETA/recibidas.jsonl as it arrives.

Usage: apns.py CARPETA P8 KID TEAM TOPIC
Writes CARPETA/ca.pem, then CARPETA/puerto when it listens; one JSON line per request in
CARPETA/peticiones.jsonl (headers, payload, whether the token verified, the answer)."""
import hashlib
import json
import os
import socket
import ssl
import sys
import threading
import time

import h2.config
import h2.connection
import h2.events
from cryptography.hazmat.primitives import serialization

import certificado
from comun import Respuestas, b64, firma_valida

carpeta, ruta_p8, kid, equipo, tema = sys.argv[1:6]
with open(ruta_p8, "rb") as f:
    publica = serialization.load_pem_private_key(f.read(), None).public_key()
cerrojo = threading.Lock()


def comprobar_token(autorizacion):
    """What is wrong with the provider token, or None."""
    if not autorizacion.startswith("bearer "):
        return "MissingProviderToken"
    partes = autorizacion[7:].split(".")
    if len(partes) != 3:
        return "InvalidProviderToken"
    cabecera, reclamaciones = json.loads(b64(partes[0])), json.loads(b64(partes[1]))
    if cabecera.get("alg") != "ES256" or cabecera.get("kid") != kid:
        return "InvalidProviderToken"
    if reclamaciones.get("iss") != equipo or abs(time.time() - reclamaciones.get("iat", 0)) > 3600:
        return "InvalidProviderToken"
    if not firma_valida(publica, partes):
        return "InvalidProviderToken"
    return None


def respuesta_pedida(token):
    """(status, reason, seconds to wait before answering)."""
    pedida = respuestas.pedida(token)
    if not pedida:
        return 200, None, 0
    return (
        pedida[0],
        pedida[1] if len(pedida) > 1 else None,
        pedida[2] if len(pedida) > 2 else 0,
    )


respuestas = Respuestas(carpeta, lambda p: isinstance(p, list) and p and isinstance(p[0], list))
conexiones = [0]


def atender(peticion, conexion_numero):
    cabeceras = peticion["cabeceras"]
    ruta = cabeceras.get(":path", "")
    token = ruta.rsplit("/", 1)[-1]
    error = comprobar_token(cabeceras.get("authorization", ""))
    codigo, razon, espera = (403, error, 0) if error else respuesta_pedida(token)
    with cerrojo:
        with open(f"{carpeta}/recibidas.jsonl", "a") as f:
            f.write(json.dumps({"token": token, "apns-id": cabeceras.get("apns-id")}) + "\n")
    # An answer held back: the test kills the sender while this request is in flight.
    time.sleep(espera)
    problemas = []
    if cabeceras.get(":method") != "POST" or not ruta.startswith("/3/device/"):
        problemas.append("ruta")
    if cabeceras.get("apns-topic") != tema:
        problemas.append("apns-topic")
    if cabeceras.get("apns-push-type") != "alert":
        problemas.append("apns-push-type")
    if cabeceras.get("apns-priority") not in ("10", "5"):
        problemas.append("apns-priority")
    try:
        carga = json.loads(peticion["cuerpo"])
    except ValueError:
        carga = None
        problemas.append("json")
    if len(peticion["cuerpo"]) > 4096:
        problemas.append("tamaño")
    if problemas and codigo == 200:
        codigo, razon = 400, "BadRequest"
    with cerrojo:
        with open(f"{carpeta}/peticiones.jsonl", "a") as f:
            f.write(
                json.dumps(
                    {
                        "token": token,
                        "conexion": conexion_numero,
                        "cabeceras": {k: v for k, v in cabeceras.items() if k != "authorization"},
                        "jwt": error or "verificado",
                        "huella_jwt": hashlib.sha256(
                            cabeceras.get("authorization", "").encode()
                        ).hexdigest()[:12],
                        "carga": carga,
                        "problemas": problemas,
                        "respuesta": codigo,
                        "razon": razon,
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
    return codigo, razon


def conexion(tls, numero):
    h2c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
    h2c.initiate_connection()
    tls.sendall(h2c.data_to_send())
    flujos = {}
    try:
        while True:
            datos = tls.recv(65536)
            if not datos:
                return
            for evento in h2c.receive_data(datos):
                if isinstance(evento, h2.events.RequestReceived):
                    flujos[evento.stream_id] = {
                        "cabeceras": {
                            (k.decode() if isinstance(k, bytes) else k): (
                                v.decode() if isinstance(v, bytes) else v
                            )
                            for k, v in evento.headers
                        },
                        "cuerpo": b"",
                    }
                elif isinstance(evento, h2.events.DataReceived):
                    flujos[evento.stream_id]["cuerpo"] += evento.data
                    h2c.acknowledge_received_data(evento.flow_controlled_length, evento.stream_id)
                elif isinstance(evento, h2.events.StreamEnded):
                    peticion = flujos.pop(evento.stream_id)
                    codigo, razon = atender(peticion, numero)
                    apns_id = peticion["cabeceras"].get("apns-id", "")
                    cuerpo = json.dumps({"reason": razon}).encode() if razon else b""
                    cabeceras = [(":status", str(codigo)), ("apns-id", apns_id)]
                    if cuerpo:
                        cabeceras.append(("content-type", "application/json"))
                        cabeceras.append(("content-length", str(len(cuerpo))))
                    h2c.send_headers(evento.stream_id, cabeceras, end_stream=not cuerpo)
                    if cuerpo:
                        h2c.send_data(evento.stream_id, cuerpo, end_stream=True)
            tls.sendall(h2c.data_to_send())
    except (OSError, ssl.SSLError, h2.exceptions.ProtocolError):
        return
    finally:
        tls.close()


def main():
    rutas = certificado.crear(carpeta)
    contexto = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    contexto.load_cert_chain(rutas["servidor.pem"], rutas["servidor.key"])
    contexto.set_alpn_protocols(["h2"])
    servidor = socket.socket()
    servidor.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    servidor.bind(("127.0.0.1", 0))
    servidor.listen(64)
    temporal = f"{carpeta}/puerto.tmp"
    with open(temporal, "w") as f:
        f.write(str(servidor.getsockname()[1]))
    os.rename(temporal, f"{carpeta}/puerto")
    while True:
        cliente, _ = servidor.accept()
        try:
            tls = contexto.wrap_socket(cliente, server_side=True)
        except (OSError, ssl.SSLError):
            cliente.close()
            continue
        if tls.selected_alpn_protocol() != "h2":
            tls.close()
            continue
        conexiones[0] += 1
        threading.Thread(target=conexion, args=(tls, conexiones[0]), daemon=True).start()


main()
