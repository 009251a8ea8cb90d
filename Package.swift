// swift-tools-version: 6.1
import PackageDescription

// Release builds reach the metadata of the generic types they name
// (`[PostID: Post]`, `Heap<QueuedEvent>`) through the compiler's accessor
// functions, which pass the conformances they need, rather than by mangled
// name, which the runtime demangles and whose conformances it finds by
// scanning every conformance record in the binary, once per type per
// process. A `feedsim run` pays that at every start: about 0.8 ms of its
// 21 ms (the 60 s, 120 Hz, 10,000-post session). Behaviour is the same;
// the code is a little larger.
let metadataByAccessor: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
]

// The engine and the simulator run single-threaded, and their tests run in
// debug builds, which keep Swift's dynamic exclusivity checks: a conflicting
// access is caught there. Release builds, which run populations of sessions,
// leave the checks out; they were a tenth of a session's CPU time (`perf`
// on the 60 s, 120 Hz session), paid on every access to a class's stored
// property.
let releaseWithoutExclusivityChecks: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
] + metadataByAccessor

// `feedsim` is started once per command and once per worker: linked with
// the Swift runtime and Foundation statically, it starts in about a quarter
// of the CPU time (no symbol lookups across two dozen shared libraries).
// Linked at a fixed address (`-no-pie`), its 82,000 pointers in type
// metadata and tables are written by the linker, not relocated by the
// loader into pages each start copies: 0.5 to 0.8 ms less CPU a start.
// Only the executable's own image loses address randomisation; the
// libraries it loads keep theirs.
let staticRuntimeOnLinux: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-Xlinker", "--start-group", "-lFoundationXML", "-l_CFXMLInterface", "-lFoundation", "-lCoreFoundation", "-lFoundationInternationalization", "-l_FoundationICU", "-lFoundationEssentials", "-l_FoundationCollections", "-l_FoundationCShims", "-lswiftSynchronization", "-Xlinker", "--end-group", "-lxml2", "-Xclang-linker", "-no-pie"], .when(platforms: [.linux])),
]

let package = Package(
    name: "FeedSim",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "feedsim", targets: ["feedsim"]),
        // What a program of your own builds on: the command line, the engine
        // (strategies are `PositionKeeper`s), scenarios, the simulator,
        // reports and exploration.
        .library(name: "FeedSimCLI", targets: ["FeedSimCLI"]),
        .library(name: "FeedEngine", targets: ["FeedEngine"]),
        .library(name: "FeedScenario", targets: ["FeedScenario"]),
        .library(name: "FeedSimulator", targets: ["FeedSimulator"]),
        .library(name: "FeedReports", targets: ["FeedReports"]),
        .library(name: "FeedExplore", targets: ["FeedExplore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Seeded generators and hashes that give the same bits on every
        // platform and Swift release.
        .target(name: "Determinism", swiftSettings: metadataByAccessor),
        // CSV: the one writer and the one reader of every CSV file FeedSim
        // writes or reads (reports, results, calibration traces).
        .target(name: "CSVCodec", swiftSettings: metadataByAccessor),
        // The engine under test: imports nothing of ours.
        .target(
            name: "FeedEngine",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: releaseWithoutExclusivityChecks
        ),
        // Scenario schema, strict decoding and matrix expansion.
        .target(name: "FeedScenario", dependencies: ["FeedEngine"], swiftSettings: metadataByAccessor),
        // jemalloc, found through pkg-config (Debian: libjemalloc-dev).
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        // Each thread's allocation requests, counted at the C library's
        // allocation functions on their way to jemalloc.
        .target(
            name: "CAllocationCounter",
            dependencies: ["CJemalloc"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // The world: clock, events, display, input, cost model, metrics.
        .target(
            name: "FeedSimulator",
            dependencies: [
                "Determinism",
                "FeedEngine",
                "FeedScenario",
                "CAllocationCounter",
                "CSVCodec",
                .product(name: "HeapModule", package: "swift-collections"),
            ],
            swiftSettings: releaseWithoutExclusivityChecks
        ),
        // CSV and the other artefacts users read.
        .target(
            name: "FeedReports",
            dependencies: [
                "Determinism",
                "FeedSimulator",
                "FeedScenario",
                "CSVCodec",
            ],
            swiftSettings: metadataByAccessor
        ),
        // Random sessions, the properties every run must keep, and the
        // shrinker that reduces a failing session to a minimal scenario.
        .target(
            name: "FeedExplore",
            dependencies: ["Determinism", "FeedEngine", "FeedScenario", "FeedSimulator", "FeedReports", "CSVCodec"],
            swiftSettings: metadataByAccessor
        ),
        // prctl(PR_SET_PDEATHSIG) for worker processes, which Swift cannot
        // call directly (a variadic C function).
        .target(name: "CParentDeath"),
        // The whole command line as a library: `FeedSim.main(registering:)`
        // gives a program of your own every command, with its own strategies
        // known in the worker processes too.
        .target(
            name: "FeedSimCLI",
            dependencies: [
                "CParentDeath",
                "CSVCodec",
                "Determinism",
                "FeedExplore",
                "FeedReports",
                "FeedSimulator",
                "FeedScenario",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: metadataByAccessor
        ),
        // `feedsim`: FeedSimCLI with the built-in parts.
        .executableTarget(
            name: "feedsim", dependencies: ["FeedSimCLI"],
            swiftSettings: metadataByAccessor,
            linkerSettings: staticRuntimeOnLinux),
        // Examples/CustomStrategy's program, built here too so that the test
        // command builds and runs it with the release build it makes anyway
        // (the example's own package, which users copy, depends on this one
        // by path; scripts/test resolves it and checks its graph).
        .executableTarget(
            name: "CustomStrategyExample",
            dependencies: ["FeedSimCLI", "FeedEngine"],
            path: "Examples/CustomStrategy/Sources/CustomFeedSim",
            swiftSettings: metadataByAccessor
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
        // The readers of user files driven by arbitrary bytes: libFuzzer's
        // entry point, built with -sanitize=fuzzer,address by Fuzz/run, and
        // by the tests on the corpus seeds and every crash found so far.
        .target(name: "FeedSimFuzz", dependencies: ["FeedScenario", "FeedSimulator", "FeedReports"], path: "Fuzz/FeedSimFuzz"),
        // The simulator's speed and memory goals: the real simulator, jemalloc
        // and its allocation meter included.
        .executableTarget(
            name: "SimulatorBenchmarks",
            dependencies: [
                "FeedSimCLI",
                "FeedSimulator",
                "FeedScenario",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SimulatorBenchmarks",
            exclude: ["Scenarios"],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // What the tests share: the one way they run another program.
        .target(name: "FeedSimTestSupport", path: "Tests/FeedSimTestSupport"),
        .testTarget(name: "FeedEngineTests", dependencies: ["FeedEngine", "Determinism"]),
        .testTarget(name: "FeedScenarioTests", dependencies: ["FeedScenario", "FeedSimTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "FeedSimFuzzTests", dependencies: ["FeedSimFuzz", "FeedScenario", "FeedSimulator"]),
        .testTarget(name: "CSVCodecTests", dependencies: ["CSVCodec"]),
        .testTarget(name: "FeedExploreTests", dependencies: ["FeedExplore", "FeedScenario", "FeedSimulator", "FeedEngine"]),
        .testTarget(
            name: "FeedSimulatorTests", dependencies: ["Determinism", "FeedSimulator", "FeedEngine", "FeedScenario"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "FeedSimCLITests",
            dependencies: ["CSVCodec", "Determinism", "FeedReports", "FeedSimCLI", "FeedSimulator", "FeedScenario", "FeedSimTestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)
