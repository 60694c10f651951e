/// How names typed on the command line are compared with stored ones (fans.md): without
/// case, accents or punctuation, so `--equipo "cote d ivoire"` finds «Côte d'Ivoire» and
/// `--competicion "WORLD CUP 2018"` finds «World Cup 2018».
public enum ClaveDeNombre {
    /// The comparison key: lower case, letters without their accents (decomposed or not),
    /// anything but letters and digits as one space, trimmed.
    public static func de(_ nombre: String) -> String {
        if let clave = deASCII(nombre) { return clave }
        var clave = ""
        var espacioPendiente = false
        for escalar in nombre.unicodeScalars {
            // A combining mark (a decomposed accent) belongs to the previous letter.
            if escalar.properties.generalCategory == .nonspacingMark { continue }
            let parte: String
            if let base = sinAcento[escalar] {
                parte = base
            } else if escalar.properties.isAlphabetic || escalar.properties.numericType != nil {
                parte = String(escalar).lowercased()
            } else {
                espacioPendiente = !clave.isEmpty
                continue
            }
            if espacioPendiente { clave += " " }
            espacioPendiente = false
            clave += parte
        }
        return clave
    }

    /// The same key for a plain ASCII name (most of them) without Unicode property lookups;
    /// `nil` when the name has anything else.
    private static func deASCII(_ nombre: String) -> String? {
        var nombre = nombre
        return nombre.withUTF8 { bytes -> String? in
            var clave: [UInt8] = []
            clave.reserveCapacity(bytes.count)
            var espacioPendiente = false
            for byte in bytes {
                switch byte {
                case 0x80...: return nil
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if espacioPendiente { clave.append(UInt8(ascii: " ")) }
                    espacioPendiente = false
                    clave.append(byte | (byte >= UInt8(ascii: "A") ? 0x20 : 0))
                default:
                    espacioPendiente = !clave.isEmpty
                }
            }
            return String(decoding: clave, as: UTF8.self)
        }
    }

    /// Latin letters with diacritics and their base (`ß` → `ss`, `ø` → `o`): the letters of
    /// Latin-1, Latin Extended-A/B and Latin Extended Additional.
    private static let sinAcento: [Unicode.Scalar: String] = {
        let grupos: [(String, String)] = [
            ("a", "ÀÁÂÃÄÅàáâãäåĀāĂăĄąǍǎǞǟǠǡǺǻȀȁȂȃȦȧḀḁẠạẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặ"),
            ("ae", "Ææ"),
            ("b", "ḂḃḄḅḆḇ"),
            ("c", "ÇçĆćĈĉĊċČčḈḉ"),
            ("d", "ÐðĎďĐđḊḋḌḍḎḏḐḑḒḓ"),
            ("e", "ÈÉÊËèéêëĒēĔĕĖėĘęĚěȄȅȆȇȨȩḔḕḖḗḘḙḚḛḜḝẸẹẺẻẼẽẾếỀềỂểỄễỆệ"),
            ("f", "Ḟḟ"),
            ("g", "ĜĝĞğĠġĢģǦǧǴǵḠḡ"),
            ("h", "ĤĥĦħȞȟḢḣḤḥḦḧḨḩḪḫẖ"),
            ("i", "ÌÍÎÏìíîïĨĩĪīĬĭĮįİıǏǐȈȉȊȋḬḭḮḯỈỉỊị"),
            ("j", "Ĵĵǰ"),
            ("k", "ĶķĸǨǩḰḱḲḳḴḵ"),
            ("l", "ĹĺĻļĽľĿŀŁłḶḷḸḹḺḻḼḽ"),
            ("m", "ḾḿṀṁṂṃ"),
            ("n", "ÑñŃńŅņŇňŊŋǸǹṄṅṆṇṈṉṊṋ"),
            ("o", "ÒÓÔÕÖØòóôõöøŌōŎŏŐőƠơǑǒǪǫǬǭȌȍȎȏȪȫȬȭȮȯȰȱṌṍṎṏṐṑṒṓỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợ"),
            ("oe", "Œœ"),
            ("p", "ṔṕṖṗ"),
            ("r", "ŔŕŖŗŘřȐȑȒȓṘṙṚṛṜṝṞṟ"),
            ("s", "ŚśŜŝŞşŠšſȘșṠṡṢṣṤṥṦṧṨṩ"),
            ("ss", "ß"),
            ("t", "ŢţŤťȚțṪṫṬṭṮṯṰṱẗ"),
            ("th", "Þþ"),
            ("u", "ÙÚÛÜùúûüŨũŪūŬŭŮůŰűŲųƯưǓǔǕǖǗǘǙǚǛǜȔȕȖȗṲṳṴṵṶṷṸṹṺṻỤụỦủỨứỪừỬửỮữỰự"),
            ("v", "ṼṽṾṿ"),
            ("w", "ŴŵẀẁẂẃẄẅẆẇẈẉẘ"),
            ("x", "ẊẋẌẍ"),
            ("y", "ÝýÿŶŷŸȲȳẎẏẙỲỳỴỵỶỷỸỹ"),
            ("z", "ŹźŻżŽžẐẑẒẓẔẕ"),
        ]
        var tabla: [Unicode.Scalar: String] = [:]
        for (base, letras) in grupos {
            for escalar in letras.unicodeScalars { tabla[escalar] = base }
        }
        return tabla
    }()

    /// The stored names closest to `buscado` (same key first, then by edit distance of keys),
    /// for «no hay ninguno llamado…; ¿quizá…?» messages.
    public static func parecidos(a buscado: String, entre nombres: [String], como maximo: Int = 5)
        -> [String]
    {
        let clave = de(buscado)
        let limite = Swift.max(3, clave.count / 2)
        var candidatos: [(nombre: String, distancia: Int)] = []
        for nombre in nombres {
            let suya = de(nombre)
            let d = distancia(clave, suya)
            if d <= limite || (!clave.isEmpty && suya.contains(clave)) {
                candidatos.append((nombre, d))
            }
        }
        candidatos.sort {
            $0.distancia != $1.distancia ? $0.distancia < $1.distancia : $0.nombre < $1.nombre
        }
        return candidatos.prefix(maximo).map(\.nombre)
    }

    /// Edit distance in characters, a swap of two neighbours counting as one edit (the
    /// commonest slip: `jugra` for `jugar`).
    public static func distancia(_ a: String, _ b: String) -> Int {
        let x = Array(a)
        let y = Array(b)
        guard !x.isEmpty else { return y.count }
        guard !y.isEmpty else { return x.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let coste = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = Swift.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + coste)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d[i][j] = Swift.min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[x.count][y.count]
    }
}
