"""What both stand-ins share: base64url, checking an ES256 JWT's signature, and the answers a
test asks for (respuestas.json, read at each request)."""
import base64
import json
import threading

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(texto):
    return base64.urlsafe_b64decode(texto + "=" * (-len(texto) % 4))


def firma_valida(publica, partes):
    """Whether the JWT split in `partes` is signed (ES256, r || s) by `publica`."""
    firma = b64(partes[2])
    if len(firma) != 64:
        return False
    der = encode_dss_signature(int.from_bytes(firma[:32], "big"), int.from_bytes(firma[32:], "big"))
    try:
        publica.verify(der, f"{partes[0]}.{partes[1]}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return False
    return True


class Respuestas:
    """The answer asked for each key; a sequence of answers is used one per request, the last
    one repeated."""

    def __init__(self, carpeta, es_secuencia):
        self.ruta = f"{carpeta}/respuestas.json"
        self.es_secuencia = es_secuencia
        self.usadas = {}
        self.cerrojo = threading.Lock()

    def pedida(self, clave):
        try:
            with open(self.ruta) as f:
                pedida = json.load(f).get(clave)
        except FileNotFoundError:
            return None
        if self.es_secuencia(pedida):
            with self.cerrojo:
                usadas = self.usadas.get(clave, 0)
                self.usadas[clave] = usadas + 1
            pedida = pedida[min(usadas, len(pedida) - 1)]
        return pedida
