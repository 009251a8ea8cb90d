// swift-tools-version: 6.1
import PackageDescription

// A program of your own built on FeedSim: the whole `feedsim` command line,
// with a position strategy of its own registered in `main`. Copy this
// folder, point the dependency at your checkout of FeedSim (or at its
// repository), and add your strategies and policies.
let package = Package(
    name: "CustomStrategy",
    dependencies: [
        .package(name: "FeedSim", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "CustomFeedSim",
            dependencies: [
                .product(name: "FeedSimCLI", package: "FeedSim"),
                .product(name: "FeedEngine", package: "FeedSim"),
            ]
        )
    ]
)
