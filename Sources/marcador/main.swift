import Aplicacion
import Sistema

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Before any thread starts (the store's lanes, the dispatchers, the concurrency pool).
Memoria.unaSolaArena()
// A closed pipe (`marcador registro | head`) must end output quietly, not kill us with SIGPIPE.
signal(SIGPIPE, SIG_IGN)
// SQLite's shared memory file stops working when its disk turns immutable or read-only: the
// process cannot go on, but it ends with the status of an I/O failure and says why.
FalloDelBus.salirCon(
    CodigoDeSalida.entradaSalida.rawValue,
    mensaje: "marcador: la base de datos dejó de poder escribirse a mitad de trabajo "
        + "(¿su disco pasó a solo lectura o el fichero a inmutable?); lo ya guardado sigue "
        + "intacto (un partido a medias sigue con «jugar N --reanudar»).\n")

let codigo = await Programa.ejecutar(
    Array(CommandLine.arguments.dropFirst()), entorno: Entorno.actual())
exit(codigo.rawValue)
