import Testing

@testable import marcador

/// The parser learns a command's declarations from the property wrappers reporting themselves
/// as they are made, not by reflection; reflection stays here, as the independent check that
/// no declaration is missed, doubled or out of order, in any command of the tree.
@MainActor
@Suite("Declaraciones recogidas al crear cada comando")
struct RecogidaTests {
    /// Every declaration inside `valor`, groups of options flattened in place, by reflection.
    func porReflejo(_ valor: Any) -> [any Declaracion] {
        Mirror(reflecting: valor).children.flatMap { hijo -> [any Declaracion] in
            if let declaracion = hijo.value as? any Declaracion { return [declaracion] }
            if hijo.value is any GrupoDeOpciones { return porReflejo(hijo.value) }
            return []
        }
    }

    func arbol(_ raiz: any ComandoDeclarado.Type) -> [any ComandoDeclarado.Type] {
        [raiz] + raiz.configuracion.subcomandos.flatMap { arbol($0) }
    }

    func comparar(_ recogidas: [any Declaracion], _ reflejadas: [any Declaracion], _ que: String) {
        #expect(
            recogidas.map(\.especificacion.nombres) == reflejadas.map(\.especificacion.nombres),
            "\(que)")
        for (recogida, reflejada) in zip(recogidas, reflejadas) {
            #expect(
                recogida.lectura === reflejada.lectura, "\(que): \(recogida.especificacion.nombre)")
        }
    }

    @Test func cadaComandoDelArbolDaLasMismasDeclaracionesQueElReflejo() {
        let tipos = arbol(ComandoRaiz.self)
        #expect(tipos.count >= 30)
        var conGrupo = 0
        var total = 0
        for tipo in tipos {
            let (comando, recogidas) = Recogida.declarado { tipo.init() }
            let reflejadas = porReflejo(comando)
            comparar(recogidas, reflejadas, tipo.configuracion.nombre)
            total += recogidas.count
            if Mirror(reflecting: comando).children.contains(where: {
                $0.value is any GrupoDeOpciones
            }) {
                conGrupo += 1
            }
        }
        // The check means something only if the tree has declarations and groups to find.
        #expect(total > 50)
        #expect(conGrupo > 0)
    }

    @Test func lasOpcionesGlobalesTambien() {
        let (globales, recogidas) = Recogida.declarado { OpcionesGlobales() }
        comparar(recogidas, porReflejo(globales), "globales")
        #expect(
            recogidas.map(\.especificacion.nombre) == [
                "--db", "--reiniciar-datos", "--help", "--version",
            ])
    }

    @Test func fueraDeUnaRecogidaNadaSeApuntaYLasAnidadasNoSeMezclan() {
        _ = OpcionesGlobales()
        let (_, exterior) = Recogida.declarado { () -> OpcionesGlobales in
            let interior = Recogida.declarado { OpcionesGlobales() }.declaraciones
            #expect(interior.count == 4)
            return OpcionesGlobales()
        }
        #expect(exterior.count == 4)
    }
}
