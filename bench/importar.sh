#!/usr/bin/env bash
# `make bench-importar`: `marcador dispositivos importar` of N APNs devices (1,000,000 unless
# IMPORTAR_N says) on SQLite, against its floor in C (bench/importar/suelo.c: the store's part
# alone, marcador's statements each prepared once), alternating, RONDAS times (3); prints each
# side's median and the ratio. Every round starts from a new store holding the bench's match.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${IMPORTAR_N:-1000000}"
rondas="${RONDAS:-3}"
marcador="$PWD/.build/release/marcador"
[ -x "$marcador" ] || { echo "bench-importar: falta $marcador (make release)" >&2; exit 66; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cc -O2 -Wall -o "$dir/suelo" bench/importar/suelo.c -lsqlite3 -lcrypto
python3 - "$n" >"$dir/dispositivos.jsonl" <<'PY'
import sys
for i in range(int(sys.argv[1])):
    sys.stdout.write('{"apns":"%064x","equipos":["Rayo Banco"]}\n' % (i * 2654435761 + 7))
PY
nuevo() { rm -f "$dir"/banco.sqlite3*; "$marcador" --db "$dir/banco.sqlite3" importar bench/final-de-banco.json >/dev/null; }
nuestros=()
suelos=()
for ((r = 1; r <= rondas; r++)); do
    nuevo
    t0=$(date +%s.%N)
    "$marcador" --db "$dir/banco.sqlite3" dispositivos importar "$dir/dispositivos.jsonl" >/dev/null
    t1=$(date +%s.%N)
    nuestros+=("$(echo "$t1 - $t0" | bc -l)")
    nuevo
    suelos+=("$("$dir/suelo" "$dir/banco.sqlite3" "$n")")
    echo "ronda $r: marcador ${nuestros[-1]} s, suelo en C ${suelos[-1]} s" >&2
done
python3 - "$n" "${nuestros[*]}" "${suelos[*]}" <<'PY'
import statistics, sys
n, nuestros, suelos = int(sys.argv[1]), [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
a, b = statistics.median(nuestros), statistics.median(suelos)
print(f"importar {n:,} dispositivos APNs (SQLite): marcador {a:.2f} s (mediana de {len(nuestros)}), "
      f"suelo en C (solo el almacén, mismas sentencias) {b:.2f} s, razón {a / b:.2f}")
PY
