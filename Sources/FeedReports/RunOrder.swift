import FeedScenario
import FeedSimulator
import FoundationEssentials

/// One run a worker process is asked for, as `feedsim run` (and any command
/// that runs many sessions) hands it over: a line of JSON on the worker's
/// standard input. The worker answers each order with one `RunReply` line,
/// in order, so a list of orders goes in and their results come back.
package struct RunOrder: Codable, Sendable, Equatable {
    /// The scenario file, as the user named it; device profiles are looked
    /// up beside it.
    package var file: String
    /// The scenario's JSON text when it is not the file's own (a session
    /// made by the command rather than read from disk); `nil` reads `file`.
    package var scenarioText: String?
    package var refreshHz: Int
    package var seed: UInt64
    package var variant: String
    /// Keep every frame record (for frames.csv).
    package var frames: Bool
    /// Record the run's timeline (for a trace file).
    package var trace: Bool
    /// The folder of device profiles the command was given (`--devices`),
    /// looked in instead of `devices/` beside `file`; absent from the line
    /// when `nil`.
    package var devices: String?

    package init(
        file: String, scenarioText: String? = nil, refreshHz: Int, seed: UInt64, variant: String, frames: Bool,
        trace: Bool,
        devices: String? = nil
    ) {
        self.file = file
        self.scenarioText = scenarioText
        self.refreshHz = refreshHz
        self.seed = seed
        self.variant = variant
        self.frames = frames
        self.trace = trace
        self.devices = devices
    }

    /// The order for `request`, whose scenario is its file's.
    package init(_ request: RunRequest) {
        self.init(
            file: request.loaded.file, refreshHz: request.refreshHz, seed: request.seed, variant: request.variant,
            frames: request.recordFrames, trace: request.recordTimeline, devices: request.loaded.devicesFolder)
    }

    /// The scenario this order runs, read and checked.
    package func load() throws(ScenarioError) -> LoadedScenario {
        try load(text())
    }

    /// The scenario's JSON: `scenarioText`, or the file's bytes.
    func text() throws(ScenarioError) -> Data {
        guard let scenarioText else { return try ScenarioLoader.read(URL(fileURLWithPath: file), file: file) }
        return Data(scenarioText.utf8)
    }

    /// The scenario `text` holds, checked, with device profiles looked up
    /// in `devices` or beside `file`, as the command looked them up.
    func load(_ text: Data) throws(ScenarioError) -> LoadedScenario {
        var loaded = try ScenarioLoader.load(
            data: text, file: file,
            deviceDirectories: ScenarioLoader.deviceDirectories(for: URL(fileURLWithPath: file), devices: devices))
        loaded.devicesFolder = devices
        return loaded
    }

    /// The request for this order on `loaded`, its scenario.
    package func request(on loaded: LoadedScenario) -> RunRequest {
        RunRequest(
            loaded: loaded, refreshHz: refreshHz, seed: seed, variant: variant, recordFrames: frames,
            recordTimeline: trace)
    }

    /// The order as one line of JSON, newline included.
    package func line() throws -> Data {
        try RunOrder.lineEncoder.encode(self) + Data("\n".utf8)
    }

    /// An order from one line (without its newline).
    package static func decode(line: Data) throws -> RunOrder {
        try JSONDecoder().decode(RunOrder.self, from: line)
    }

    /// JSON without line breaks (the encoder writes none unless asked) and
    /// with sorted keys, so a line is the same bytes every time.
    static var lineEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

/// Loads the scenarios of a worker's orders, keeping the last one: a
/// worker is handed every seed of a scenario, and each of its variants at
/// each rate, one after another, and decodes it once for all of them. The
/// file is read for every order, and decoded again whenever its bytes differ
/// from the last order's; its device profiles are read with it.
package struct ScenarioCache {
    private var last: (file: String, text: Data, loaded: LoadedScenario)?

    package init() {}

    /// `order.load()`, from the last order's scenario when the file and its
    /// bytes are the same.
    package mutating func load(_ order: RunOrder) throws(ScenarioError) -> LoadedScenario {
        let text = try order.text()
        if let last, last.file == order.file, last.text == text { return last.loaded }
        last = nil
        let loaded = try order.load(text)
        last = (order.file, text, loaded)
        return loaded
    }
}

/// A worker's answer to one `RunOrder`: the run's result, or why there is none.
package struct RunReply: Codable, Sendable {
    /// Why a run has no result.
    package enum FailureKind: String, Codable, Sendable {
        /// The scenario could not be read or is not valid.
        case invalidScenario = "invalid_scenario"
        /// The simulation stopped at a limit or failed.
        case runFailed = "run_failed"
    }

    package var result: RunResult?
    package var failure: FailureKind?
    package var message: String?

    package init(result: RunResult) {
        self.result = result
    }

    package init(failure: FailureKind, message: String) {
        self.failure = failure
        self.message = message
    }

    /// The reply as one line of JSON, newline included.
    package func line() throws -> Data {
        try RunOrder.lineEncoder.encode(self) + Data("\n".utf8)
    }

    /// A reply from one line (without its newline); `nil` if it is not one.
    package static func decode(line: Data) -> RunReply? {
        try? JSONDecoder().decode(RunReply.self, from: line)
    }
}
