#!/usr/bin/env bash
# `make orden`: the code marcador runs when it starts and does its common jobs, as the linker's
# section ordering file (bench/orden-de-funciones.txt): the input sections holding the functions
# callgrind saw run, start-up's first. Gold lays them out together (after the rest), so the
# kernel's fault-around, which maps 64 KiB around every page faulted in, maps code that runs
# instead of code that never does: less resident memory. Argument: the linker map of the
# profiled binary, which says which section holds each function (not always one named after
# it). A function renamed since is simply not placed; nothing breaks. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "falta valgrind (Debian: valgrind)" >&2; exit 69; }
B=${B:-.build/release/marcador}
MAPA=${1:?uso: bench/orden.sh MAPA-DEL-ENLACE}
DIR=$(mktemp -d /tmp/marcador-orden-XXXXXX)
trap 'rm -rf "$DIR"' EXIT
# Valgrind cannot read the toolchain's DWARF: the symbols are enough.
strip -g -o "$DIR/marcador" "$B"
n=0
perfil() {
  n=$((n + 1))
  valgrind -q --tool=callgrind --demangle=no --callgrind-out-file="$DIR/perfil.$n" \
    "$DIR/marcador" "$@" >/dev/null 2>&1 </dev/null || true
}
perfil --version
perfil --db "$DIR/m.sqlite3" partidos
perfil --db "$DIR/m.sqlite3" jugar 1 --ms-por-minuto 0
perfil --db "$DIR/m.sqlite3" avisos enviar
perfil --db "$DIR/m.sqlite3" importar Tests/Recursos/openfootball/worldcup-2018.json
perfil --db "$DIR/m.sqlite3" clasificacion --competicion "World Cup 2018"
nm --defined-only "$B" > "$DIR/simbolos"
python3 - "$DIR" "$n" "$MAPA" > bench/orden-de-funciones.txt <<'PY'
import bisect, re, sys
carpeta, n, mapa = sys.argv[1], int(sys.argv[2]), sys.argv[3]
# The map's input sections of the text: a name, then address, size and file (on the next line
# when the name is long). A plain `.text` holds a whole object: it cannot be placed by name.
secciones = []
pendiente = None
for linea in open(mapa, encoding="utf-8", errors="replace"):
    m = re.match(r"^ (\.text\.\S+)(?:\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s)?", linea)
    if m:
        pendiente = m.group(1)
        if m.group(2):
            secciones.append((int(m.group(2), 16), int(m.group(3), 16), pendiente))
            pendiente = None
        continue
    m = re.match(r"^\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s", linea)
    if pendiente and m:
        secciones.append((int(m.group(1), 16), int(m.group(2), 16), pendiente))
    pendiente = None
secciones.sort()
inicios = [s[0] for s in secciones]
direccion = {}
for linea in open(f"{carpeta}/simbolos"):
    partes = linea.split()
    if len(partes) == 3 and partes[1] in "tTwW":
        direccion.setdefault(partes[2], int(partes[0], 16))
vistas = set()
corridas = set()
# Each profile's new sections, sorted by name: the file does not change with the layout of
# the binary profiled, only with the code (start-up's profile comes first).
for i in range(1, n + 1):
    nuevas = set()
    for linea in open(f"{carpeta}/perfil.{i}", encoding="utf-8", errors="replace"):
        # callgrind names a function the first time as `fn=(id) name`, later by its id only.
        m = re.match(r"^c?fn=\(\d+\) (\S+)$", linea.rstrip("\n"))
        if not m or m.group(1) not in direccion:
            continue
        a = direccion[m.group(1)]
        corridas.add(a)
        k = bisect.bisect_right(inicios, a) - 1
        if k >= 0 and a < secciones[k][0] + secciones[k][1] and secciones[k][2] not in vistas:
            nuevas.add(secciones[k][2])
    vistas |= nuevas
    for seccion in sorted(nuevas):
        print(seccion)
print(f"{len(corridas)} funciones corridas, en {len(vistas)} secciones con nombre propio",
    file=sys.stderr)
PY
echo "bench/orden-de-funciones.txt: $(wc -l < bench/orden-de-funciones.txt) funciones" >&2
