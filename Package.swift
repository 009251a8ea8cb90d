// swift-tools-version: 6.1
import PackageDescription

// `feedsim` is started once per command and once per worker: linked with
// the Swift runtime and FoundationEssentials statically (FeedSim imports
// no other part of Foundation: see SystemSupport), it starts in about a quarter
// of the CPU time (no symbol lookups across two dozen shared libraries).
// Linked at a fixed address (`-no-pie`), its 82,000 pointers in type
// metadata and tables are written by the linker, not relocated by the
// loader into pages each start copies: 0.5 to 0.8 ms less CPU a start.
// Only the executable's own image loses address randomisation; the
// libraries it loads keep theirs.
//
// Foundation's XML module is not linked: FeedSim reads Instruments' XML
// with its own reader, and linking it made every start load libxml2 and,
// through it, ICU, zlib and liblzma (five shared libraries, 0.7 M
// instructions of the dynamic loader's relocations a start).
//
// The executable exports only the allocation functions it defines, which
// must reach the shared libraries (allocations are counted by symbol
// interposition), not its 19,000 Swift symbols: the Swift runtime's
// `dladdr` at start-up walks every exported symbol (0.7 M instructions).
//
// Unsafe flags sit on two kinds of target only, and on no target a library
// product contains: these linker flags on the `feedsim` executable, which
// no product exports (SwiftPM makes an executable product of it for this
// package only), and the compiler flags of the test targets below. A
// package that depends on FeedSim by version builds its own program on
// FeedSimCLI, and SwiftPM refuses unsafe flags in the targets of the
// products a versioned dependency's users take: scripts/check-dependency
// checks the products' targets and everything they depend on, then builds
// such a package.
/// The allocation functions `CAllocationCounter` defines for the shared
/// libraries to find.
let interposedAllocators = [
    "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign", "valloc",
]

let staticRuntimeOnLinux: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-static-stdlib", "-Xlinker", "--start-group", "-lFoundationEssentials", "-l_FoundationCollections",
            "-l_FoundationCShims", "-lswiftSynchronization", "-Xlinker", "--end-group",
            "-Xclang-linker", "-no-pie", "-Xlinker", "--no-export-dynamic",
        ] + interposedAllocators.flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] },
        .when(platforms: [.linux]))
]

// The tests are compiled without optimisation, in batches of files in
// parallel rather than as one whole module, even in a release build: the
// test command builds once, in release with testing enabled, and runs the
// tests there; optimising the tests themselves would cost it a minute and
// gain nothing. Batches, because SwiftPM turns on batch mode only in debug:
// without it, a release build compiles each test file in a frontend of its
// own, which parses every file of its target again (255 CPU-s for a fresh
// build instead of 285, 145 s instead of 155 on 2 cores). Test targets are
// in no product; FeedSimTestSupport, which the tests share, builds without
// them, as any target that is not a test does.
let unoptimisedTests: [SwiftSetting] = [
    .unsafeFlags(["-Onone", "-no-whole-module-optimization", "-enable-batch-mode"])
]

// FeedSim is built and tested on Linux only: workers re-execute
// /proc/self/exe, allocations are counted by ELF symbol interposition and
// jemalloc comes from the system's package. No other platform is claimed.
let package = Package(
    name: "FeedSim",
    products: [
        // What a team extends, and all it is promised: the command line as a
        // library (`FeedSim.main(registering:)`, a `feedsim` of its own that
        // knows its strategies), and the engine's extension points
        // (strategies are `PositionKeeper`s; prefetch policies). The other
        // modules are FeedSim's own: their declarations are `package`, shared
        // by the modules and tests of this package and by no one else.
        .library(name: "FeedSimCLI", targets: ["FeedSimCLI"]),
        .library(name: "FeedEngine", targets: ["FeedEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // API documentation (`swift package generate-documentation`).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Seeded generators and hashes that give the same bits on every
        // platform and Swift release. Its declarations are `public`, not
        // `package`, though no product exports it (so nothing in it is
        // promised): Swift 6.3 inlines and specializes another module's
        // `package` `@inlinable` function only in a build with testing
        // enabled, and a plain `swift build -c release` called the generic
        // draws through a witness table (96.10 M instructions for the
        // 10,000-post benchmark run; 93.82 M with them public).
        .target(name: "Determinism"),
        // What FeedSim asks of the operating system, in place of Foundation's
        // full module: files and pipes, worker processes, threads and the
        // words for an error. FeedSim imports FoundationEssentials only, so
        // `feedsim` links neither Foundation nor ICU (5,091 conformance
        // records in a hello world that imports Foundation, 3,242 with
        // FoundationEssentials alone: each first lookup of a conformance
        // scans them all).
        .target(name: "SystemSupport"),
        // printf's fixed-point formatting, which Swift cannot call (snprintf
        // is variadic): every number in a CSV file goes through it.
        .target(name: "CFixedNumber"),
        // CSV: the one writer and the one reader of every CSV file FeedSim
        // writes or reads (reports, results, calibration traces).
        .target(name: "CSVCodec", dependencies: ["CFixedNumber", "SystemSupport"]),
        // The engine under test: imports nothing of ours.
        .target(
            name: "FeedEngine",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections")
            ]
        ),
        // Scenario schema, strict decoding and matrix expansion.
        .target(name: "FeedScenario", dependencies: ["FeedEngine", "SystemSupport"]),
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
            // jemalloc on Linux only: elsewhere the counting functions are
            // left out and runs leave their allocation columns empty.
            dependencies: [.target(name: "CJemalloc", condition: .when(platforms: [.linux]))],
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
                "SystemSupport",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        // CSV and the other artefacts users read.
        .target(
            name: "FeedReports",
            dependencies: [
                "Determinism",
                "FeedSimulator",
                "FeedScenario",
                "CSVCodec",
                "SystemSupport",
            ]
        ),
        // Random sessions, the properties every run must keep, and the
        // shrinker that reduces a failing session to a minimal scenario.
        .target(
            name: "FeedExplore",
            dependencies: [
                "Determinism", "FeedEngine", "FeedScenario", "FeedSimulator", "FeedReports", "CSVCodec",
                "SystemSupport",
            ]
        ),
        // The importers of a team's own captures: getTimeline pages, HAR
        // files and recorded sessions, kept to what the model uses, ids
        // salted and hashed.
        .target(
            name: "FeedImport",
            dependencies: [
                "CSVCodec",
                "Determinism",
                "FeedEngine",
                "FeedScenario",
                "SystemSupport",
            ]
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
                "FeedImport",
                "FeedReports",
                "FeedSimulator",
                "FeedScenario",
                "SystemSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `feedsim`: FeedSimCLI with the built-in parts.
        .executableTarget(
            name: "feedsim", dependencies: ["FeedSimCLI"],
            linkerSettings: staticRuntimeOnLinux),
        // The readers of user files driven by arbitrary bytes: libFuzzer's
        // entry point, built with -sanitize=fuzzer,address by Fuzz/run, and
        // by the tests on the corpus seeds and every crash found so far.
        .target(
            name: "FeedSimFuzz", dependencies: ["FeedImport", "FeedScenario", "FeedSimulator", "FeedReports"],
            path: "Fuzz/FeedSimFuzz"),
        // What the tests share: the one way they run another program, the
        // package's root, summary.csv fixtures.
        .target(
            name: "FeedSimTestSupport", dependencies: ["CSVCodec", "FeedReports"], path: "Tests/FeedSimTestSupport",
            exclude: ["read_junit.py"]),
        // One test target per module, as swift-collections' Tests/ has;
        // FeedSimCLITests holds the tests that run the built `feedsim`.
        .testTarget(name: "DeterminismTests", dependencies: ["Determinism"], swiftSettings: unoptimisedTests),
        .testTarget(
            name: "FeedImportTests", dependencies: ["FeedImport", "FeedScenario", "FeedSimTestSupport"],
            swiftSettings: unoptimisedTests),
        .testTarget(
            name: "FeedEngineTests", dependencies: ["FeedEngine", "Determinism"], swiftSettings: unoptimisedTests),
        .testTarget(
            name: "FeedScenarioTests", dependencies: ["FeedScenario", "FeedSimTestSupport"], exclude: ["Fixtures"],
            swiftSettings: unoptimisedTests),
        .testTarget(
            name: "FeedSimFuzzTests",
            dependencies: ["FeedSimFuzz", "FeedScenario", "FeedSimulator", "FeedSimTestSupport"],
            swiftSettings: unoptimisedTests),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"], swiftSettings: unoptimisedTests),
        .testTarget(
            name: "CSVCodecTests", dependencies: ["CSVCodec", "SystemSupport"], swiftSettings: unoptimisedTests),
        .testTarget(
            name: "FeedExploreTests",
            dependencies: ["FeedExplore", "FeedScenario", "FeedSimulator", "FeedEngine", "FeedSimTestSupport"],
            swiftSettings: unoptimisedTests),
        .testTarget(
            name: "FeedSimulatorTests",
            dependencies: ["Determinism", "FeedSimulator", "FeedEngine", "FeedScenario", "FeedSimTestSupport"],
            exclude: ["Fixtures"], swiftSettings: unoptimisedTests
        ),
        .testTarget(
            name: "FeedReportsTests",
            dependencies: [
                "CSVCodec", "Determinism", "FeedReports", "FeedSimulator", "FeedScenario", "FeedSimTestSupport",
            ],
            exclude: ["Fixtures"], swiftSettings: unoptimisedTests
        ),
        .testTarget(
            name: "FeedSimCLITests",
            dependencies: [
                "CSVCodec", "Determinism", "FeedReports", "FeedSimulator", "FeedScenario", "FeedSimTestSupport",
            ],
            exclude: ["Fixtures"], swiftSettings: unoptimisedTests
        ),
        // The few tests that call FeedSimCLI's code in process, apart from
        // the end-to-end ones above (which run the built `feedsim`): the
        // larger target then compiles beside FeedExplore and FeedSimCLI
        // instead of after them, about 20 s sooner in a fresh build.
        .testTarget(
            name: "FeedSimCLIWorkerTests",
            dependencies: [
                "FeedSimCLI", "FeedReports", "FeedScenario", "FeedSimTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: unoptimisedTests
        ),
    ]
)

// The benchmarks (`scripts/benchmarks`), with package-benchmark, are part of
// the package only when FEEDSIM_BENCHMARKS=1 is set: every other build, a
// team's package depending on FeedSim among them, neither resolves
// package-benchmark nor builds its plugin's tools (about 25 s of a fresh
// build on 2 cores, before anything of ours compiles).
if Context.environment["FEEDSIM_BENCHMARKS"] == "1" {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets += [
        // Speed and allocation goals with committed thresholds
        // (`scripts/benchmarks`).
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
                "FeedSimCLI",
                "FeedSimulator",
                "FeedScenario",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SimulatorBenchmarks",
            exclude: ["Scenarios"],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
}
