import Sistema

/// The pages, style sheet, script and Service Worker of `marcador servir`, compiled into the
/// binary from `web/` (no CDN, no build step, nothing read from disk at run time).
enum Paginas {
    /// Files served as they are, by name (`app.js`); the HTML pages are templates.
    static func estatico(_ nombre: String) -> ArchivoIncrustado? {
        guard !nombre.hasSuffix(".html") else { return nil }
        return RecursosIncrustados.web.first { $0.nombre == nombre }
    }

    static func tipo(_ nombre: String) -> String {
        switch nombre.split(separator: ".").last {
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "json", "webmanifest": "application/manifest+json"
        case "png": "image/png"
        default: "application/octet-stream"
        }
    }

    /// An HTML page with its `{{NOMBRE}}` marks replaced; values are escaped for HTML (they are
    /// a token and a number, but nothing unescaped ever goes into a page).
    /// `html` holds fragments the server rendered (`Vistas`, which escapes what it puts in),
    /// inserted as they are; `valores` are plain texts, escaped here.
    static func plantilla(
        _ nombre: String, _ valores: [String: String], html: [String: String] = [:]
    ) -> [UInt8] {
        var texto = RecursosIncrustados.web.first { $0.nombre == nombre }?.texto ?? ""
        for (clave, valor) in valores {
            texto = texto.reemplazando("{{\(clave)}}", por: escaparHTML(valor))
        }
        for (clave, fragmento) in html {
            texto = texto.reemplazando("{{{\(clave)}}}", por: fragmento)
        }
        return Array(texto.utf8)
    }

    static func escaparHTML(_ texto: String) -> String {
        var salida = ""
        for caracter in texto {
            switch caracter {
            case "&": salida += "&amp;"
            case "<": salida += "&lt;"
            case ">": salida += "&gt;"
            case "\"": salida += "&quot;"
            case "'": salida += "&#39;"
            default: salida.append(caracter)
            }
        }
        return salida
    }
}
