// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "flyr-link",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "flyr-link", targets: ["FlyrLinkCLI"]),
        .library(name: "FlyrLink", targets: ["FlyrLink"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        .systemLibrary(name: "CGDAL", pkgConfig: "gdal", providers: [.apt(["libgdal-dev"])]),
        .systemLibrary(name: "CPROJ", pkgConfig: "proj", providers: [.apt(["libproj-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(
            name: "FlyrLink",
            dependencies: [
                "CGEOS", "CGDAL", "CPROJ", "CLibPQ",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            // The .sql files are the source of truth; Postgres/PGMigrationSQL.swift embeds them (scripts/gen-migrations.sh).
            exclude: ["Postgres/Migrations"]
        ),
        .executableTarget(
            name: "FlyrLinkCLI",
            dependencies: [
                "FlyrLink",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "FlyrLinkTests",
            dependencies: ["FlyrLink"]
        ),
    ]
)
