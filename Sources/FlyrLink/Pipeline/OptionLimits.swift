/// The bounds of the numbers flyr-link takes, as options or pipeline keys. Past them a value is a
/// mistake (a mistyped exponent, a thread per address) that would only overflow a grid or exhaust memory.
public enum OptionLimits {
    /// Metres: proximity links and the sticky margin reach no further.
    public static let distance = 10_000.0
    public static let threads = 1_024
    public static let versionsKept = 100_000
    public static let tiles = 1_000_000
    public static let shares = 100_000

    /// nil when `value` is a distance in 0...`distance` metres; else why not, naming `option`.
    public static func distanceProblem(_ option: String, _ value: Double) -> String? {
        value.isFinite && value >= 0 && value <= distance ? nil
            : "\(option) must be a distance from 0 to \(Int(distance)) metres, not \(value)"
    }

    /// nil when `value` is in 1...`maximum`; else why not, naming `option`.
    public static func countProblem(_ option: String, _ value: Int, maximum: Int) -> String? {
        (1...maximum).contains(value) ? nil : "\(option) must be from 1 to \(maximum), not \(value)"
    }
}
