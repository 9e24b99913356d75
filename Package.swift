// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "onthemap",
    // The floor is OnTheMapKit's: apps on iOS 16 and macOS 13 add this package by URL. SwiftPM checks
    // every target of a package against it, used or not, so no product a target takes on Apple
    // platforms may ask for more (scripts/test/platform-floor-check.py holds that). The server is a
    // Linux service: its one such product, hummingbird-auth's bcrypt (macOS 14, iOS 17), is taken
    // on Linux only.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "onthemap", targets: ["onthemap"]),
        // What an app adds: the client, generated from openapi.json, over URLSession.
        .library(name: "OnTheMapKit", targets: ["OnTheMapKit"]),
        // The same client over AsyncHTTPClient, for servers and tools.
        .library(name: "OnTheMapKitAsyncHTTPClient", targets: ["OnTheMapKitAsyncHTTPClient"]),
        // The command-line client built on OnTheMapKit.
        .executable(name: "onthemap-client", targets: ["onthemap-client"]),
    ],
    // An app that adds the package with `traits: []` resolves only the client's packages (5 instead of
    // 39), and with `traits: ["AsyncHTTPClient"]` those of OnTheMapKitAsyncHTTPClient too: every
    // product the server takes is taken only with the Server trait (the loop at the end), and SwiftPM
    // leaves a package no enabled dependency needs unresolved. Server is on by default, so that this
    // repository's own builds, tests and tools are as before.
    traits: [
        .trait(name: "Server", description: "The server, its tools and tests.", enabledTraits: ["AsyncHTTPClient"]),
        .trait(name: "AsyncHTTPClient", description: "OnTheMapKitAsyncHTTPClient: the client over AsyncHTTPClient."),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // 4.x for jwt-kit; every other package here takes 3 or 4.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession.git", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
    ],
    targets: [
        // Plain value types, validation, wire formats and the error catalogue: no I/O, no frameworks.
        .target(name: "OnTheMapModel"),
        // Repository protocols, their one SQLKit implementation with migrations, the write path that
        // announces changes.
        .target(
            name: "OnTheMapStore",
            dependencies: [
                "OnTheMapModel",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // The embedded engine: a SQLite file through GRDB (one writer with group commit, a pool of
        // readers whose queries can be interrupted), behind the store's reader and writer seams.
        .target(
            name: "OnTheMapSQLite",
            dependencies: [
                "OnTheMapModel",
                "OnTheMapStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The server engine: PostgreSQL through a pool for reads and one for writes, each write one
        // transaction that also notifies every other instance, and a listener for their notifications.
        .target(
            name: "OnTheMapPostgres",
            dependencies: [
                "OnTheMapModel",
                "OnTheMapStore",
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // Its errors: a pool retired when the primary moves fails its waiting requests so.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        // Offline geocoding: gazetteer loading, normalization, index, query parsing, scoring.
        .target(
            name: "OnTheMapGeocoder",
            dependencies: [
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources")],
            // Optimized in debug builds too: unoptimized, loading the gazetteer takes 20 to 26 s instead of
            // 1.5 (generic stdlib code left unspecialized), and every debug server the tests start
            // (browser, cluster, CLI) waits for it. No library product reaches this target, so an app
            // adding the package by version never meets the unsafe flag (platform-floor-check.py holds that).
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // HTTP: buildApplication, controllers per path family, middleware, the web client's files.
        .target(
            name: "OnTheMapServer",
            dependencies: [
                "OnTheMapModel",
                "OnTheMapStore",
                "OnTheMapGeocoder",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth", condition: .when(platforms: [.linux], traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA: the LTI tool's signing keys.
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            // The web client: static HTML, CSS and ES modules, no build step.
            resources: [.copy("Public"), .copy("Passwords")]
        ),
        .executableTarget(
            name: "onthemap",
            dependencies: [
                "OnTheMapServer",
                "OnTheMapSQLite",
                "OnTheMapPostgres",
                "OnTheMapGeocoder",
                "OnTheMapStore",
                "OnTheMapModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The client library: Generated/ is swift-openapi-generator's output for openapi.json
        // (`make client-code`), the rest a small façade over it. No server code, no NIO.
        .target(
            name: "OnTheMapKit",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // Imports are internal unless a file says otherwise (the generated code's plain imports
            // among them, so that nothing it uses leaks into an app's namespace).
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault")]
        ),
        .target(
            name: "OnTheMapKitAsyncHTTPClient",
            dependencies: [
                "OnTheMapKit",
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "onthemap-client",
            dependencies: [
                "OnTheMapKit",
                "OnTheMapKitAsyncHTTPClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/OnTheMapClientCLI"
        ),
        // The DocC getting-started article's code, word for word (cli-test checks it is, and runs it).
        .executableTarget(name: "getting-started", dependencies: ["OnTheMapKit"], path: "Sources/GettingStarted"),
        // Its "On a server" section's code, the same way: the client over AsyncHTTPClient.
        .executableTarget(
            name: "getting-started-asynchttpclient", dependencies: ["OnTheMapKit", "OnTheMapKitAsyncHTTPClient"],
            path: "Sources/GettingStartedAsyncHTTPClient"),
        // Development tool: `make bench` times OnTheMapKit against a bare URLSession call.
        .executableTarget(
            name: "kit-bench",
            dependencies: [
                "OnTheMapKit", .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"), .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Sources/KitBenchmark"),
        // Development tool: `make geocode-eval` runs the geocoder over eval/geocoder.tsv.
        .executableTarget(name: "geocode-eval", dependencies: ["OnTheMapGeocoder"], path: "Sources/GeocodeEvaluation"),
        // Development tool: `make bench` runs it in release for BENCHMARKS.md.
        .executableTarget(name: "geocode-bench", dependencies: ["OnTheMapGeocoder"], path: "Sources/GeocodeBenchmark"),
        // Development tool: `make bench` measures bare Hummingbird beside the server and nginx.
        .executableTarget(
            name: "edge-reference", dependencies: [.product(name: "Hummingbird", package: "hummingbird")], path: "Sources/EdgeReference"),
        // Development tool: `make bench` measures bare Hummingbird and PostgresNIO reading a page beside the server.
        .executableTarget(
            name: "postgres-reference",
            dependencies: ["OnTheMapModel", .product(name: "Hummingbird", package: "hummingbird"), .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Sources/PostgresReference"),
        // What the store and server suites share: a fresh database of the engine under test.
        .target(
            name: "OnTheMapTestSupport",
            dependencies: [
                "OnTheMapStore",
                "OnTheMapSQLite",
                "OnTheMapPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Support"
        ),
        .testTarget(name: "OnTheMapModelTests", dependencies: ["OnTheMapModel"]),
        .testTarget(name: "OnTheMapGeocoderTests", dependencies: ["OnTheMapGeocoder", "OnTheMapTestSupport"]),
        .testTarget(
            name: "OnTheMapStoreTests",
            dependencies: [
                "OnTheMapStore",
                "OnTheMapSQLite",
                "OnTheMapPostgres",
                "OnTheMapTestSupport",
                "OnTheMapModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "OnTheMapServerTests",
            dependencies: [
                "OnTheMapServer",
                "OnTheMapStore",
                "OnTheMapSQLite",
                "OnTheMapTestSupport",
                "OnTheMapModel",
                "OnTheMapGeocoder",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth", condition: .when(platforms: [.linux], traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                "OnTheMapKit",
                "OnTheMapKitAsyncHTTPClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
    ]
)

// What an app that adds the package with `traits: []` resolves: the client's packages, and no other.
// Every other product is taken with the trait it belongs to, so that a target added later is
// trait-conditional without a word (a dependency with a condition of its own says its trait itself).
let clientPackages: Set<String> = ["swift-openapi-runtime", "swift-openapi-urlsession", "swift-http-types"]
let asyncHTTPClientPackages: Set<String> = ["async-http-client", "swift-openapi-async-http-client"]
for target in package.targets {
    target.dependencies = target.dependencies.map { dependency in
        guard case .productItem(let name, let package?, let aliases, nil) = dependency, !clientPackages.contains(package) else {
            return dependency
        }
        let trait = asyncHTTPClientPackages.contains(package) ? "AsyncHTTPClient" : "Server"
        return .product(name: name, package: package, moduleAliases: aliases, condition: .when(traits: [trait]))
    }
}
