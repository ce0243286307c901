/// House numbers compare as people read them: "2" < "10" < "10A" < "10B" < "11".
enum HouseNumber {
    static func parts(_ s: String?) -> (number: Int, suffix: String)? {
        guard let s, !s.isEmpty else { return nil }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        guard let n = Int(digits.prefix(9)) else { return (Int.max, s.lowercased()) }
        return (n, String(s.dropFirst(digits.count)).trimmingCharacters(in: .whitespaces).lowercased())
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
        let s = (street ?? "").lowercased().split(whereSeparator: { $0 == " " }).joined(separator: " ")
        return s + "|" + number.lowercased().replacingOccurrences(of: " ", with: "")
    }
}
