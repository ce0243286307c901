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

    static func less(_ a: String?, _ b: String?) -> Bool {
        switch (parts(a), parts(b)) {
        case let (x?, y?): return x.number != y.number ? x.number < y.number : x.suffix < y.suffix
        case (_?, nil): return true
        default: return false
        }
    }

    /// "street|number" in a normal form: two addresses with the same key are the same house
    /// (e.g. units of one apartment block). Nil when there is no house number.
    static func key(street: String?, number: String?) -> String? {
        guard let number, !number.isEmpty else { return nil }
        if let ascii = asciiKey(street: street ?? "", number: number) { return ascii }
        let s = (street ?? "").lowercased().split(whereSeparator: { $0 == " " }).joined(separator: " ")
        return s + "|" + number.lowercased().replacingOccurrences(of: " ", with: "")
    }

    /// Every address's `key` as a number: equal numbers for equal keys (numbered in address
    /// order), nil without a house number. Only equality is ever asked of keys, and a million key
    /// strings held through the run were 70 MB.
    static func keyNumbers(_ addresses: [AddressPoint], pool: WorkerPool) -> [Int32?] {
        let keys = pool.map(addresses.count, chunkSize: 16_384) { _, i in
            key(street: addresses[i].streetName, number: addresses[i].houseNumber)
        }
        var numbers: [String: Int32] = [:]
        numbers.reserveCapacity(keys.count)
        return keys.map { key in
            guard let key else { return nil }
            if let n = numbers[key] { return n }
            let n = Int32(numbers.count)
            numbers[key] = n
            return n
        }
    }

    /// `key` for ASCII text, byte by byte.
    private static func asciiKey(street: String, number: String) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(street.utf8.count + number.utf8.count + 1)
        var pendingSpace = false
        for b in street.utf8 {
            guard b < 0x80 else { return nil }
            if b == 0x20 { pendingSpace = !out.isEmpty; continue }
            if pendingSpace { out.append(0x20); pendingSpace = false }
            out.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
        }
        out.append(0x7C)  // "|"
        for b in number.utf8 {
            guard b < 0x80 else { return nil }
            if b == 0x20 { continue }
            out.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
