import CSenales

/// What happens when a file mapped into memory stops working under the process.
public enum FalloDelBus {
    /// From now on a SIGBUS writes `mensaje` (one line, to stderr) and exits with `estado`
    /// instead of dying of the signal. SQLite maps the database's `-shm`: a disk that turns
    /// immutable (`chattr +i`) or read-only mid-match answers the next write there with
    /// SIGBUS, and the user deserves the documented status and a reason, not a crash report.
    /// What was committed is safe: the WAL is only ever appended to.
    public static func salirCon(_ estado: Int32, mensaje: String) {
        _ = senales_sigbus_sale(mensaje, estado)
    }
}
