import Aplicacion

/// The man page (troff `man` macros), written from the same declarations as help.
@MainActor
enum Manual {
    static func pagina(raiz: any ComandoDeclarado.Type, version: String) -> String {
        var texto = """
            .TH MARCADOR 1 "" "marcador \(version)" "Manual de marcador"
            .SH NOMBRE
            marcador \\- \(escapar(raiz.configuracion.resumen))
            .SH SINOPSIS
            .B marcador
            [\\fIopciones globales\\fR] \\fIcomando\\fR [\\fIargumentos\\fR]
            .SH DESCRIPCIÓN
            Juega partidos minuto a minuto desde un guion de goles, guarda todo en SQLite y entrega
            avisos «¡Gol!» a canales (terminal, registro, escritorio, webhook, ficheros APNs) a
            través de una cola duradera.
            .SH OPCIONES GLOBALES

            """
        for especificacion in OpcionesGlobales.declaraciones.map(\.especificacion) {
            texto += ".TP\n.B \(escapar(especificacion.firma))\n\(escapar(especificacion.ayuda))\n"
        }
        texto += ".SH COMANDOS\n"
        comandos(raiz, [raiz], &texto)
        texto += """
            .SH ESTADO DE SALIDA
            0 bien; 64 uso incorrecto; 65 datos incorrectos; 66 no existe el partido o el fichero;
            69 canal de avisos no disponible; 74 error de lectura o escritura o de la base de datos;
            129 terminal cerrada (SIGHUP); 130 interrumpido (SIGINT); 143 terminado (SIGTERM).
            .SH ENTORNO
            .TP
            .B MARCADOR_DB
            La base de datos, si no se da \\-\\-db.
            .TP
            .B XDG_DATA_HOME, HOME
            Dónde está la base de datos por defecto (marcador/marcador.sqlite3).
            .TP
            .B XDG_CACHE_HOME
            Dónde se guardan los adjuntos descargados.
            .TP
            .B NO_COLOR
            Sin colores.
            .SH VÉASE TAMBIÉN
            marcador help COMANDO, marcador COMANDO \\-\\-help

            """
        return texto
    }

    private static func comandos(
        _ tipo: any ComandoDeclarado.Type, _ ruta: [any ComandoDeclarado.Type],
        _ texto: inout String
    ) {
        for sub in tipo.configuracion.subcomandos where !sub.configuracion.oculto {
            let camino = ruta + [sub]
            texto += ".TP\n.B \(escapar(Ayuda.uso(camino)))\n"
            texto += escapar(sub.configuracion.resumen) + "\n"
            let propias = declaraciones(de: sub).map(\.especificacion).filter {
                !$0.oculta
            }
            if !propias.isEmpty {
                texto += ".RS\n"
                for especificacion in propias {
                    texto +=
                        ".TP\n.B \(escapar(especificacion.firma))\n\(escapar(especificacion.ayuda))\n"
                }
                texto += ".RE\n"
            }
            comandos(sub, camino, &texto)
        }
    }

    /// Backslashes and leading dots or quotes are troff syntax; hyphens are written `\-`.
    private static func escapar(_ texto: String) -> String {
        var salida = texto.reemplazando("\\", por: "\\e").reemplazando("-", por: "\\-")
        if salida.hasPrefix(".") || salida.hasPrefix("'") { salida = "\\&" + salida }
        return salida
    }
}
