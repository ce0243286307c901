/// What the evidence reads of each address's fields (house key, street hash, leading digits), read
/// from the compressed rows a chunk at a time so the rows are decompressed only after the decisions.
struct AddressKeys {
    let houseKeys: HouseKeys
    /// A hash of each address's street name as `HouseNumber.key` normalises it; 0 for none.
    let streets: [UInt64]
    /// Each address's house number's leading digits; -1 for none.
    let numbers: [Int32]

    init(_ rows: CompressedRows<AddressPoint>, pool: WorkerPool) {
        let read = rows.map(pool: pool) { _, a in
            (key: HouseNumber.houseKey(of: a),
             street: a.withUTF8(.streetName) { HouseNumber.streetHash($0) },
             number: Int32(a.withUTF8(.houseNumber) { HouseNumber.leadingNumber($0) }))
        }
        houseKeys = HouseKeys(read.map(\.key))
        streets = read.map(\.street)
        numbers = read.map(\.number)
    }
}
