import FoundationEssentials

/// What the import reads of one HAR 1.2 entry, and nothing more: the URL is
/// read only to class the request and is not kept past that.
package struct HAREntry: Equatable, Sendable {
    /// HAR's `timings`, in milliseconds; −1 (or absent) is `nil`, "not applicable".
    package struct Timings: Equatable, Sendable {
        package var blocked, dns, connect, ssl, send, wait, receive: Double?

        /// Timings with the given phases; `nil` is not applicable.
        package init(
            blocked: Double? = nil, dns: Double? = nil, connect: Double? = nil, ssl: Double? = nil,
            send: Double? = nil, wait: Double?, receive: Double? = nil
        ) {
            (self.blocked, self.dns, self.connect, self.ssl) = (blocked, dns, connect, ssl)
            (self.send, self.wait, self.receive) = (send, wait, receive)
        }
    }

    /// `request.url`.
    package var url: String
    /// `response.status`; 0 when the request got no response.
    package var status: Int
    /// `response.content.mimeType`, if any.
    package var mimeType: String?
    /// Bytes on the wire: `response._transferSize`, else `response.bodySize`,
    /// else `response.content.size`, the first that is ≥ 0.
    package var bytes: Double?
    /// `timings`, or `nil` when the entry has none.
    package var timings: Timings?
    /// Whether the response came from the browser's cache: `_fromCache`, or
    /// a `cache.beforeRequest` with a total `time` of 0.
    package var cached: Bool
    /// `_error`, the failure an exporter recorded, if any.
    package var error: String?
    /// `serverIPAddress` and `connection` together: requests with the same
    /// key share one connection; `nil` when the entry has neither.
    package var connection: String?
}

extension HAREntry {
    /// Decodes entry `index` from its bytes; `file` names the HAR in problems.
    package init(bytes: [UInt8], index: Int, file: String) throws(HARProblem) {
        let path = "$.log.entries[\(index)]"
        let object: JSONValue
        do {
            object = try JSONParser.parse(bytes)
        } catch {
            throw HARProblem(file: file, path: path, problem: "expected a well-formed JSON object (\(error))")
        }
        let reader = HARFields(file: file)
        let entry = try reader.object(object, at: path)
        let request = try reader.object(reader.required(entry, "request", at: path), at: path + ".request")
        let response = try reader.object(reader.required(entry, "response", at: path), at: path + ".response")
        url = try reader.string(reader.required(request, "url", at: path + ".request"), at: path + ".request.url")
        status = try reader.integer(
            reader.required(response, "status", at: path + ".response"), at: path + ".response.status")
        let content = try reader.optionalObject(response, "content", at: path + ".response")
        mimeType = try content.flatMap { (content) throws(HARProblem) in
            try reader.optionalString(content, "mimeType", at: path + ".response.content")
        }
        self.bytes = try reader.firstSize([
            (response["_transferSize"], path + ".response._transferSize"),
            (response["bodySize"], path + ".response.bodySize"),
            (content?["size"], path + ".response.content.size"),
        ])
        timings = try entry["timings"].map { (value) throws(HARProblem) in
            try reader.timings(value, at: path + ".timings")
        }
        let time = try entry["time"].map { (value) throws(HARProblem) in try reader.number(value, at: path + ".time") }
        let cache = try reader.optionalObject(entry, "cache", at: path)
        let fromCache = entry["_fromCache"] != nil || response["_fromCache"] != nil
        cached = fromCache || (cache?["beforeRequest"].map { $0 != .null } ?? false) && time == 0
        let error = try reader.optionalString(entry, "_error", at: path)
        self.error = error?.isEmpty == true ? nil : error
        let ip = try reader.optionalString(entry, "serverIPAddress", at: path)
        let id = try reader.optionalString(entry, "connection", at: path)
        connection = ip == nil && id == nil ? nil : "\(ip ?? "")|\(id ?? "")"
    }
}

/// Reads typed fields out of decoded JSON, naming the path and the type
/// found when one is wrong.
struct HARFields {
    typealias Object = [String: JSONValue]
    let file: String

    /// `value` (at `path`) as an object.
    func object(_ value: JSONValue, at path: String) throws(HARProblem) -> Object {
        guard case let .object(object) = value else { throw wrong("an object", value, path) }
        return object
    }

    /// The member `key` of `object` (at `path`), which HAR 1.2 requires.
    func required(_ object: Object, _ key: String, at path: String) throws(HARProblem) -> JSONValue {
        guard let value = object[key] else {
            throw HARProblem(
                file: file, path: path + "." + key, problem: "expected `\(key)` (HAR 1.2 requires it), found none")
        }
        return value
    }

    /// The object at `key` of `object` (at `path`), or `nil` when absent or null.
    func optionalObject(_ object: Object, _ key: String, at path: String) throws(HARProblem) -> Object? {
        guard let value = object[key], value != .null else { return nil }
        return try self.object(value, at: path + "." + key)
    }

    /// The string at `key` of `object` (at `path`), or `nil` when absent or null.
    func optionalString(_ object: Object, _ key: String, at path: String) throws(HARProblem) -> String? {
        guard let value = object[key], value != .null else { return nil }
        return try string(value, at: path + "." + key)
    }

    /// `value` (at `path`) as a string.
    func string(_ value: JSONValue, at path: String) throws(HARProblem) -> String {
        guard case let .string(string) = value else { throw wrong("a string", value, path) }
        return string
    }

    /// `value` (at `path`) as a finite number; `true` and `false` are not numbers.
    func number(_ value: JSONValue, at path: String) throws(HARProblem) -> Double {
        guard case let .number(number) = value else { throw wrong("a number", value, path) }
        guard number.isFinite else { throw wrong("a finite number", value, path) }
        return number
    }

    /// `value` (at `path`) as a whole number, such as a status.
    func integer(_ value: JSONValue, at path: String) throws(HARProblem) -> Int {
        let double = try number(value, at: path)
        guard double == double.rounded(), abs(double) < 1e9 else { throw wrong("a whole number", value, path) }
        return Int(double)
    }

    /// The first of `candidates` that is present and ≥ 0.
    func firstSize(_ candidates: [(JSONValue?, String)]) throws(HARProblem) -> Double? {
        for (value, path) in candidates {
            guard let value, value != .null else { continue }
            let size = try number(value, at: path)
            if size >= 0 { return size }
        }
        return nil
    }

    /// `value` (at `path`) as HAR timings: each phase a number, −1 or absent for "not applicable".
    func timings(_ value: JSONValue, at path: String) throws(HARProblem) -> HAREntry.Timings {
        let object = try object(value, at: path)
        func phase(_ key: String) throws(HARProblem) -> Double? {
            guard let value = object[key], value != .null else { return nil }
            let ms = try number(value, at: path + "." + key)
            return ms < 0 ? nil : ms
        }
        return HAREntry.Timings(
            blocked: try phase("blocked"), dns: try phase("dns"), connect: try phase("connect"), ssl: try phase("ssl"),
            send: try phase("send"), wait: try phase("wait"), receive: try phase("receive"))
    }

    private func wrong(_ expected: String, _ value: JSONValue, _ path: String) -> HARProblem {
        HARProblem(file: file, path: path, problem: "expected \(expected), found \(Self.kind(of: value))")
    }

    /// A JSON type's name for `value`, as a problem states it.
    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case let .string(string): "the string \"\(string.prefix(40))\""
        case .array: "an array"
        case .object: "an object"
        case .bool: "a boolean"
        case let .number(number):
            "the number \(number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number))"
        }
    }
}
