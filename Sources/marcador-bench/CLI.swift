@MainActor
func medirCLI() async throws {}
@MainActor
func medirMemoria() async throws {}
@MainActor
func medirNucleo() async throws {}
@MainActor
func medirAficionado() async throws {}
