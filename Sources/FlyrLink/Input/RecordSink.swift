/// Where a reader puts the records it reads. A run's ingest attaches a consumer, and the records
/// reach it in batches as they are read, so a whole layer of records never sits in memory; without
/// a consumer (inspect, a territory, tests) they are collected into the table.
final class RecordSink {
    typealias Consumer = (inout [SourceTable.Record]) -> Void

    private let consumer: Consumer?
    /// Told how many records to expect, so the consumer can size its storage once.
    private let expect: ((Int) -> Void)?
    private let batchSize: Int
    private var batch: [SourceTable.Record] = []
    private(set) var collected: [SourceTable.Record] = []
    /// Records appended so far.
    private(set) var count = 0

    /// Collects every record.
    init() {
        consumer = nil
        expect = nil
        batchSize = 0
    }

    /// Hands records to `consumer` in batches of `batchSize`, in read order; `expect` hears the
    /// readers' estimates of the record count.
    init(batchSize: Int = 32_768, expect: ((Int) -> Void)? = nil, consumer: @escaping Consumer) {
        self.consumer = consumer
        self.expect = expect
        self.batchSize = batchSize
        batch.reserveCapacity(batchSize)
    }

    func append(_ record: SourceTable.Record) {
        count += 1
        guard let consumer else { collected.append(record); return }
        batch.append(record)
        if batch.count >= batchSize {
            consumer(&batch)
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Appends a whole batch, read after the records appended before it. With a consumer the
    /// batch itself is handed on (its records are not copied); `records` is left empty.
    func append(contentsOf records: inout [SourceTable.Record]) {
        count += records.count
        guard let consumer else {
            collected.append(contentsOf: records)
            records = []
            return
        }
        if !batch.isEmpty {
            consumer(&batch)
            batch.removeAll(keepingCapacity: true)
        }
        consumer(&records)
        records = []
    }

    /// About `n` records in all (a reader's estimate): storage sized once instead of doubled as it
    /// fills, so large layers are never copied nor held twice.
    func reserveCapacity(_ n: Int) {
        if consumer == nil { collected.reserveCapacity(n) } else { expect?(n) }
    }

    /// Hands on what is left and returns the collected records (none when a consumer took them).
    /// Readers call it once, when they are done.
    func finish() -> [SourceTable.Record] {
        if let consumer, !batch.isEmpty { consumer(&batch) }
        batch = []
        defer { collected = [] }
        return collected
    }
}
