// swift-tools-version: 6.0
import PackageDescription

// Linux only (Glibc, mallopt, renameat2, Debian's GEOS/GDAL/PROJ): built and tested on Debian 12.
let package = Package(
    name: "flyr-link",
    products: [
        .executable(name: "flyr-link", targets: ["FlyrLinkCLI"]),
        .library(name: "FlyrLink", targets: ["FlyrLink", "FlyrLinkDistributed"]),
        .executable(name: "flyr-synth", targets: ["flyr-synth"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(name: "CGEOS", pkgConfig: "geos", providers: [.apt(["libgeos-dev"])]),
        // GDAL and libpq: their headers, and their functions bound when first used (not linked).
        .target(name: "CLateBound", linkerSettings: [.linkedLibrary("dl")]),
        // The link model's trees scored several candidates at a time, in the widest vectors the machine has.
        .target(name: "CLeafTables"),
        // The commit a packaged binary was built from (scripts/package-deb.sh links it in).
        .target(name: "CBuildInfo"),
        // Parquet page codecs, for the project's own GeoParquet reader.
        .systemLibrary(name: "CSnappy", path: "Sources/CSnappy", providers: [.apt(["libsnappy-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CZstd", path: "Sources/CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // A snapshot's gzip files: whole-buffer deflate, about twice zlib's speed at the same level.
        .systemLibrary(name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CBrotli", path: "Sources/CBrotli", pkgConfig: "libbrotlidec", providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(name: "CLZ4", path: "Sources/CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
        .target(
            name: "GeoParquet",
            dependencies: ["CSnappy", "CZstd", "CZlib", "CBrotli", "CLZ4"]
        ),
        .executableTarget(
            name: "geoparquet-bench",
            dependencies: ["GeoParquet"]
        ),
        .testTarget(
            name: "GeoParquetTests",
            dependencies: ["GeoParquet"],
            exclude: ["Fixtures"]
        ),
        .target(
            name: "FlyrLink",
            dependencies: [
                "CGEOS", "CLateBound", "CLeafTables", "CBuildInfo", "CZlib", "CDeflate", "CZstd", "CCrypto", "GeoParquet",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            // The .sql files are the source of truth; Postgres/PGMigrationSQL.swift embeds them (scripts/gen-migrations.sh).
            exclude: ["Postgres/Migrations"]
        ),
        // The distributed run: a plan cut into tiles, each tile's passes, and their parts merged.
        .target(name: "FlyrLinkDistributed", dependencies: ["FlyrLink"]),
        .executableTarget(
            name: "FlyrLinkCLI",
            dependencies: [
                "FlyrLink", "FlyrLinkDistributed",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "FlyrLinkTests",
            dependencies: ["FlyrLink", "FlyrLinkDistributed", "GeoParquet", "SyntheticCity", "CGEOS", "CZlib"],
            exclude: ["Fixtures"]
        ),
        // The synthetic city with ground truth, and its evaluator (benchmarks/SyntheticCity).
        .target(
            name: "SyntheticCity",
            path: "benchmarks/SyntheticCity/Sources/SyntheticCity"
        ),
        .executableTarget(
            name: "flyr-synth",
            dependencies: [
                "SyntheticCity",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "benchmarks/SyntheticCity/Sources/flyr-synth"
        ),
        .testTarget(
            name: "SyntheticCityTests",
            dependencies: ["SyntheticCity"],
            path: "benchmarks/SyntheticCity/Tests/SyntheticCityTests"
        ),
    ]
)
