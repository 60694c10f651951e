import Foundation
import Sistema
import Testing

/// Commands read their environment through `Entorno`, not `ProcessInfo`: it must be the same
/// dictionary, whatever this test process was started with.
@Suite("Entorno del proceso")
struct EntornoTests {
    @Test func esElMismoQueDaProcessInfo() {
        let leido = Entorno.actual()
        #expect(leido == ProcessInfo.processInfo.environment)
        // PATH is set wherever `swift test` runs, so the comparison is over real pairs.
        #expect(leido["PATH"]?.isEmpty == false)
    }
}
