import Foundation

/// A buffered file writer: bytes are gathered in memory and written in large blocks.
final class ByteWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private let flushAt = 1 << 20
    let path: String

    init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let h = FileHandle(forWritingAtPath: path) else {
            throw OutputError("cannot create \(path)")
        }
        handle = h
        buffer.reserveCapacity(flushAt + 4096)
    }

    func write(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= flushAt { flush() }
    }

    func write(bytes: [UInt8]) {
        if bytes.count >= flushAt / 4 {
            // A large block (a formatted chunk) goes out as it is, after what is buffered.
            flush()
            handle.write(Data(bytes))
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= flushAt { flush() }
    }

    /// Appends directly into the buffer (for formatters that write bytes).
    func withBuffer(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        if buffer.count >= flushAt { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        flush()
        try handle.synchronize()
        try handle.close()
    }
}

public struct OutputError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

enum JSONText {
    /// Appends `s` as a JSON string literal.
    static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += [92, 34]
            case UInt8(ascii: "\\"): out += [92, 92]
            case 0x0A: out += [92, UInt8(ascii: "n")]
            case 0x0D: out += [92, UInt8(ascii: "r")]
            case 0x09: out += [92, UInt8(ascii: "t")]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [92, UInt8(ascii: "u"), 48, 48, hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
