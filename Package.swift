// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "marcador",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "marcador", targets: ["marcador"])
    ],
    targets: [
        // SQLite comes from the system (Debian's libsqlite3-dev): no package can be fetched here.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "Torneo"),
        .target(
            name: "Almacen",
            dependencies: ["CSQLite", "Torneo"],
            plugins: ["Incrustar"]
        ),
        .target(name: "Motor", dependencies: ["Torneo"]),
        .executableTarget(
            name: "marcador",
            dependencies: ["Torneo", "Almacen", "Motor"]
        ),
        // Turns migrations/*.sql and seeds/* into Swift literals so the binary works from any directory.
        .executableTarget(name: "incrustador"),
        .plugin(
            name: "Incrustar",
            capability: .buildTool(),
            dependencies: ["incrustador"]
        ),
        .testTarget(name: "TorneoTests", dependencies: ["Torneo"]),
        .testTarget(name: "AlmacenTests", dependencies: ["Almacen", "Torneo"]),
        .testTarget(name: "MotorTests", dependencies: ["Motor", "Almacen", "Torneo"]),
        .testTarget(name: "MarcadorTests", dependencies: ["marcador", "Almacen", "Torneo"]),
    ],
    swiftLanguageModes: [.v6]
)
