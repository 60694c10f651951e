// `make bench`: marcador's figures, each against a baseline measured in the same run, so the
// ratio means something on a noisy machine. Prints one table and writes bench/results.json.
// What each baseline does is in bench/README.md.
import Almacen
import Avisos
import CSQLite
import Foundation
import Motor
import Sistema
import Torneo

let rapido = CommandLine.arguments.contains("--rapido")
let solo = CommandLine.arguments.drop { $0 != "--solo" }.dropFirst().first
let carpeta = NSTemporaryDirectory() + "marcador-bench-" + String(getpid())
try FileManager.default.createDirectory(atPath: carpeta, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: carpeta) }
let aqui = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
let binario = aqui.appendingPathComponent("marcador").path
let suelo = aqui.appendingPathComponent("marcador-suelo").path
var medidas: [Medida] = []

func nuevaBase(_ nombre: String, permiso: Bool = true) throws -> (String, DatabaseQueue) {
    let ruta = carpeta + "/" + nombre + ".sqlite3"
    let queue = try Almacen.abrir(ruta: ruta)
    let repositorio = PartidosSQLite(queue)
    var ajustes = try repositorio.ajustes()
    ajustes.avisosPermitidos = permiso
    try repositorio.guardar(ajustes)
    return (ruta, queue)
}

func informar(_ texto: String) { FileHandle.standardError.write(Data((texto + "\n").utf8)) }

/// Runs a section unless `--solo` names another one.
func seccion(_ nombre: String, _ cuerpo: () async throws -> Void) async rethrows {
    guard solo == nil || solo == nombre else { return }
    informar("== \(nombre)")
    try await cuerpo()
}

try await seccion("motor") { try await medirMotor() }
if solo == "motor-swift" { try await perfilarMotor(enC: false) }
if solo == "motor-c" { try await perfilarMotor(enC: true) }
if solo == "despacho-swift" { try await perfilarDespacho(enC: false) }
if solo == "despacho-c" { try await perfilarDespacho(enC: true) }
try await seccion("reloj") { try await medirReloj() }
try await seccion("despacho") { try await medirDespacho() }
try await seccion("cli") { try await medirCLI() }
try await seccion("memoria") { try await medirMemoria() }
try await seccion("nucleo") { try await medirNucleo() }
try await seccion("aficionado") { try await medirAficionado() }
try await seccion("futbol") { try await medirFutbolReal() }
try await seccion("directo") { try await medirDirecto() }
try await seccion("eventos") { try await medirEventos() }

// MARK: - Report

func formato(_ x: Double) -> String {
    if x.isNaN { return "-" }
    if abs(x) >= 1000 { return String(format: "%.0f", x) }
    if abs(x) >= 10 { return String(format: "%.1f", x) }
    return String(format: "%.2f", x)
}

var lineas = [["medida", "unidad", "mediana", "mín", "máx", "p99", "base (mediana)", "razón"]]
for m in medidas {
    lineas.append([
        m.nombre, m.unidad, formato(m.mediana), formato(m.minimo), formato(m.maximo),
        formato(m.p99),
        m.medianaBase.map { formato($0) + " (" + (m.base ?? "") + ")" } ?? (m.base ?? "-"),
        m.ratio.map { String(format: "%.2f×", $0) } ?? "-",
    ])
}
let anchos = (0..<lineas[0].count).map { i in lineas.map { $0[i].count }.max()! }
for fila in lineas {
    print(
        fila.enumerated().map { $1 + String(repeating: " ", count: anchos[$0] - $1.count) }.joined(
            separator: "  "))
}

func leer(_ ruta: String) -> String { (try? String(contentsOfFile: ruta, encoding: .utf8)) ?? "" }
let cpu =
    leer("/proc/cpuinfo").split(separator: "\n").first { $0.hasPrefix("model name") }
    .map {
        String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(
            in: .whitespaces)
    } ?? "?"
struct Informe: Encodable {
    var fecha: String
    var maquina: [String: String]
    var medidas: [Medida]
}
let informe = Informe(
    fecha: ISO8601DateFormatter().string(from: Date()),
    maquina: [
        "cpu": cpu, "nucleos": String(ProcessInfo.processInfo.activeProcessorCount),
        "memoria_GiB": String(ProcessInfo.processInfo.physicalMemory / 1_073_741_824),
        "kernel": ProcessInfo.processInfo.operatingSystemVersionString,
        "sqlite": String(cString: sqlite3_libversion()), "modo": rapido ? "rápido" : "completo",
    ],
    medidas: medidas)
let codificador = JSONEncoder()
codificador.outputFormatting = [.prettyPrinted, .sortedKeys]
if let salida = CommandLine.arguments.drop(while: { $0 != "--salida" }).dropFirst().first {
    try codificador.encode(informe).write(to: URL(fileURLWithPath: salida))
    informar("escrito \(salida)")
}
