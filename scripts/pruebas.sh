#!/usr/bin/env bash
# `make test`: the unit suites in one test process, all at once; then, in a process of their
# own, the suites that run real processes and servers (the built binary, PostgreSQL, Chromium,
# dunst), so neither starves the other of the two cores. Prints what failed, one line per suite
# and the ten slowest tests; the whole output is kept under .build/pruebas/.
#   FILTRO=Despachador scripts/pruebas.sh   runs only the tests whose name matches.
set -uo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
LIMITE=${LIMITE:-900}
carpeta=.build/pruebas
mkdir -p "$carpeta"
# The process suites are two test targets: MarcadorTests (the built binary, Chromium, dunst) and
# ServidoresTests (a real PostgreSQL server); every other target is a unit suite.
procesos='^(MarcadorTests|ServidoresTests)\.'

# Runs one `swift test` with its output to a file; prints the failures as they are.
correr() {
    local nombre=$1
    shift
    local salida="$carpeta/$nombre.txt"
    echo "== $nombre: swift test $*"
    timeout "$LIMITE" "$SWIFT" test --skip-build "$@" >"$salida" 2>&1
    local codigo=$?
    # Failures with their details (the indented lines after them), and any crash.
    awk '/^✘|Fatal error|Crash|error:/ {print; mostrar=1; next}
         mostrar && /^[[:space:]]/ {print; next}
         {mostrar=0}' "$salida"
    [ "$codigo" -eq 124 ] && echo "!! $nombre: pasó de $LIMITE s y se cortó"
    return "$codigo"
}

# One line per suite (passed, failed, skipped with why) and the ten slowest tests.
resumir() {
    echo
    echo "== Suites"
    grep -hE '^[✔✘] Suite ' "$@" |
        sed -E 's/^([✔✘]) Suite "([^"]*)" (passed|failed) after ([0-9.]+) seconds\.?( with .*)?\.?$/\4 \1 \2\5/' |
        sort -k1,1 -rn | awk '{printf "  %s %7.2f s  %s\n", $2, $1, substr($0, index($0, $3))}'
    local saltadas
    saltadas=$(grep -hE '^[^↳ ]+ (Test|Suite) .* skipped' "$@" | sed -E 's/^[^ ]+ //')
    if [ -n "$saltadas" ]; then
        echo "== Saltadas (con su motivo)"
        echo "$saltadas" | awk '{printf "  %s\n", $0}'
    fi
    echo "== Las diez más lentas"
    grep -hE '^[✔✘] Test .* after [0-9.]+ seconds' "$@" | grep -v '^[✔✘] Test run with' |
        sed -E 's/^[✔✘] Test (.*) (passed|failed) after ([0-9.]+) seconds.*/\3 \1/' |
        sort -rn | head -10 | awk '{printf "  %6.2f s  %s\n", $1, substr($0, index($0, " ") + 1)}'
    grep -hE '^[✔✘] Test run with' "$@" | awk '{printf "  %s\n", $0}'
}

if [ -n "${FILTRO:-}" ]; then
    correr filtro --parallel --filter "$FILTRO"
    codigo=$?
    resumir "$carpeta/filtro.txt"
    exit "$codigo"
fi

correr unidad --parallel --skip "$procesos"
unidad=$?
# The fan-out to thousands of devices (a C sink, dispatchers, a stream per device) keeps both
# cores busy for a minute: beside the other process suites it starved their timing-bound
# tests, so it runs alone, after them.
difusion='^MarcadorTests\.DifusionE2ETests'
correr procesos --parallel --filter "$procesos" --skip "$difusion"
procesos_=$?
correr difusion --filter "$difusion"
difusion_=$?
resumir "$carpeta/unidad.txt" "$carpeta/procesos.txt" "$carpeta/difusion.txt"
echo "(salida completa en $carpeta/unidad.txt, $carpeta/procesos.txt y $carpeta/difusion.txt)"
[ "$unidad" -eq 0 ] && [ "$procesos_" -eq 0 ] && [ "$difusion_" -eq 0 ]
