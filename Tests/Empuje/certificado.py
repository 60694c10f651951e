"""A private CA and a certificate for 127.0.0.1, made for one test run (the stand-ins
serve TLS that marcador verifies with --ca, never with verification off)."""
import datetime
import ipaddress

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def crear(carpeta):
    """Writes ca.pem, servidor.pem and servidor.key into carpeta; returns their paths."""
    ahora = datetime.datetime.now(datetime.timezone.utc)
    clave_ca = ec.generate_private_key(ec.SECP256R1())
    nombre_ca = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "marcador pruebas CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(nombre_ca)
        .issuer_name(nombre_ca)
        .public_key(clave_ca.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(ahora - datetime.timedelta(hours=1))
        .not_valid_after(ahora + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(clave_ca.public_key()), critical=False)
        .sign(clave_ca, hashes.SHA256())
    )
    clave = ec.generate_private_key(ec.SECP256R1())
    servidor = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(nombre_ca)
        .public_key(clave.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(ahora - datetime.timedelta(hours=1))
        .not_valid_after(ahora + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(clave_ca.public_key()), critical=False
        )
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(clave_ca, hashes.SHA256())
    )
    rutas = {n: f"{carpeta}/{n}" for n in ("ca.pem", "servidor.pem", "servidor.key")}
    with open(rutas["ca.pem"], "wb") as f:
        f.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(rutas["servidor.pem"], "wb") as f:
        f.write(servidor.public_bytes(serialization.Encoding.PEM))
    with open(rutas["servidor.key"], "wb") as f:
        f.write(
            clave.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
    return rutas
