extension String {
    /// `self` with every `buscado` replaced by `nuevo` (plain text, no patterns; no Foundation).
    public func reemplazando(_ buscado: String, por nuevo: String) -> String {
        guard !buscado.isEmpty else { return self }
        return split(separator: buscado, omittingEmptySubsequences: false).joined(separator: nuevo)
    }
}
