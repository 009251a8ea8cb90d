import FoundationEssentials
import Glibc

/// A system call that failed: what was attempted and the C library's
/// error number.
package struct SystemError: Error, Equatable, CustomStringConvertible {
    /// What was attempted, such as `open` or `posix_spawn`.
    package var operation: String
    /// The error number (`errno`, or a `posix_spawn` result).
    package var code: Int32

    package init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    /// The C library's text for the error, such as "No such file or directory".
    package var reason: String { String(cString: strerror(code)) }

    package var description: String { "\(operation): \(reason)" }
}

extension Error {
    /// What went wrong, in words a person reads after "cannot read FILE:".
    ///
    /// A file's error says why the system refused (the C library's text for
    /// its error number); a decoding error says what was found where; any
    /// other error describes itself.
    package var readableDescription: String {
        switch self {
        case let error as SystemError:
            return error.reason
        case let error as POSIXError:
            return String(cString: strerror(error.code.rawValue))
        case let error as CocoaError:
            if let underlying = error.underlying as? POSIXError {
                return String(cString: strerror(underlying.code.rawValue))
            }
            return CocoaErrorText.reason(error.code)
        case let error as DecodingError:
            return DecodingErrorText.describe(error)
        default:
            return String(describing: self)
        }
    }
}

/// Words for the file errors FoundationEssentials reports without an
/// underlying error number.
private enum CocoaErrorText {
    static func reason(_ code: CocoaError.Code) -> String {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: String(cString: strerror(ENOENT))
        case .fileReadNoPermission, .fileWriteNoPermission: String(cString: strerror(EACCES))
        case .fileWriteOutOfSpace: String(cString: strerror(ENOSPC))
        case .fileWriteVolumeReadOnly: String(cString: strerror(EROFS))
        case .fileWriteFileExists: String(cString: strerror(EEXIST))
        case .fileReadInapplicableStringEncoding, .fileWriteInapplicableStringEncoding:
            "the text is not in the expected encoding"
        case .fileReadCorruptFile: "the file is not in the expected format"
        case .fileReadTooLarge: String(cString: strerror(EFBIG))
        default: "file error \(code.rawValue)"
        }
    }
}

/// A decoding error as a sentence: where it happened and what was wrong.
private enum DecodingErrorText {
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case let .dataCorrupted(context): sentence(context)
        case let .keyNotFound(key, context): "\(place(context.codingPath + [key])): \(context.debugDescription)"
        case let .typeMismatch(_, context), let .valueNotFound(_, context): sentence(context)
        @unknown default: String(describing: error)
        }
    }

    private static func sentence(_ context: DecodingError.Context) -> String {
        var text =
            context.codingPath.isEmpty
            ? context.debugDescription : "\(place(context.codingPath)): \(context.debugDescription)"
        if let underlying = context.underlyingError {
            text += " (\(underlying.readableDescription))"
        }
        return text
    }

    /// A coding path as a JSON path: `$.feed.posts[2]`.
    private static func place(_ path: [any CodingKey]) -> String {
        path.reduce("$") { text, key in
            if let index = key.intValue { return "\(text)[\(index)]" }
            return "\(text).\(key.stringValue)"
        }
    }
}
