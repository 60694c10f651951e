#!/usr/bin/env bash
# Builds the two libFuzzer targets with swiftc -sanitize=fuzzer,address and runs each for a
# bounded time (FUZZ_SEGUNDOS, default 60). Crashes land in Fuzz/hallazgos/ and must become
# regression tests. Prints executions per second and total executions of each run.
set -euo pipefail
cd "$(dirname "$0")/.."
segundos="${FUZZ_SEGUNDOS:-60}"
out=.build/fuzz
mkdir -p "$out" Fuzz/hallazgos Fuzz/corpus/importador Fuzz/corpus/argumentos
flags=(-sanitize=fuzzer,address -parse-as-library -O -g)

# Torneo and Importador as modules with coverage, then the importer target against them.
swiftc "${flags[@]}" -wmo -emit-module -module-name Torneo -emit-module-path "$out/Torneo.swiftmodule" \
    -c Sources/Torneo/*.swift -o "$out/Torneo.o"
swiftc "${flags[@]}" -wmo -emit-module -module-name Importador -emit-module-path "$out/Importador.swiftmodule" \
    -I "$out" -c Sources/Importador/*.swift -o "$out/Importador.o"
swiftc "${flags[@]}" -I "$out" Fuzz/ImportadorFuzz.swift "$out/Torneo.o" "$out/Importador.o" \
    -o "$out/fuzz-importador"
linea=Sources/marcador/Linea
swiftc "${flags[@]}" -swift-version 6 -module-name Argumentos -I "$out" Fuzz/ArgumentosFuzz.swift \
    $linea/Declaraciones.swift $linea/Analizador.swift $linea/Sugerencia.swift $linea/ValorDeLinea.swift \
    $linea/Fallo.swift $linea/CodigoDeSalida.swift $linea/ComandoDeclarado.swift $linea/Ayuda.swift \
    "$out/Torneo.o" -o "$out/fuzz-argumentos"

cp -n Tests/Recursos/openfootball/*.json Fuzz/corpus/importador/ 2>/dev/null || true
printf 'jugar\0001\0--duracion\00090' > Fuzz/corpus/argumentos/jugar
printf -- '--db\0/tmp/x\0avisos\0--json\0anadir\0local\0--equipo\0Francia' > Fuzz/corpus/argumentos/avisos

for objetivo in importador argumentos; do
    echo "== fuzz-$objetivo ($segundos s)"
    "$out/fuzz-$objetivo" -max_total_time="$segundos" -print_final_stats=1 -artifact_prefix=Fuzz/hallazgos/ \
        -max_len=65536 Fuzz/corpus/$objetivo 2>&1 | grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|ERROR|SUMMARY|Done" || true
done
