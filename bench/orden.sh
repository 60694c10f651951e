#!/usr/bin/env bash
# `make orden`: the code marcador runs when it starts and does its common jobs, as lld's symbol
# ordering file (bench/orden-de-funciones.txt): the functions callgrind saw run, start-up's
# first. lld lays out the sections holding them in that order, so the kernel's fault-around,
# which maps 64 KiB around every page faulted in, maps code that runs instead of code that
# never does: less resident memory. Swift's functions each have a section of their own
# (`-function-sections`); a function inside an archive's one `.text` brings that whole section.
# A function renamed since is simply not placed; nothing breaks. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "falta valgrind (Debian: valgrind)" >&2; exit 69; }
B=${B:-.build/release/marcador}
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
python3 - "$DIR" "$n" > bench/orden-de-funciones.txt <<'PY'
import re, sys
carpeta, n = sys.argv[1], int(sys.argv[2])
funciones = set()
for linea in open(f"{carpeta}/simbolos"):
    partes = linea.split()
    if len(partes) == 3 and partes[1] in "tTwW":
        funciones.add(partes[2])
vistas = set()
# Each profile's new functions, sorted by name: the file does not change with the layout of
# the binary profiled, only with the code (start-up's profile comes first).
for i in range(1, n + 1):
    nuevas = set()
    for linea in open(f"{carpeta}/perfil.{i}", encoding="utf-8", errors="replace"):
        # callgrind names a function the first time as `fn=(id) name`, later by its id only.
        m = re.match(r"^c?fn=\(\d+\) (\S+)$", linea.rstrip("\n"))
        if m and m.group(1) in funciones and m.group(1) not in vistas:
            nuevas.add(m.group(1))
    vistas |= nuevas
    for funcion in sorted(nuevas):
        print(funcion)
PY
echo "bench/orden-de-funciones.txt: $(wc -l < bench/orden-de-funciones.txt) funciones" >&2
