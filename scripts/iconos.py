#!/usr/bin/env python3
"""Draws the app's PNG icons (web/icono-192.png, web/icono-512.png) from the same shapes as
web/icono.svg: a green rounded square, a white ball, a dark pentagon. Run once after changing
the design; the PNGs are committed (the build embeds web/ as it is)."""
import math
import struct
import sys
import zlib

VERDE = (0x0B, 0x6E, 0x4F)
BLANCO = (0xFF, 0xFF, 0xFF)
OSCURO = (0x22, 0x22, 0x22)


def dentro_del_pentagono(x, y):
    # The SVG's path M32 18 l8 6 -3 9 h-10 l-3 -9 z, in 64-unit coordinates.
    puntos = [(32, 18), (40, 24), (37, 33), (27, 33), (24, 24)]
    dentro = False
    j = len(puntos) - 1
    for i, (xi, yi) in enumerate(puntos):
        xj, yj = puntos[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            dentro = not dentro
        j = i
    return dentro


def color(x, y):
    """The colour at (x, y) in 64-unit coordinates."""
    radio = 12
    cx = min(max(x, radio), 64 - radio)
    cy = min(max(y, radio), 64 - radio)
    if (x - cx) ** 2 + (y - cy) ** 2 > radio ** 2:
        return None
    if dentro_del_pentagono(x, y):
        return OSCURO
    if (x - 32) ** 2 + (y - 32) ** 2 <= 20 ** 2:
        return BLANCO
    return VERDE


def png(lado):
    filas = bytearray()
    muestras = 3  # 3×3 supersampling per pixel, for smooth edges
    for py in range(lado):
        filas.append(0)
        for px in range(lado):
            r = g = b = a = 0
            for sy in range(muestras):
                for sx in range(muestras):
                    x = (px + (sx + 0.5) / muestras) * 64 / lado
                    y = (py + (sy + 0.5) / muestras) * 64 / lado
                    c = color(x, y)
                    if c is not None:
                        r += c[0]
                        g += c[1]
                        b += c[2]
                        a += 255
            n = muestras * muestras
            alfa = a // n
            if alfa:
                cubiertas = a // 255
                filas += bytes((r // cubiertas, g // cubiertas, b // cubiertas, alfa))
            else:
                filas += bytes((0, 0, 0, 0))

    def trozo(tipo, datos):
        return (struct.pack(">I", len(datos)) + tipo + datos
                + struct.pack(">I", zlib.crc32(tipo + datos) & 0xFFFFFFFF))

    cabecera = struct.pack(">IIBBBBB", lado, lado, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + trozo(b"IHDR", cabecera)
            + trozo(b"IDAT", zlib.compress(bytes(filas), 9)) + trozo(b"IEND", b""))


if __name__ == "__main__":
    carpeta = sys.argv[1] if len(sys.argv) > 1 else "web"
    for lado in (192, 512):
        with open(f"{carpeta}/icono-{lado}.png", "wb") as fichero:
            fichero.write(png(lado))
