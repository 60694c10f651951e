#!/usr/bin/env bash
# `make bench-difusion` (contract.md §20): one goal to 10,000 / 100,000 / 1,000,000 devices that
# follow a team, through marcador's own dispatchers (`avisos vigilar`), to a loopback HTTP/2 +
# TLS sink in C (bench/sumidero/sumidero.c) that answers like APNs (200) and Web Push (201).
# Beside it, in the same run, h2load against the same sink, with the same body size and
# concurrency, is the floor. Prints a table and writes bench/resultados-difusion.json.
#
#   bench/difusion.sh [--tamanos "10000 100000 1000000"] [--proveedores "apns webpush"]
#                     [--almacenes "sqlite postgresql"] [--despachadores "1 2"]
set -euo pipefail
cd "$(dirname "$0")/.."
tamanos="10000 100000 1000000"
proveedores="apns webpush"
almacenes="sqlite postgresql"
despachadores="1 2"
while [ $# -gt 0 ]; do
    case "$1" in
    --tamanos) tamanos="$2" ;;
    --proveedores) proveedores="$2" ;;
    --almacenes) almacenes="$2" ;;
    --despachadores) despachadores="$2" ;;
    *) echo "bench-difusion: opción desconocida $1" >&2; exit 64 ;;
    esac
    shift 2
done
marcador="$PWD/.build/release/marcador"
[ -x "$marcador" ] || { echo "bench-difusion: falta $marcador (make release)" >&2; exit 66; }
dir=$(mktemp -d)
[ -n "${CONSERVAR_DIFUSION:-}" ] && echo "bench-difusion: se conserva $dir" >&2
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${pg_datos:-}" ] && runuser -u postgres -- pg_ctl -D "$pg_datos" -m immediate stop >/dev/null 2>&1 || true; [ -n "${CONSERVAR_DIFUSION:-}" ] || rm -rf "$dir"' EXIT
cc -O2 -Wall -o "$dir/sumidero" bench/sumidero/sumidero.c -lnghttp2 -lssl -lcrypto
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/clave.pem" \
    -out "$dir/cert.pem" -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$dir/AuthKey.p8" 2>/dev/null


# The devices: N lines, half of them APNs tokens when both providers run; a Web Push
# subscription uses one real P-256 key (the bench measures the sender, not key variety).
python3 - "$dir" <<'EOF'
import base64, json, os, sys
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization
d = sys.argv[1]
clave = ec.generate_private_key(ec.SECP256R1())
pub = clave.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
with open(os.path.join(d, "suscripcion.json"), "w") as f:
    json.dump({"p256dh": b64(pub), "auth": b64(os.urandom(16))}, f)
EOF

generar() { # proveedor n puerto → devices file
    python3 - "$1" "$2" "$3" "$dir" >"$dir/dispositivos-$1-$2.jsonl" <<'EOF'
import json, sys, os
proveedor, n, puerto, d = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
claves = json.load(open(os.path.join(d, "suscripcion.json")))
out = sys.stdout
for i in range(n):
    if proveedor == "apns":
        out.write('{"apns":"%064x","equipos":["Rayo Banco"]}\n' % (i * 2654435761 + 7))
    else:
        out.write('{"webpush":{"endpoint":"https://127.0.0.1:%s/w/%d","keys":{"p256dh":"%s","auth":"%s"}},"equipos":["Rayo Banco"]}\n'
                  % (puerto, i, claves["p256dh"], claves["auth"]))
EOF
}

pg_datos=""
pg_url=""
arrancar_postgresql() {
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    pg_datos="$dir/pg"
    mkdir -p "$pg_datos" && chown postgres "$pg_datos" "$dir"
    runuser -u postgres -- "$bin/initdb" -D "$pg_datos" -A trust -U postgres >/dev/null
    runuser -u postgres -- "$bin/pg_ctl" -D "$pg_datos" -o "-k $dir -p 55439 -c listen_addresses='' -c fsync=off" -w start >/dev/null
    PATH="$bin:$PATH"
    pg_url="postgresql:///postgres?host=$dir&port=55439&user=postgres"
}

resultados="$dir/resultados.jsonl"
: >"$resultados"
rss_de() { awk '/VmHWM/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

for almacen in $almacenes; do
    if [ "$almacen" = postgresql ]; then
        command -v runuser >/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
            || { echo "bench-difusion: sin PostgreSQL, se salta" >&2; continue; }
        [ -n "$pg_url" ] || arrancar_postgresql
    fi
    for proveedor in $proveedores; do
        for n in $tamanos; do
            for k in $despachadores; do
                : >"$dir/estado"
                "$dir/sumidero" --cert "$dir/cert.pem" --clave "$dir/clave.pem" \
                    --estado "$dir/estado" >"$dir/puerto" 2>"$dir/sumidero.err" &
                sumidero=$!
                until grep -qE '^[0-9]+$' "$dir/puerto" 2>/dev/null; do sleep 0.05; done
                puerto=$(head -1 "$dir/puerto")
                if [ "$almacen" = sqlite ]; then
                    db="$dir/banco.sqlite3"
                    rm -f "$db"*
                else
                    psql -q "$pg_url" -c "DROP SCHEMA public CASCADE; CREATE SCHEMA public;" >/dev/null
                    db="$pg_url"
                fi
                m() { MARCADOR_DB="$db" "$marcador" "$@"; }
                m importar bench/final-de-banco.json >/dev/null
                m avisos activar >/dev/null
                if [ "$proveedor" = apns ]; then
                    m empuje apns --clave "$dir/AuthKey.p8" --id-clave ABC123DEFG --equipo DEF123GHIJ \
                        --tema es.ejemplo.marcador --url "https://127.0.0.1:$puerto" --ca "$dir/cert.pem" >/dev/null
                else
                    m empuje webpush --contacto mailto:banco@ejemplo.es --ca "$dir/cert.pem" >/dev/null
                fi
                generar "$proveedor" "$n" "$puerto"
                t0=$(date +%s.%N)
                m dispositivos importar "$dir/dispositivos-$proveedor-$n.jsonl" >/dev/null
                t1=$(date +%s.%N)
                importar=$(echo "$t1 - $t0" | bc -l)
                pids=""
                for _ in $(seq "$k"); do
                    MARCADOR_DB="$db" "$marcador" avisos vigilar >/dev/null 2>"$dir/vigilar.err" &
                    pids="$pids $!"
                done
                sleep 1 # the dispatchers are up and polling
                [ -n "${PERF_DIFUSION:-}" ] && { perf record -g -o "$PERF_DIFUSION" -p "$(echo $pids | cut -d" " -f1)" >/dev/null 2>&1 & }
                partido=$(m partidos --json | python3 -c 'import json,sys; print([p["id"] for p in json.load(sys.stdin) if p["local"]=="Rayo Banco"][0])')
                m jugar "$partido" --ms-por-minuto 0 >/dev/null
                cpu0=0
                for p in $pids; do cpu0=$((cpu0 + $(awk '{print $14+$15}' /proc/$p/stat))); done
                limite=$((SECONDS + 600))
                while :; do
                    hechas=$(cut -d' ' -f1 "$dir/estado" 2>/dev/null || echo 0)
                    [ "${hechas:-0}" -ge "$n" ] && break
                    [ $SECONDS -ge $limite ] && { echo "bench-difusion: $n no llegaron en 600 s ($hechas)" >&2; break; }
                    sleep 0.1
                done
                rss=0
                cpu1=0
                for p in $pids; do
                    r=$(rss_de "$p")
                    [ "$r" -gt "$rss" ] && rss=$r
                    cpu1=$((cpu1 + $(awk '{print $14+$15}' /proc/$p/stat)))
                done
                if [ "$almacen" = sqlite ]; then
                    creado=$(sqlite3 "$db" "SELECT creado FROM aviso WHERE tipo = 'gol' ORDER BY id LIMIT 1")
                else
                    creado=$(psql -qtA "$pg_url" -c "SELECT creado FROM aviso WHERE tipo = 'gol' ORDER BY id LIMIT 1")
                fi
                kill $pids 2>/dev/null || true
                wait $pids 2>/dev/null || true
                # The sink's figures of the fan-out, before h2load adds its own requests.
                cp "$dir/estado" "$dir/estado-difusion"
                # The floor: h2load against the same sink, same body size and concurrency
                # (4 connections, 1,000 streams each, as marcador's dispatcher uses).
                cuerpo=$([ "$proveedor" = apns ] && echo 200 || echo 240)
                head -c "$cuerpo" /dev/urandom >"$dir/cuerpo"
                ruta=$([ "$proveedor" = apns ] && echo "/3/device/$(printf '%064x' 1)" || echo "/w/0")
                suelo=$(h2load -n "$n" -c 4 -m 1000 -t 1 -d "$dir/cuerpo" "https://127.0.0.1:$puerto$ruta" 2>/dev/null \
                    | awk '/^finished in/ {gsub(",", "", $4); print $4}')
                kill "$sumidero" 2>/dev/null || true
                wait "$sumidero" 2>/dev/null || true
                python3 - "$dir/estado-difusion" "$creado" "$n" "$almacen" "$proveedor" "$k" "$rss" \
                    "$suelo" "$importar" "$cpu0" "$cpu1" >>"$resultados" <<'EOF'
import json, sys, os
estado, creado, n, almacen, proveedor, k, rss, suelo, importar, cpu0, cpu1 = sys.argv[1:]
hechas, primero, ultimo = open(estado).read().split()
hechas, primero, ultimo, creado, n = int(hechas), float(primero), float(ultimo), float(creado), int(n)
hz = os.sysconf("SC_CLK_TCK")
print(json.dumps({
    "almacen": almacen, "proveedor": proveedor, "dispositivos": n, "despachadores": int(k),
    "entregas": hechas,
    "segundos_hasta_el_primero": round(primero - creado, 4),
    "segundos_hasta_el_ultimo": round(ultimo - creado, 3),
    "entregas_por_segundo": round(hechas / max(ultimo - creado, 1e-9)),
    "rss_mb": round(int(rss) / 1024, 1),
    "cpu_us_por_entrega": round((int(cpu1) - int(cpu0)) / hz * 1e6 / max(hechas, 1), 1),
    "suelo_h2load_por_segundo": round(float(suelo or 0)),
    "segundos_importando": round(float(importar), 2),
}))
EOF
                tail -1 "$resultados" >&2
            done
        done
    done
done

python3 - "$resultados" <<'EOF'
import json, sys
filas = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
# A narrowed run (DIFUSION="--tamanos …") replaces its own rows and keeps the others: each row
# carries the h2load floor measured in its own run.
clave = lambda f: (f["almacen"], f["proveedor"], f["dispositivos"], f["despachadores"])
try:
    anteriores = json.load(open("bench/resultados-difusion.json"))["resultados"]
except (OSError, ValueError, KeyError):
    anteriores = []
nuevas = {clave(f) for f in filas}
orden = {"sqlite": 0, "postgresql": 1, "apns": 0, "webpush": 1}
filas = sorted([f for f in anteriores if clave(f) not in nuevas] + filas,
               key=lambda f: (orden.get(f["almacen"], 9), orden.get(f["proveedor"], 9),
                              f["dispositivos"], f["despachadores"]))
print(f"{'almacén':<11}{'proveedor':<9}{'disp.':>9}{'desp.':>6}{'→1º s':>8}{'→último s':>11}{'entregas/s':>12}"
      f"{'RSS MB':>8}{'µs CPU':>8}{'h2load/s':>10}{'× suelo':>8}{'import s':>9}")
for f in filas:
    razon = f["entregas_por_segundo"] / f["suelo_h2load_por_segundo"] if f["suelo_h2load_por_segundo"] else 0
    f["razon_con_el_suelo"] = round(razon, 3)
    print(f"{f['almacen']:<11}{f['proveedor']:<9}{f['dispositivos']:>9}{f['despachadores']:>6}"
          f"{f['segundos_hasta_el_primero']:>8.3f}{f['segundos_hasta_el_ultimo']:>11.2f}"
          f"{f['entregas_por_segundo']:>12}{f['rss_mb']:>8}{f['cpu_us_por_entrega']:>8}"
          f"{f['suelo_h2load_por_segundo']:>10}{razon:>8.2f}{f['segundos_importando']:>9}")
json.dump({"maquina": "2 núcleos", "resultados": filas}, open("bench/resultados-difusion.json", "w"),
          indent=2, ensure_ascii=False)
print("escrito bench/resultados-difusion.json")
EOF
