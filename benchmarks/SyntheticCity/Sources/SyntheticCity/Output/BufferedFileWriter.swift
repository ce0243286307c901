#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public enum SyntheticCityError: Error, CustomStringConvertible {
    case cannotOpen(String)
    case writeFailed(String)
    case badInput(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path): return "cannot open \(path)"
        case .writeFailed(let path): return "write failed: \(path)"
        case .badInput(let message): return message
        }
    }
}

/// Append-only byte buffer flushed to a file in 1 MiB chunks. Numbers are formatted
/// straight into the buffer: String(format:) would dominate run time at 10M buildings.
final class BufferedFileWriter {
    private static let capacity = 1 << 20
    private let path: String
    private let file: UnsafeMutablePointer<FILE>
    private let buffer: UnsafeMutablePointer<UInt8>
    private var count = 0

    init(path: String) throws {
        guard let handle = fopen(path, "wb") else { throw SyntheticCityError.cannotOpen(path) }
        self.path = path
        file = handle
        buffer = .allocate(capacity: Self.capacity)
    }

    deinit {
        buffer.deallocate()
    }

    /// Makes room for `n` more bytes (n must be below the capacity).
    @inline(__always) private func reserve(_ n: Int) throws {
        if count + n > Self.capacity { try flush() }
    }

    private func flush() throws {
        guard count > 0 else { return }
        if fwrite(buffer, 1, count, file) != count { throw SyntheticCityError.writeFailed(path) }
        count = 0
    }

    func close() throws {
        try flush()
        if fclose(file) != 0 { throw SyntheticCityError.writeFailed(path) }
    }

    @inline(__always) func byte(_ b: UInt8) throws {
        try reserve(1)
        buffer[count] = b
        count += 1
    }

    func write(_ s: StaticString) throws {
        try reserve(s.utf8CodeUnitCount)
        s.withUTF8Buffer { src in
            (buffer + count).update(from: src.baseAddress!, count: src.count)
        }
        count += s.utf8CodeUnitCount
    }

    /// Raw text; the caller guarantees it needs no escaping (CSV ids, kind names).
    func write(_ s: String) throws {
        for b in s.utf8 { try byte(b) }
    }

    /// A JSON string literal with quotes and the escapes RFC 8259 requires.
    func jsonString(_ s: String) throws {
        try byte(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                try byte(UInt8(ascii: "\\")); try byte(b)
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                try write("\\u00")
                try byte(hex[Int(b >> 4)]); try byte(hex[Int(b & 15)])
            default:
                try byte(b)
            }
        }
        try byte(UInt8(ascii: "\""))
    }

    func integer(_ value: Int) throws {
        try reserve(21)
        var n = value
        if n < 0 {
            buffer[count] = UInt8(ascii: "-"); count += 1
            n = -n
        }
        var digits = 1
        var probe = n
        while probe >= 10 { probe /= 10; digits += 1 }
        var i = count + digits - 1
        repeat {
            buffer[i] = UInt8(ascii: "0") + UInt8(n % 10)
            n /= 10
            i -= 1
        } while n > 0
        count += digits
    }

    /// Zero-padded id such as b0000042 (at least `minDigits` digits).
    func identifier(prefix: UInt8, _ value: Int, minDigits: Int = 7) throws {
        try byte(prefix)
        var digits = 1
        var probe = value
        while probe >= 10 { probe /= 10; digits += 1 }
        for _ in digits..<max(digits, minDigits) { try byte(UInt8(ascii: "0")) }
        try integer(value)
    }

    private static let powersOfTen: [Int64] = (0...12).map { p in (0..<p).reduce(Int64(1)) { acc, _ in acc * 10 } }

    /// Fixed-decimal number, e.g. fixed(56.1234, decimals: 8) → "56.12340000".
    /// Rounds half away from zero on value × 10^decimals; deterministic everywhere.
    func fixed(_ value: Double, decimals: Int) throws {
        precondition(value.isFinite && (0...12).contains(decimals))
        let scale = Self.powersOfTen[decimals]
        var scaled = Int64((value * Double(scale)).rounded(.toNearestOrAwayFromZero))
        try reserve(24)
        if scaled < 0 {
            buffer[count] = UInt8(ascii: "-"); count += 1
            scaled = -scaled
        }
        try integer(Int(scaled / scale))
        guard decimals > 0 else { return }
        try reserve(decimals + 1)
        buffer[count] = UInt8(ascii: "."); count += 1
        var fraction = scaled % scale
        var i = count + decimals - 1
        for _ in 0..<decimals {
            buffer[i] = UInt8(ascii: "0") + UInt8(fraction % 10)
            fraction /= 10
            i -= 1
        }
        count += decimals
    }
}
