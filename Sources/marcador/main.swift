import Aplicacion
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A closed pipe (`marcador registro | head`) must end output quietly, not kill us with SIGPIPE.
signal(SIGPIPE, SIG_IGN)

let codigo = await Programa.ejecutar(
    Array(CommandLine.arguments.dropFirst()), entorno: ProcessInfo.processInfo.environment)
exit(codigo.rawValue)
