import ArgumentParser

@main
struct FlyrSynth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flyr-synth",
        abstract: "Synthetic city with ground truth for benchmarking address-to-building linking.",
        subcommands: [Generate.self, Evaluate.self]
    )
}
