import FeedEngine
import FeedSimCLI

// Every `feedsim` command, with `reveal_at_top` known beside the built-in
// strategies: in this process and in each worker process it starts, which
// run this same executable and so this same registration.
FeedSim.main(registering: {
    PositionStrategy.register(PositionStrategy(RevealAtTopKeeper.self))
})
