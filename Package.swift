// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FeedSim",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "feedsim", targets: ["feedsim"]),
        .library(name: "FeedEngine", targets: ["FeedEngine"]),
        .library(name: "FeedSimulator", targets: ["FeedSimulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The engine under test: imports nothing of ours.
        .target(
            name: "FeedEngine",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        // Scenario schema, strict decoding and matrix expansion.
        .target(name: "FeedScenario", dependencies: ["FeedEngine"]),
        // jemalloc, found through pkg-config (Debian: libjemalloc-dev).
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        // jemalloc's allocation hooks counting each thread's requests.
        .target(name: "CAllocationHooks", dependencies: ["CJemalloc"]),
        // The world: clock, events, display, input, cost model, metrics.
        .target(
            name: "FeedSimulator",
            dependencies: [
                "FeedEngine",
                "FeedScenario",
                "CAllocationHooks",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // CSV and the other artefacts users read.
        .target(
            name: "FeedReports",
            dependencies: [
                "FeedSimulator",
                "FeedScenario",
                .product(name: "SwiftCSV", package: "SwiftCSV"),
            ]
        ),
        .executableTarget(
            name: "feedsim",
            dependencies: [
                "FeedReports",
                "FeedSimulator",
                "FeedScenario",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Speed and allocation goals with committed thresholds
        // (`swift package benchmark thresholds check`).
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                "FeedEngine",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The simulator's speed and memory goals: the real simulator, jemalloc
        // and its allocation meter included.
        .executableTarget(
            name: "SimulatorBenchmarks",
            dependencies: [
                "FeedSimulator",
                "FeedScenario",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SimulatorBenchmarks",
            exclude: ["Scenarios"],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .testTarget(name: "FeedEngineTests", dependencies: ["FeedEngine"]),
        .testTarget(name: "FeedScenarioTests", dependencies: ["FeedScenario"], exclude: ["Fixtures"]),
        .testTarget(name: "FeedSimulatorTests", dependencies: ["FeedSimulator", "FeedEngine", "FeedScenario"]),
        .testTarget(
            name: "FeedSimCLITests",
            dependencies: ["FeedReports", "FeedSimulator", "FeedScenario"],
            exclude: ["Fixtures"]
        ),
    ]
)
