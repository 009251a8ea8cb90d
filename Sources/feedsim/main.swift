import FeedSimCLI

// The `feedsim` executable: the command line with the built-in parts only.
// A program of your own calls `FeedSim.main(registering:)` the same way,
// registering its own strategies (see Examples/CustomStrategy).
FeedSim.main(registering: {})
