// swift-tools-version: 6.0
import PackageDescription

// Debian's libsqlite3.so is linked with BIND_NOW: loading it resolves its 1,600 symbol
// relocations before `main`, a tenth of `marcador --version`. Its static archive (same
// package, same version) costs nothing until a statement runs, and drops what is unused.
let sqliteEstatico: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "-l:libsqlite3.a"]), .linkedLibrary("m"),
]

let package = Package(
    name: "marcador",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "marcador", targets: ["marcador"])
    ],
    targets: [
        // SQLite comes from the system (Debian's libsqlite3-dev): no package can be fetched here.
        // Its static archive is linked (`sqliteEstatico`), not the shared library.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libcurl for webhooks and attachments (https included): the header from Debian's
        // libcurl4-openssl-dev at build time, the library loaded with dlopen when first needed.
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // libevent's evhttp for `marcador servir`: the headers from Debian's libevent-dev at
        // build time, the library loaded with dlopen when the server starts.
        .systemLibrary(
            name: "CEvent",
            providers: [.apt(["libevent-dev"])]
        ),
        // libpq for the PostgreSQL store: the header from Debian's libpq-dev at build time, the
        // library loaded with dlopen when a postgresql:// database is opened.
        .systemLibrary(
            name: "CPostgres",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(name: "Torneo"),
        // The one signal handler that must be C: SIGBUS from a mapped file that stopped working.
        .target(name: "CSenales"),
        // What the operating system says: process identity and liveness, wall time, output.
        // glibc's allocator tuning (malloc.h), which the Glibc module does not bring.
        .systemLibrary(name: "CMalloc"),
        .target(name: "Sistema", dependencies: ["Torneo", "CSenales", "CMalloc"]),
        // Real push (issue 44): the cryptography of Web Push (P-256 ECDH, HKDF, AES-128-GCM)
        // on OpenSSL's libcrypto (Debian's libssl-dev), and what is built on it.
        .target(name: "CCifrado", linkerSettings: [.linkedLibrary("crypto")]),
        .target(name: "Empuje", dependencies: ["CCifrado"]),
        // Batches of push requests (contract.md §20): HTTP/2 on libnghttp2 and TLS on OpenSSL
        // (Debian's libnghttp2-dev, libssl-dev), several connections, many streams each.
        .target(
            name: "CEnvioH2",
            linkerSettings: [
                .linkedLibrary("nghttp2"), .linkedLibrary("ssl"), .linkedLibrary("crypto"),
            ]),
        // The store interfaces every front end, use case and store speaks (DESIGN §13).
        .target(name: "Persistencia", dependencies: ["Torneo", "Sistema"]),
        // The repositories, written once in the SQL both stores speak, over a small connection
        // protocol; the seed data. Knows no driver.
        .target(
            name: "AlmacenSQL",
            dependencies: ["Persistencia", "Torneo", "Sistema"],
            plugins: ["Incrustar"]
        ),
        // SQLite, the embedded default: connection, statements, migrations.
        .target(
            name: "Almacen",
            dependencies: ["CSQLite", "AlmacenSQL", "Persistencia", "Torneo", "Sistema"],
            linkerSettings: sqliteEstatico,
            plugins: ["Incrustar"]
        ),
        // The same repositories on PostgreSQL (DESIGN §12): connection, migrations, LISTEN.
        .target(
            name: "AlmacenPostgreSQL",
            dependencies: ["AlmacenSQL", "Persistencia", "CPostgres", "Torneo", "Sistema"],
            plugins: ["Incrustar"]
        ),
        .target(name: "Motor", dependencies: ["Torneo", "Persistencia", "Sistema"]),
        .target(name: "Importador", dependencies: ["Torneo", "Sistema"]),
        // Live feeds (DESIGN §15): the providers' answers read, and compared with the last
        // snapshot of each match. Pure: no store, no network.
        .target(name: "Directo", dependencies: ["Torneo", "Importador", "Sistema"]),
        .target(
            name: "Avisos",
            dependencies: ["Torneo", "Persistencia", "Sistema", "CCurl", "Empuje", "CEnvioH2"]),
        // The application core (DESIGN §13): every use case, for every front end and store.
        .target(
            name: "Aplicacion",
            dependencies: [
                "Torneo", "Persistencia", "Motor", "Avisos", "Importador", "Directo", "Sistema",
                "Empuje",
            ]),
        // The HTTP server and its event streams (plumbing: knows HTTP, not football).
        .target(name: "Servidor", dependencies: ["CEvent", "Sistema"]),
        // `marcador servir`: the pages, the JSON API and the event stream over the core.
        .target(
            name: "Web",
            dependencies: [
                "Aplicacion", "Servidor", "Avisos", "Persistencia", "Torneo", "Sistema",
            ],
            plugins: ["Incrustar"]
        ),
        // The command line: parses, calls the core, renders; opens the store it is told.
        .executableTarget(
            name: "marcador",
            dependencies: [
                "Aplicacion", "Web", "Torneo", "Persistencia", "Sistema", "AlmacenSQL",
                "Almacen", "AlmacenPostgreSQL", "Motor", "Avisos",
            ]
        ),
        // Baselines in C for `make bench`: marcador's exact statements, each prepared once.
        .target(
            name: "CBaseDeBanco",
            linkerSettings: sqliteEstatico
        ),
        // `make bench`: figures against baselines measured in the same run (never in swift test).
        .executableTarget(
            name: "marcador-bench",
            dependencies: [
                "Torneo", "Sistema", "Almacen", "Motor", "Avisos", "CSQLite", "CBaseDeBanco",
                "Aplicacion", "Persistencia", "Directo", "ApoyoDePruebas",
            ]
        ),
        // The floor `make bench` measures a Swift CLI against: FoundationEssentials and nothing else.
        .executableTarget(name: "marcador-suelo"),
        // `make torture`: SIGKILLs players and dispatchers at random and checks nothing is lost.
        .executableTarget(
            name: "marcador-tortura",
            dependencies: ["Torneo", "Almacen", "ApoyoDePruebas"]
        ),
        // Turns migrations/*.sql and seeds/* into Swift literals so the binary works from any directory.
        .executableTarget(name: "incrustador"),
        .plugin(
            name: "Incrustar",
            capability: .buildTool(),
            dependencies: ["incrustador"]
        ),
        .testTarget(name: "TorneoTests", dependencies: ["Torneo"]),
        .testTarget(name: "EmpujeTests", dependencies: ["Empuje"]),
        .testTarget(name: "DirectoTests", dependencies: ["Directo", "Importador", "Torneo"]),
        .testTarget(
            name: "AlmacenTests",
            dependencies: [
                "Almacen", "AlmacenPostgreSQL", "ContratoDeTienda", "Motor", "Torneo", "Sistema",
                "ApoyoDePruebas",
            ]),
        // The store contract's cases, run by AlmacenTests on SQLite and by ServidoresTests on a
        // real PostgreSQL server.
        .target(
            name: "ContratoDeTienda",
            dependencies: [
                "Almacen", "AlmacenPostgreSQL", "Motor", "Persistencia", "Torneo", "Sistema",
                "ApoyoDePruebas",
            ],
            path: "Tests/ContratoDeTienda"),
        // The suites that need a real server process (PostgreSQL): run with MarcadorTests, not
        // with the unit suites (scripts/pruebas.sh).
        .testTarget(
            name: "ServidoresTests",
            dependencies: [
                "ContratoDeTienda", "Almacen", "AlmacenPostgreSQL", "AlmacenSQL", "Avisos",
                "Motor", "Persistencia", "Torneo", "Sistema", "ApoyoDePruebas",
            ]),
        .testTarget(
            name: "MotorTests",
            dependencies: [
                "Motor", "Almacen", "AlmacenSQL", "Persistencia", "Torneo", "Sistema",
                "ApoyoDePruebas",
            ]),
        .testTarget(
            name: "AplicacionTests",
            dependencies: [
                "Aplicacion", "Almacen", "AlmacenSQL", "Persistencia", "Motor", "Avisos", "Torneo",
                "Sistema", "Empuje", "ApoyoDePruebas",
            ]),
        // Test support shared by the suites: a real HTTP server on 127.0.0.1.
        .target(name: "ApoyoDePruebas", dependencies: ["Sistema"], path: "Tests/ApoyoDePruebas"),
        .testTarget(
            name: "AvisosTests",
            dependencies: [
                "Avisos", "Motor", "Almacen", "Persistencia", "Torneo", "Sistema", "ApoyoDePruebas",
                "Empuje",
            ]),
        .testTarget(
            name: "ImportadorTests",
            dependencies: [
                "Importador", "Motor", "Almacen", "Torneo", "Sistema", "ApoyoDePruebas",
            ]),
        .testTarget(
            name: "MarcadorTests",
            dependencies: [
                "marcador", "Almacen", "AlmacenSQL", "AlmacenPostgreSQL", "Motor", "Torneo",
                "ApoyoDePruebas",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
