#!/usr/bin/env bash
# The figures of postgresql.md, PostgreSQL beside SQLite in the same run (`make bench-postgresql`):
#   1. dispatch throughput: N `avisos enviar` processes draining the same 20,000 notices on the
#      real default channel (`registro`), N = 1, 2, 4 on PostgreSQL and 1 on SQLite, each
#      PostgreSQL round followed by the same drain by N C processes (bench/despacho_pg.c);
#   2. engine cost per match: `jugar 1 --ms-por-minuto 0` (whole command) on each store, and
#      the floor under the PostgreSQL figure (bench/minutos_pg.c: only the 90 minutes, from C);
#   3. wake-up latency: a notice committed by another client until `avisos vigilar` has
#      delivered it (LISTEN/NOTIFY on PostgreSQL, the poll on SQLite);
#   4. a writer holding another match for 3 s: how much later one of partido 1's minutes
#      commits than its 100 ms (commit timestamps of its change-log rows).
# A temporary server is started as the postgres user on a Unix socket, with
# synchronous_commit=off: like SQLite's WAL with synchronous=NORMAL, a crash loses no commit
# and a power cut may lose the newest ones. RONDAS rounds (10 by default), min/median/max.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${B:-.build/release/marcador}
RONDAS=${RONDAS:-10}
AVISOS=20000
PGBIN=/usr/lib/postgresql/$(ls /usr/lib/postgresql | sort -n | tail -1)/bin
command -v psql >/dev/null && [ -x "$PGBIN/pg_ctl" ] || { echo "falta PostgreSQL (Debian: postgresql)" >&2; exit 69; }
command -v sqlite3 >/dev/null && command -v hyperfine >/dev/null || { echo "faltan sqlite3 y hyperfine" >&2; exit 69; }

DIR=$(mktemp -d /tmp/marcador-bench-pg-XXXXXX)
comopg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- env -C / "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres: "$DIR"
comopg "$PGBIN/initdb" -D "$DIR/datos" -A trust -U postgres -E UTF8 --locale=C >/dev/null
comopg "$PGBIN/pg_ctl" -D "$DIR/datos" -l "$DIR/log" -w -o "-k $DIR -c listen_addresses='' -c synchronous_commit=off -c track_commit_timestamp=on" start >/dev/null
trap 'comopg "$PGBIN/pg_ctl" -D "$DIR/datos" -m immediate stop >/dev/null; rm -rf "$DIR"' EXIT
ADMIN="postgresql://postgres@/postgres?host=$DIR"
# Called in $(…) subshells: names from the clock, not from a counter.
nueva_pg() { local b="b$(date +%s%N)"; psql -q "$ADMIN" -c "CREATE DATABASE $b"; echo "postgresql://postgres@/$b?host=$DIR"; }
nueva_sqlite() { echo "$DIR/b$(date +%s%N).sqlite3"; }
sql() { case "$1" in postgresql://*) psql -qAt "$1" -c "$2" ;; *) sqlite3 "$1" "$2" ;; esac; }

# 200 finished runs of partido 1 with 100 notices each, pending on every channel; ids in run
# order, as matches played one after another leave them (notices of one run go out in order).
encolar() {
  local db=$1 series ahora
  case "$db" in
    postgresql://*) series="generate_series(1, %s) AS s(n)"; ahora="extract(epoch from clock_timestamp())" ;;
    *) series="(WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < %s) SELECT n FROM c) AS s"; ahora="(julianday('now') - 2440587.5) * 86400.0" ;;
  esac
  sql "$db" "INSERT INTO ejecucion (partido_id, codigo, duracion, estado, minuto)
    SELECT 1, 'b' || n, 90, 'terminado', 90 FROM $(printf "$series" 200);"
  sql "$db" "INSERT INTO aviso (ejecucion_id, partido_id, identificador, titulo, cuerpo, minuto,
      jugador, equipo, marcador_local, marcador_visitante, creado)
    SELECT e.id, 1, 'gol-1-J' || s.n, '¡Gol!', 'Jugador ' || e.id || '-' || s.n || ', minuto 1', 1,
      'Jugador', 'Rayo FC', 0, 0, $ahora FROM ejecucion e, $(printf "$series" 100)
    ORDER BY e.id, s.n;"
  sql "$db" "INSERT INTO entrega (aviso_id, canal, ejecucion_id, proximo_intento)
    SELECT a.id, c.nombre, a.ejecucion_id, 0 FROM aviso a, canal c;"
  # Statistics as a store filled over time has them (autovacuum's ANALYZE on PostgreSQL): a
  # planner that believes the tables empty picks plans no real database would run.
  sql "$db" "ANALYZE;"
}


# Rows per second of one drain of the 20,000 notices by `procesos` dispatchers started
# together on a new database: `avisos enviar` (marcador) or the C baseline
# (bench/despacho_pg.c: marcador's claim and mark, one statement each, prepared once).
ronda() {
  local almacen=$1 procesos=$2 quien=$3 db inicio fin
  db=$(nueva_$almacen)
  "$B" --db "$db" avisos activar >/dev/null
  encolar "$db"
  inicio=$(date +%s.%N)
  for p in $(seq "$procesos"); do
    if [ "$quien" = c ]; then "$DIR/despacho_pg" "$db" >/dev/null & else "$B" --db "$db" avisos enviar >/dev/null 2>&1 & fi
  done
  wait
  fin=$(date +%s.%N)
  [ "$(sql "$db" "SELECT count(*) FROM entrega WHERE estado = 'entregada'")" = "$AVISOS" ] \
    || { echo "no se entregaron los $AVISOS avisos ($quien)" >&2; exit 1; }
  echo "$AVISOS / ($fin - $inicio)" | bc -l
}
${CC:-cc} -O2 -o "$DIR/despacho_pg" bench/despacho_pg.c $(pkg-config --cflags --libs libpq)

# min/median/max of a column of numbers, with $1 decimals (none by default).
resumen() { sort -n | awk -v d="${1:-0}" '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; f = "%." d "f"; printf f " " f " " f "\n", v[1], m, v[NR] }'; }

echo "Despacho de $AVISOS avisos al canal registro ($RONDAS rondas; marcador y C alternan en cada una; mín/mediana/máx):"
for r in $(seq "$RONDAS"); do ronda sqlite 1 marcador; done > "$DIR/s1"
read -r S1min S1 S1max < <(resumen < "$DIR/s1")
printf '  SQLite, 1 proceso:       %6.0f avisos/s (%s–%s)\n' "$S1" "$S1min" "$S1max"
for p in 1 2 4; do
  : > "$DIR/m$p"; : > "$DIR/c$p"
  for r in $(seq "$RONDAS"); do
    ronda pg "$p" marcador >> "$DIR/m$p"
    ronda pg "$p" c >> "$DIR/c$p"
  done
  read -r Pmin P Pmax < <(resumen < "$DIR/m$p")
  read -r Cmin C Cmax < <(resumen < "$DIR/c$p")
  [ "$p" -eq 1 ] && P1=$P
  printf '  PostgreSQL, %d proceso%s: %6.0f avisos/s (%s–%s); C %6.0f/s (%s–%s); %.2f× C, %.2f× 1 proceso, %.2f× SQLite\n' \
    "$p" "$([ "$p" -gt 1 ] && echo s || echo ' ')" "$P" "$Pmin" "$Pmax" "$C" "$Cmin" "$Cmax" \
    "$(echo "$P / $C" | bc -l)" "$(echo "$P / $P1" | bc -l)" "$(echo "$P / $S1" | bc -l)"
done

# The engine: the whole `jugar` command on each store, and the floor under the PostgreSQL figure
# (bench/minutos_pg.c: libpq, connect, the run's INSERT, its 90 fenced minute UPDATEs and its
# end, from C, nothing else). Rounds alternate the three; each round's figure is the median of 5.
${CC:-cc} -O2 -o "$DIR/minutos_pg" bench/minutos_pg.c $(pkg-config --cflags --libs libpq)
echo "Motor: jugar 1 --ms-por-minuto 0, orden entera ($RONDAS rondas alternas, mediana de 5 en cada una; mín/mediana/máx):"
DBS=$(nueva_sqlite); DBP=$(nueva_pg)
"$B" --db "$DBS" partidos >/dev/null; "$B" --db "$DBP" partidos >/dev/null
: > "$DIR/motor-s"; : > "$DIR/motor-p"; : > "$DIR/motor-c"
for r in $(seq "$RONDAS"); do
  hyperfine -N -w 1 -r 5 --export-json "$DIR/motor.json" \
    "$B --db $DBS jugar 1 --ms-por-minuto 0" "$B --db $DBP jugar 1 --ms-por-minuto 0" \
    "$DIR/minutos_pg $DBP 1" >/dev/null 2>&1
  python3 - "$DIR/motor.json" "$DIR/motor-s" "$DIR/motor-p" "$DIR/motor-c" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
for resultado, fichero in zip(r, sys.argv[2:]):
    print(f"{resultado['median'] * 1000:.1f}", file=open(fichero, "a"))
PY
done
read -r Smin S Smax < <(resumen 1 < "$DIR/motor-s")
read -r Pmin P Pmax < <(resumen 1 < "$DIR/motor-p")
read -r Cmin C Cmax < <(resumen 1 < "$DIR/motor-c")
printf '  SQLite %s ms (%s–%s); PostgreSQL %s ms (%s–%s): %.2f× SQLite\n' "$S" "$Smin" "$Smax" "$P" "$Pmin" "$Pmax" "$(echo "$P / $S" | bc -l)"
printf '  suelo en PostgreSQL (C: conectar, empezar, los 90 minutos, terminar): %s ms (%s–%s) = %.2f× SQLite; marcador %.2f× el suelo\n' \
  "$C" "$Cmin" "$Cmax" "$(echo "$C / $S" | bc -l)" "$(echo "$P / $C" | bc -l)"

# Commit → delivered, 20 notices one at a time while `avisos vigilar` serves.
despertar() {
  local db=$1 ahora vig i
  case "$db" in postgresql://*) ahora="extract(epoch from clock_timestamp())" ;; *) ahora="(julianday('now') - 2440587.5) * 86400.0" ;; esac
  "$B" --db "$db" avisos activar >/dev/null
  "$B" --db "$db" avisos vigilar >/dev/null 2>&1 & vig=$!
  sleep 1
  sql "$db" "INSERT INTO ejecucion (partido_id, codigo, duracion, estado, minuto) VALUES (1, 'lat', 90, 'terminado', 90);" >/dev/null
  for i in $(seq 20); do
    sql "$db" "INSERT INTO aviso (ejecucion_id, partido_id, identificador, titulo, cuerpo, minuto,
        jugador, equipo, marcador_local, marcador_visitante, creado)
      SELECT max(id), 1, 'gol-1-L$i', '¡Gol!', 'L$i, minuto 1', 1, 'L', 'Rayo FC', 0, 0, $ahora FROM ejecucion;
      INSERT INTO entrega (aviso_id, canal, ejecucion_id, proximo_intento)
      SELECT max(a.id), 'registro', max(a.ejecucion_id), 0 FROM aviso a;" >/dev/null
    sleep 0.3
  done
  kill -INT $vig; wait $vig || true
  sql "$db" "SELECT (e.entregada_en - a.creado) * 1000 FROM entrega e JOIN aviso a ON a.id = e.aviso_id WHERE e.estado = 'entregada'" \
    | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f ms (p90 %.1f ms, %d avisos)", v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)], NR }'
}
echo "Despertar: del commit a la entrega con avisos vigilar (mediana de 20):"
echo "  SQLite (sondeo): $(despertar "$(nueva_sqlite)")"
echo "  PostgreSQL (LISTEN/NOTIFY): $(despertar "$(nueva_pg)")"

# While partido 1 plays at 100 ms a minute, another client holds for 3 s what a long write of
# marcador holds (the store's write lock, then partido 2's row). The longest gap between two
# of partido 1's minutes, less the 100 ms a minute lasts, from the commit timestamps of its
# change-log rows (one per minute, written in the minute's transaction).
retener() {
  local db jug
  db=$(nueva_pg)
  "$B" --db "$db" partidos >/dev/null
  "$B" --db "$db" jugar 1 --ms-por-minuto 100 >/dev/null 2>&1 & jug=$!
  until [ "$(sql "$db" "SELECT coalesce(max(minuto), 0) FROM ejecucion WHERE partido_id = 1")" -ge 5 ]; do sleep 0.05; done
  psql -q "$db" -c "BEGIN; SELECT pg_advisory_xact_lock(4242, 0);
    UPDATE partido SET competicion = competicion WHERE id = 2; SELECT pg_sleep(3); COMMIT;" >/dev/null
  wait $jug
  sql "$db" "SELECT max(d) FROM (SELECT extract(epoch FROM pg_xact_commit_timestamp(xmin)
      - lag(pg_xact_commit_timestamp(xmin)) OVER (ORDER BY id)) * 1000 - 100 AS d
    FROM cambio WHERE partido_id = 1 AND clase = 'partido' AND minuto > 0) s"
}
for r in $(seq "$RONDAS"); do retener; done > "$DIR/retener"
read -r Rmin R Rmax < <(resumen < "$DIR/retener")
printf 'Un escritor retiene otro partido 3 s: el minuto más tardío llega %s ms después de sus 100 ms (%s–%s; %s rondas)\n' "$R" "$Rmin" "$Rmax" "$RONDAS"
