#!/usr/bin/env bash
# `make orden`: which functions marcador runs when it starts and does its common jobs, in the
# order they first run, as the linker's section ordering file (bench/orden-de-funciones.txt).
# The release build lays those functions out together, so starting touches a few pages of
# code instead of one here and one there across 11 MiB: fewer page faults, less resident
# memory. A function renamed since is simply not placed; nothing breaks. Needs valgrind.
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
python3 - "$DIR" "$n" > bench/orden-de-funciones.txt <<'PY'
import re, sys
carpeta, n = sys.argv[1], int(sys.argv[2])
vistas = set()
for i in range(1, n + 1):
    for linea in open(f"{carpeta}/perfil.{i}", encoding="utf-8", errors="replace"):
        # callgrind names a function the first time as `fn=(id) name`, later by its id only.
        m = re.match(r"^c?fn=\(\d+\) (\S+)$", linea.rstrip("\n"))
        if m and not m.group(1).startswith("0x") and m.group(1) not in vistas:
            vistas.add(m.group(1))
            print(".text." + m.group(1))
PY
echo "bench/orden-de-funciones.txt: $(wc -l < bench/orden-de-funciones.txt) funciones" >&2
