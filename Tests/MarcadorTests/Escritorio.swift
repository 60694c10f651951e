import Foundation

/// A private desktop for a test: Xvfb on a display of its own, a D-Bus session, the dunst
/// notification daemon owning org.freedesktop.Notifications (`Tests/escritorio.sh`). The
/// desktop channel's test and the Chromium scripts run in one, so every notification they
/// raise reaches a real notification server, where dbus-monitor reads it.
enum Escritorio {
    static let guion = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("escritorio.sh").path

    /// Why a desktop cannot be set up here (the Debian packages it needs), or `nil`.
    static let falta: String? = {
        let programas = [
            "/usr/bin/Xvfb", "/usr/bin/dbus-run-session", "/usr/bin/dbus-send",
            "/usr/bin/dbus-monitor", "/usr/bin/dunst", "/usr/bin/notify-send",
        ]
        let faltan = programas.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        return faltan.isEmpty
            ? nil
            : "faltan \(faltan.joined(separator: ", ")) (Debian: xvfb, dbus, dunst, libnotify-bin)"
    }()

    /// `argumentos` (a program and its arguments) run on a desktop of their own.
    static func proceso(_ argumentos: [String], carpeta: String) throws -> Proceso {
        try Proceso(argumentos, carpeta: carpeta, ejecutable: guion)
    }
}
