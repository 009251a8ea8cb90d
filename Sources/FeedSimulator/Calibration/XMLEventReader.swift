import FoundationEssentials
import Glibc
import SystemSupport

/// What an `XMLEventReader` reports as it reads a document, in order.
protocol XMLEventHandler: AnyObject {
    /// An element opened on `line` (an empty element `<a/>` opens and closes).
    func startElement(_ name: String, attributes: [String: String], line: Int)
    /// Text inside an element, entities decoded; one run of text may come
    /// in several calls.
    func characters(_ text: String)
    /// The element `name` closed.
    func endElement(_ name: String, line: Int)
    /// Whether the handler has seen enough (a problem of its own): the
    /// reader stops at the next event.
    var isDone: Bool { get }
}

/// Where an XML document is not well-formed, in words.
struct XMLSyntaxError: Error, Equatable {
    var line: Int
    var problem: String
}

/// Reads an XML document from a file or bytes in chunks and reports its
/// elements and text as they come, holding only the open elements and the
/// token being read: an export of any length is read in bounded memory.
///
/// It reads what `xctrace export` writes, and refuses the rest of XML 1.0
/// that an export never has with a message saying so: a DOCTYPE
/// (and so any entity but the five predefined ones and character
/// references). Comments, processing instructions and CDATA sections are
/// read; namespaces are not interpreted (a prefixed name is a name). Every
/// error names the line and says what is wrong in words.
struct XMLEventReader {
    /// The longest name, attribute value or run of text read, in bytes; an
    /// export's are tens of bytes, a few kilobytes at most.
    static let maximumTokenBytes = 1 << 20
    /// The deepest nesting of elements read; an export's is under twenty.
    static let maximumDepth = 1_000
    /// Bytes read from the source at a time.
    static let chunkBytes = 1 << 16

    /// Where the bytes come from.
    enum Source {
        case file(ReadableFile)
        case bytes(Data)
    }

    private var source: Source
    private var buffer: [UInt8] = []
    private var position = 0
    private var dataOffset = 0
    private var atEnd = false
    private(set) var line = 1
    /// The open elements, innermost last, with the lines they opened on.
    private var open: [(name: String, line: Int)] = []
    private var sawRoot = false
    /// Whether anything but white space was read.
    private var sawMarkup = false

    /// The problem of a document of nothing but white space.
    static let empty = "the document is empty"

    init(source: Source) {
        self.source = source
    }

    /// Reads the whole document, reporting to `handler`.
    ///
    /// - Throws: `XMLSyntaxError` where the document is not well-formed, or
    ///   when the source cannot be read.
    mutating func read(into handler: some XMLEventHandler) throws(XMLSyntaxError) {
        skipByteOrderMark()
        while !handler.isDone {
            guard let byte = peek() else { break }
            if byte == UInt8(ascii: "<") {
                try markup(handler)
            } else {
                try text(handler)
            }
        }
        if handler.isDone { return }
        if let innermost = open.last {
            throw XMLSyntaxError(
                line: line, problem: "the document ends inside <\(innermost.name)> (opened at line \(innermost.line))")
        }
        if !sawRoot {
            throw XMLSyntaxError(line: line, problem: sawMarkup ? "the document has no element" : XMLEventReader.empty)
        }
    }

    // MARK: - Bytes

    private mutating func peek(_ offset: Int = 0) -> UInt8? {
        while position + offset >= buffer.count {
            guard refill() else { return nil }
        }
        return buffer[position + offset]
    }

    /// Moves past one byte, counting lines.
    private mutating func advance() {
        if buffer[position] == UInt8(ascii: "\n") { line += 1 }
        position += 1
    }

    /// Reads the next chunk, keeping what is not consumed; false at the end.
    private mutating func refill() -> Bool {
        guard !atEnd else { return false }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        let chunk: Data
        switch source {
        case let .file(handle):
            chunk = (try? handle.read(upToCount: XMLEventReader.chunkBytes)) ?? Data()
        case let .bytes(data):
            let end = min(data.count, dataOffset + XMLEventReader.chunkBytes)
            chunk = data.subdata(in: data.startIndex + dataOffset..<data.startIndex + end)
            dataOffset = end
        }
        if chunk.isEmpty {
            atEnd = true
            return false
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// Whether the bytes ahead are `literal` (not consumed).
    private mutating func lookingAt(_ literal: String) -> Bool {
        for (i, byte) in literal.utf8.enumerated() where peek(i) != byte { return false }
        return true
    }

    private mutating func skip(_ literal: String) {
        for _ in literal.utf8 { advance() }
    }

    private mutating func skipByteOrderMark() {
        if peek() == 0xEF, peek(1) == 0xBB, peek(2) == 0xBF { position += 3 }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), XMLEventReader.isWhitespace(byte) { advance() }
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: ">"), UInt8(ascii: "="), UInt8(ascii: "\""), UInt8(ascii: "'"),
            UInt8(ascii: "<"):
            true
        default: false
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Bytes below 0x20 other than tab, line feed and carriage return are
    /// not XML characters.
    private static func isForbidden(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    private func error(_ problem: String) -> XMLSyntaxError {
        XMLSyntaxError(line: line, problem: problem)
    }

    // MARK: - Markup

    private mutating func markup(_ handler: some XMLEventHandler) throws(XMLSyntaxError) {
        sawMarkup = true
        if lookingAt("<?") {
            try skipPast("?>", opened: line, what: "a processing instruction")
        } else if lookingAt("<!--") {
            try skipPast("-->", opened: line, what: "a comment")
        } else if lookingAt("<![CDATA[") {
            guard !open.isEmpty else { throw error("a CDATA section outside the root element") }
            let opened = line
            skip("<![CDATA[")
            var bytes: [UInt8] = []
            while !lookingAt("]]>") {
                guard let byte = peek() else {
                    throw error("the document ends inside a CDATA section (opened at line \(opened))")
                }
                try append(byte, to: &bytes)
                advance()
            }
            skip("]]>")
            handler.characters(try string(bytes))
        } else if lookingAt("<!DOCTYPE") {
            throw error("a DOCTYPE declaration, which an xctrace export never has")
        } else if lookingAt("<!") {
            throw error("a <! that opens no comment or CDATA section")
        } else if lookingAt("</") {
            try endTag(handler)
        } else {
            try startTag(handler)
        }
    }

    /// Skips to just past `end`.
    private mutating func skipPast(_ end: String, opened: Int, what: String) throws(XMLSyntaxError) {
        while !lookingAt(end) {
            guard peek() != nil else { throw error("the document ends inside \(what) (opened at line \(opened))") }
            advance()
        }
        skip(end)
    }

    private mutating func startTag(_ handler: some XMLEventHandler) throws(XMLSyntaxError) {
        let opened = line
        advance()  // <
        let name = try self.name(in: "a tag")
        if open.isEmpty, sawRoot { throw error("a second root element <\(name)> after the first closed") }
        var attributes: [String: String] = [:]
        while true {
            let hadSpace = peek().map(XMLEventReader.isWhitespace) ?? false
            skipWhitespace()
            guard let byte = peek() else {
                throw error("the document ends inside the tag <\(name)> (opened at line \(opened))")
            }
            if byte == UInt8(ascii: ">") {
                advance()
                try openElement(name, attributes: attributes, line: opened, handler)
                return
            }
            if byte == UInt8(ascii: "/") {
                advance()
                guard peek() == UInt8(ascii: ">") else { throw error("a / inside the tag <\(name)> not followed by >") }
                advance()
                try openElement(name, attributes: attributes, line: opened, handler)
                closeElement(handler)
                return
            }
            guard hadSpace else { throw error("the tag <\(name)> has no space before an attribute") }
            let attribute = try self.name(in: "the tag <\(name)>")
            skipWhitespace()
            guard peek() == UInt8(ascii: "=") else {
                throw error("an attribute without a quoted value (\(attribute) in <\(name)>)")
            }
            advance()
            skipWhitespace()
            guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw error("an attribute without a quoted value (\(attribute) in <\(name)>)")
            }
            advance()
            var bytes: [UInt8] = []
            while peek() != quote {
                guard let byte = peek() else {
                    throw error("the document ends inside the tag <\(name)> (opened at line \(opened))")
                }
                if byte == UInt8(ascii: "<") {
                    throw error("a < inside an attribute value (\(attribute) in <\(name)>)")
                }
                if byte == UInt8(ascii: "&") {
                    try reference(into: &bytes)
                } else {
                    try append(byte, to: &bytes)
                    advance()
                }
            }
            advance()
            guard attributes.updateValue(try string(bytes), forKey: attribute) == nil else {
                throw error("the attribute \(attribute) is given twice in <\(name)>")
            }
        }
    }

    private mutating func openElement(
        _ name: String, attributes: [String: String], line opened: Int, _ handler: some XMLEventHandler
    ) throws(XMLSyntaxError) {
        guard open.count < XMLEventReader.maximumDepth else {
            throw error("elements nested more than \(XMLEventReader.maximumDepth) deep")
        }
        open.append((name, opened))
        sawRoot = true
        handler.startElement(name, attributes: attributes, line: opened)
    }

    private mutating func closeElement(_ handler: some XMLEventHandler) {
        let closed = open.removeLast()
        handler.endElement(closed.name, line: line)
    }

    private mutating func endTag(_ handler: some XMLEventHandler) throws(XMLSyntaxError) {
        skip("</")
        let name = try self.name(in: "an end tag")
        skipWhitespace()
        guard peek() == UInt8(ascii: ">") else { throw error("the end tag </\(name)> is not closed by >") }
        advance()
        guard let innermost = open.last else {
            throw error("an end tag does not match the element it closes: </\(name)> closes no open element")
        }
        guard innermost.name == name else {
            throw error(
                """
                an end tag does not match the element it closes: </\(name)> where <\(innermost.name)> (opened at \
                line \(innermost.line)) is open
                """
            )
        }
        closeElement(handler)
    }

    /// A name: up to whitespace, `/`, `>`, `=`, quotes or `<`.
    private mutating func name(in place: String) throws(XMLSyntaxError) -> String {
        var bytes: [UInt8] = []
        while let byte = peek(), !XMLEventReader.isWhitespace(byte), !XMLEventReader.endsName(byte) {
            try append(byte, to: &bytes)
            advance()
        }
        guard let first = bytes.first else {
            throw error(peek() == nil ? "the document ends inside \(place)" : "\(place) without a name")
        }
        if (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "-")
            || first == UInt8(ascii: ".")
        {
            throw error("a name that starts with \"\(Character(Unicode.Scalar(first)))\" in \(place)")
        }
        return try string(bytes)
    }

    // MARK: - Text

    private mutating func text(_ handler: some XMLEventHandler) throws(XMLSyntaxError) {
        var bytes: [UInt8] = []
        while let byte = peek(), byte != UInt8(ascii: "<") {
            if byte == UInt8(ascii: "&") {
                try reference(into: &bytes)
            } else {
                try append(byte, to: &bytes)
                advance()
            }
        }
        if open.isEmpty {
            guard bytes.allSatisfy(XMLEventReader.isWhitespace) else {
                sawMarkup = true
                throw error(sawRoot ? "text after the root element" : "text before the root element")
            }
            return
        }
        handler.characters(try string(bytes))
    }

    private mutating func append(_ byte: UInt8, to bytes: inout [UInt8]) throws(XMLSyntaxError) {
        if XMLEventReader.isForbidden(byte) { throw error("a character XML does not allow (byte \(byte))") }
        guard bytes.count < XMLEventReader.maximumTokenBytes else {
            throw error("a name, value or text longer than \(XMLEventReader.maximumTokenBytes) bytes")
        }
        bytes.append(byte)
    }

    /// An entity or character reference, decoded into `bytes`.
    private mutating func reference(into bytes: inout [UInt8]) throws(XMLSyntaxError) {
        advance()  // &
        var name: [UInt8] = []
        while let byte = peek(), byte != UInt8(ascii: ";") {
            guard name.count < 12, byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&"),
                !XMLEventReader.isWhitespace(byte)
            else {
                throw error("a bad entity reference (write & as &amp;)")
            }
            name.append(byte)
            advance()
        }
        guard peek() == UInt8(ascii: ";") else { throw error("a bad entity reference (write & as &amp;)") }
        advance()
        let text = String(decoding: name, as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch text {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if text.hasPrefix("#x") {
                scalar = UInt32(text.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if text.hasPrefix("#") {
                scalar = UInt32(text.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                throw error(
                    """
                    a bad entity reference &\(text.prefix(12)); (an export uses only &lt; &gt; &amp; &quot; \
                    &apos;; write & as &amp;)
                    """
                )
            }
        }
        guard let scalar, scalar.value >= 0x20 || scalar == "\t" || scalar == "\n" || scalar == "\r" else {
            throw error("a character reference &\(text.prefix(12)); to a character XML does not allow")
        }
        for byte in String(scalar).utf8 { try append(byte, to: &bytes) }
    }

    private func string(_ bytes: [UInt8]) throws(XMLSyntaxError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw error("bytes that are not UTF-8") }
        return text
    }
}
