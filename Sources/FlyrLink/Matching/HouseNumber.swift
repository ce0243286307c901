/// House numbers compare as people read them: "2" < "10" < "10A" < "10B" < "11".
enum HouseNumber {
    static func parts(_ s: String?) -> (number: Int, suffix: String)? {
        guard let s, !s.isEmpty else { return nil }
        if let ascii = asciiParts(s) { return ascii }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard let n = Int(digits.prefix(9)) else { return (Int.max, s.lowercased()) }
        return (n, String(s.dropFirst(digits.count)).trimmingCharacters(in: .whitespaces).lowercased())
    }

    /// The same for an ASCII string, without Foundation (a million addresses go through here).
    private static func asciiParts(_ s: String) -> (number: Int, suffix: String)? {
        var s = s
        return s.withUTF8 { u -> (number: Int, suffix: String)?? in
            var n = 0, digits = 0
            while digits < u.count, u[digits] >= 0x30, u[digits] <= 0x39 {
                if digits < 9 { n = n * 10 + Int(u[digits] - 0x30) }
                digits += 1
            }
            var lo = digits, hi = u.count
            while lo < hi, u[lo] == 0x20 || u[lo] == 0x09 { lo += 1 }
            while hi > lo, u[hi - 1] == 0x20 || u[hi - 1] == 0x09 { hi -= 1 }
            var suffix: [UInt8] = []
            for b in u[lo..<hi] {
                guard b < 0x80 else { return .some(nil) }  // not ASCII: the general path
                suffix.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
            }
            guard digits > 0 else { return .some(nil) }
            return (n, String(decoding: suffix, as: UTF8.self))
        } ?? nil
    }

    static func less(_ a: String?, _ b: String?) -> Bool { less(parts(a), parts(b)) }

    /// `less` of numbers already taken apart (`parts`), for code that compares each several times.
    static func less(_ a: (number: Int, suffix: String)?, _ b: (number: Int, suffix: String)?) -> Bool {
        switch (a, b) {
        case let (x?, y?): return x.number != y.number ? x.number < y.number : x.suffix < y.suffix
        case (_?, nil): return true
        default: return false
        }
    }

    /// "street|number" in a normal form: equal keys are the same house; nil without a house number.
    /// The run compares `HouseKey` hashes of these bytes; this text is what the tests check them against.
    static func key(street: String?, number: String?) -> String? {
        guard let number, !number.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity((street?.utf8.count ?? 0) + number.utf8.count + 1)
        var streetText = street ?? "", numberText = number
        let ascii = streetText.withUTF8 { s in
            numberText.withUTF8 { n in forEachASCIIKeyByte(street: s, number: n) { out.append($0) } }
        }
        if ascii { return String(decoding: out, as: UTF8.self) }
        return generalKey(street: street, number: number)
    }

    /// `key` of every address as a `HouseKey`, computed on the workers (only equality is ever asked,
    /// so no key strings are held).
    static func keys(_ addresses: [AddressPoint], pool: WorkerPool) -> HouseKeys {
        HouseKeys(addresses.withUnsafeBufferPointer { addresses in
            pool.map(addresses.count, chunkSize: 16_384) { _, i in houseKey(of: addresses[i]) }
        })
    }

    /// An address's `houseKey`, `.none` for none.
    static func houseKey(of a: AddressPoint) -> HouseKey {
        a.withUTF8(.streetName) { street in a.withUTF8(.houseNumber) { number in houseKey(street: street, number: number) ?? .none } }
    }

    /// The street part of `key`, hashed (FNV-1a of the lowercased, space-collapsed bytes): equal
    /// for one street however it is spaced or cased; 0 when there is no street name.
    static func streetHash(_ street: UnsafeBufferPointer<UInt8>?) -> UInt64 {
        guard let street, !street.isEmpty else { return 0 }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325, started = false, pendingSpace = false
        func add(_ b: UInt8) { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        for b in street {
            if b == 0x20 || b == 0x09 { pendingSpace = started; continue }
            if pendingSpace { add(0x20); pendingSpace = false }
            add(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
            started = true
        }
        return started ? max(h, 1) : 0
    }

    /// The dwelling a house number names, lowercased: leading digits and an attached letter ("12B" →
    /// "12b"), cut at a space, dash or slash ("12-3" → "12"); empty unless it starts with a digit.
    static func dwelling(_ number: UnsafeBufferPointer<UInt8>?) -> String {
        guard let number else { return "" }
        var out: [UInt8] = []
        var k = 0
        while k < number.count, number[k] == 0x20 { k += 1 }
        while k < number.count, number[k] >= 0x30, number[k] <= 0x39 { out.append(number[k]); k += 1 }
        guard !out.isEmpty else { return "" }
        func letter(_ i: Int) -> UInt8? { i < number.count && (0x61...0x7A).contains(number[i] | 0x20) ? number[i] | 0x20 : nil }
        // One letter against the digits ("12b"), not a word ("12bis").
        if let l = letter(k), letter(k + 1) == nil { out.append(l) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The house number's leading digits as a number ("12B" 12, "11 B 9" 11); -1 when it does
    /// not start with a digit.
    static func leadingNumber(_ number: UnsafeBufferPointer<UInt8>?) -> Int {
        guard let number else { return -1 }
        var n = 0, digits = 0
        for b in number {
            if b == 0x20 && digits == 0 { continue }
            guard b >= 0x30, b <= 0x39 else { break }
            if digits < 9 { n = n * 10 + Int(b - 0x30) }
            digits += 1
        }
        return digits > 0 ? n : -1
    }

    /// `key` hashed straight from the text (no key string is made for ASCII text).
    static func houseKey(street: String?, number: String?) -> HouseKey? {
        var street = street, number = number
        return withUTF8(&street) { s in withUTF8(&number) { n in houseKey(street: s, number: n) } }
    }

    /// As `houseKey(street:number:)`, from the fields' UTF-8 bytes.
    static func houseKey(street: UnsafeBufferPointer<UInt8>?, number: UnsafeBufferPointer<UInt8>?) -> HouseKey? {
        guard let number, !number.isEmpty else { return nil }
        var hasher = HouseKey.Hasher()
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        if forEachASCIIKeyByte(street: street ?? empty, number: number, { hasher.add($0) }) { return hasher.finish() }
        hasher = HouseKey.Hasher()
        let text = generalKey(street: street.map { String(decoding: $0, as: UTF8.self) }, number: String(decoding: number, as: UTF8.self))
        for b in text.utf8 { hasher.add(b) }
        return hasher.finish()
    }

    private static func withUTF8<R>(_ s: inout String?, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard var text = s else { return body(nil) }
        return text.withUTF8 { body($0) }
    }

    private static func generalKey(street: String?, number: String) -> String {
        let s = (street ?? "").lowercased().split(whereSeparator: { $0 == " " }).joined(separator: " ")
        return s + "|" + number.lowercased().replacingOccurrences(of: " ", with: "")
    }

    /// The bytes of `key` for ASCII text, one by one to `body`; false (part of the key given)
    /// when the text is not ASCII.
    private static func forEachASCIIKeyByte(street: UnsafeBufferPointer<UInt8>, number: UnsafeBufferPointer<UInt8>,
                                            _ body: (UInt8) -> Void) -> Bool {
        var started = false, pendingSpace = false
        for b in street {
            guard b < 0x80 else { return false }
            if b == 0x20 { pendingSpace = started; continue }
            if pendingSpace { body(0x20); pendingSpace = false }
            body(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
            started = true
        }
        body(0x7C)  // "|"
        for b in number {
            guard b < 0x80 else { return false }
            if b == 0x20 { continue }
            body(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
        }
        return true
    }
}

/// A `HouseNumber.key` as two independent 64-bit hashes, made without the key string: collisions
/// are about 2^-128 per pair. The hashes are not seeded, so runs stay byte-identical.
struct HouseKey: Hashable, Sendable {
    let first: UInt64
    let second: UInt64

    /// No key (no house number), where keys are stored without optionals (`HouseKeys`).
    static let none = HouseKey(first: 0, second: 0)

    struct Hasher {
        private var a: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        private var b: UInt64 = 0x6a09_e667_f3bc_c909
        private var count: UInt64 = 0

        mutating func add(_ byte: UInt8) {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(byte)) &* 0x9E37_79B9_7F4A_7C15
            b ^= b >> 29
            count += 1
        }

        /// Never `HouseKey.none` (a key that would hash to it is moved by one: odds of 2^-128 either way).
        func finish() -> HouseKey {
            let key = HouseKey(first: Self.mix(a ^ count), second: Self.mix(b &+ count))
            return key == .none ? HouseKey(first: 0, second: 1) : key
        }

        /// MurmurHash3's 64-bit finaliser.
        private static func mix(_ x: UInt64) -> UInt64 {
            var k = x
            k ^= k >> 33
            k = k &* 0xff51_afd7_ed55_8ccd
            k ^= k >> 33
            k = k &* 0xc4ce_b9fe_1a85_ec53
            k ^= k >> 33
            return k
        }
    }
}

/// Each address's house key, nil for no house number: 16 bytes per address, `HouseKey.none` for nil.
struct HouseKeys: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    private var keys: [HouseKey]

    init(_ keys: [HouseKey]) { self.keys = keys }

    init(arrayLiteral elements: HouseKey?...) { keys = elements.map { $0 ?? .none } }

    var startIndex: Int { 0 }
    var endIndex: Int { keys.count }

    subscript(address: Int) -> HouseKey? {
        let key = keys[address]
        return key == .none ? nil : key
    }
}
