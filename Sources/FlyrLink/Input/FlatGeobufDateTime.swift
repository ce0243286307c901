/// FlatGeobuf DateTime values (ISO 8601 text) as GDAL shows them: GDAL parses the text into an
/// OGR DateTime field and `OGR_F_GetFieldAsString` writes "YYYY/MM/DD HH:MM:SS[.sss][±HH[MM]]".
/// Only the forms GDAL itself writes are read here (`YYYY-MM-DD` and `YYYY-MM-DDTHH:MM:SS[.fff]`
/// with `Z` or `±HH:MM`); GDAL's parser is lenient in ways not worth copying, so any other text
/// asks for GDAL.
enum FlatGeobufDateTime {
    /// nil where GDAL's parser gives up and leaves the field unset: a month or day out of range
    /// (GDAL writes an OGR Time field as "0000-00-00T…").
    static func text(_ bytes: UnsafeRawBufferPointer) throws(FlatGeobufProblem) -> String? {
        var s = Scanner(bytes: bytes)
        guard let year = s.number(4), s.take("-"), let month = s.number(2), s.take("-"), let day = s.number(2) else { throw unusual }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        if s.atEnd {
            return OGRFieldText.dateTime(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, tzFlag: 0)
        }
        guard s.take("T"), let hour = s.number(2), s.take(":"), let minute = s.number(2), s.take(":"), let whole = s.number(2),
              hour <= 23, minute <= 59 else { throw unusual }
        var secondsText = String(whole)
        if s.take(".") {
            guard let fraction = s.digits() else { throw unusual }
            secondsText += "." + fraction
        }
        guard let seconds = Double(secondsText), seconds <= 60 else { throw unusual }
        var tzFlag = 0
        if s.take("Z") {
            tzFlag = 100
        } else if let sign = s.sign() {
            guard let h = s.number(2), s.take(":"), let m = s.number(2), m % 15 == 0, h <= 14 else { throw unusual }
            tzFlag = 100 + sign * (h * 4 + m / 15)
        }
        guard s.atEnd else { throw unusual }
        return OGRFieldText.dateTime(year: year, month: month, day: day, hour: hour, minute: minute,
                                     second: Float(seconds), tzFlag: tzFlag)
    }

    private static var unusual: FlatGeobufProblem { .needsGDAL("a date-time value in a form GDAL parses its own way") }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        var atEnd: Bool { at == bytes.count }

        mutating func take(_ c: Character) -> Bool {
            guard at < bytes.count, bytes[at] == c.asciiValue else { return false }
            at += 1
            return true
        }

        /// Exactly `count` digits.
        mutating func number(_ count: Int) -> Int? {
            guard at + count <= bytes.count else { return nil }
            var n = 0
            for i in at..<(at + count) {
                let d = Int(bytes[i]) - 48
                guard (0...9).contains(d) else { return nil }
                n = n * 10 + d
            }
            at += count
            return n
        }

        /// One or more digits, as text.
        mutating func digits() -> String? {
            let start = at
            while at < bytes.count, (48...57).contains(bytes[at]) { at += 1 }
            return at > start ? String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self) : nil
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}
