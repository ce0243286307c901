/// Boxes bucketed in a uniform grid of square cells, for many small queries (a query reads the few
/// cells it overlaps); only non-empty cells are stored. Read-only after `init`: any thread may query.
public struct BoxGrid: Sendable {
    public let cellSize: Double
    private let originX: Double
    private let originY: Double
    /// The non-empty cells' keys (row << 32 | column), ascending.
    private let cellKeys: [UInt64]
    /// Cell k's entries are entries[cellStart[k]..<cellStart[k + 1]].
    private let cellStart: [Int32]
    /// Every cell's items with their boxes beside them, each box single precision from its cell's
    /// corner, rounded outwards (`CellBox`): 16 bytes an entry, not 32, as the grid sits beside the search.
    private let items: [Int32]
    private let boxes: [CellBox]
    /// Per entry, whether its cell is its box's first column (bit 0) or row (bit 1): a query reports
    /// an item from one cell only, without recomputing the box's cells.
    private let firsts: [UInt8]
    /// Items whose boxes span more than `maxSpan` cells in a direction (a footprint the size of a
    /// district), tested on every query instead of filling thousands of cells.
    private let oversized: [Int32]
    private let oversizedBoxes: [BBox]
    /// The last column and row any cell has (a query beyond them reads no further).
    private let lastColumn: Int
    private let lastRow: Int

    private static let maxSpan = 64

    /// `cellSize`: the side of a cell, in the boxes' units; about a query's size works best.
    package init(boxes all: [BBox], cellSize: Double, pool: WorkerPool = WorkerPool(threads: 1)) {
        self.init(count: all.count, cellSize: cellSize, pool: pool) { all[$0] }
    }

    /// `count` boxes, `box(i)` each, asked for more than once: boxes that are quick to make (a
    /// footprint's, from its points) need no array of their own beside the grid's.
    init(count: Int, cellSize: Double, pool: WorkerPool = WorkerPool(threads: 1), box: (Int) -> BBox) {
        precondition(cellSize > 0 && cellSize.isFinite, "cell size must be positive")
        self.cellSize = cellSize
        var extent = BBox.empty
        for i in 0..<count { let b = box(i); if !b.isEmpty { extent.extend(b) } }
        originX = extent.isEmpty ? 0 : extent.minX
        originY = extent.isEmpty ? 0 : extent.minY
        // Each box's cells as (cell key, item) pairs sorted by key, then item: counted first, so the
        // pairs are allocated once.
        var big: [Int32] = []
        var total = 0
        for i in 0..<count {
            guard let (x, y) = Self.cells(of: box(i), origin: (originX, originY), size: cellSize) else { continue }
            if x.count > Self.maxSpan || y.count > Self.maxSpan { big.append(Int32(i)) } else { total += x.count * y.count }
        }
        var lastX = 0, lastY = 0
        var keyed: [IndexedKey<UInt64>] = []
        keyed.reserveCapacity(total)
        for i in 0..<count {
            guard let (x, y) = Self.cells(of: box(i), origin: (originX, originY), size: cellSize), x.count <= Self.maxSpan, y.count <= Self.maxSpan else { continue }
            // One loop over the cells: two nested loops here lost cells' rows in release builds.
            for c in 0..<(x.count * y.count) {
                keyed.append(IndexedKey(key: Self.key(x.lowerBound + c % x.count, y.lowerBound + c / x.count), index: Int32(i)))
            }
            lastX = max(lastX, x.upperBound - 1)
            lastY = max(lastY, y.upperBound - 1)
        }
        lastColumn = lastX
        lastRow = lastY
        ParallelSort.sort(&keyed, pool: pool)
        var keys: [UInt64] = [], starts: [Int32] = []
        var items = [Int32](), boxes = [CellBox](), firsts = [UInt8]()
        items.reserveCapacity(keyed.count)
        boxes.reserveCapacity(keyed.count)
        firsts.reserveCapacity(keyed.count)
        for (k, entry) in keyed.enumerated() {
            if k == 0 || entry.key != keyed[k - 1].key {
                keys.append(entry.key)
                starts.append(Int32(k))
            }
            let b = box(Int(entry.index))
            let (x, y) = Self.cells(of: b, origin: (originX, originY), size: cellSize)!  // in the grid, so not empty
            let (column, row) = (Int(entry.key & 0xFFFF_FFFF), Int(entry.key >> 32))
            items.append(entry.index)
            boxes.append(CellBox(enclosing: b, corner: Self.corner(column, row, origin: (originX, originY), size: cellSize)))
            firsts.append((column == x.lowerBound ? 1 : 0) | (row == y.lowerBound ? 2 : 0))
        }
        starts.append(Int32(keyed.count))
        cellKeys = keys
        cellStart = starts
        self.items = items
        self.boxes = boxes
        self.firsts = firsts
        oversized = big
        oversizedBoxes = big.map { box(Int($0)) }
    }

    /// The columns and rows of the cells a box lies in; nil for an empty or non-finite box (kept
    /// out of the grid: it meets no query).
    private static func cells(of b: BBox, origin: (x: Double, y: Double), size: Double) -> (Range<Int>, Range<Int>)? {
        guard !b.isEmpty, b.minX.isFinite, b.maxX.isFinite, b.minY.isFinite, b.maxY.isFinite else { return nil }
        return (cell(b.minX, origin.x, size)..<cell(b.maxX, origin.x, size) + 1, cell(b.minY, origin.y, size)..<cell(b.maxY, origin.y, size) + 1)
    }

    /// The cell holding `v`: floor((v - o) / size), monotonic in `v` so a box and its points agree,
    /// clamped to 0...2^30 (NaN: 2^30); `Int` truncation is the floor here (the quotient is positive).
    @inline(__always)
    private static func cell(_ v: Double, _ o: Double, _ size: Double) -> Int {
        let c = (v - o) / size
        return c <= 0 ? 0 : c < 1_073_741_824 ? Int(c) : 1_073_741_824
    }

    @inline(__always)
    private static func key(_ x: Int, _ y: Int) -> UInt64 { UInt64(y) << 32 | UInt64(x) }

    /// Cell (column, row)'s lower-left corner, as both the entries' boxes and the queries make it.
    @inline(__always)
    private static func corner(_ column: Int, _ row: Int, origin: (x: Double, y: Double), size: Double) -> (x: Double, y: Double) {
        (origin.x + Double(column) * size, origin.y + Double(row) * size)
    }

    /// A box as a cell keeps it: single-precision offsets from the cell's corner, each rounded
    /// outwards, so that the box it gives back (`box(corner:)`) encloses the one it was made from.
    struct CellBox {
        var minX, minY, maxX, maxY: Float

        init(enclosing b: BBox, corner c: (x: Double, y: Double)) {
            minX = Self.below(b.minX, c.x)
            minY = Self.below(b.minY, c.y)
            maxX = Self.above(b.maxX, c.x)
            maxY = Self.above(b.maxY, c.y)
        }

        @inline(__always)
        func box(corner c: (x: Double, y: Double)) -> BBox {
            BBox(minX: c.x + Double(minX), minY: c.y + Double(minY), maxX: c.x + Double(maxX), maxY: c.y + Double(maxY))
        }

        // Checked with the very sum `box(corner:)` makes, so its rounding is covered too.
        private static func below(_ v: Double, _ o: Double) -> Float {
            var f = Float(v - o)
            while o + Double(f) > v { f = f.nextDown }
            return f
        }

        private static func above(_ v: Double, _ o: Double) -> Float {
            var f = Float(v - o)
            while o + Double(f) < v { f = f.nextUp }
            return f
        }
    }

    /// Every item once, cell by cell, row by row (where its box begins): a sweep in this order meets
    /// spatial neighbours one after another, whatever their ids.
    func spatialOrder() -> [Int32] {
        var order: [Int32] = []
        order.reserveCapacity(items.count)
        for e in items.indices where firsts[e] == 3 { order.append(items[e]) }
        return order + oversized
    }

    /// Indices of the items whose boxes may intersect `query` (those `search(_:_:)` visits), ascending.
    public func search(_ query: BBox) -> [Int] {
        var result: [Int] = []
        search(query) { item, _ in result.append(item) }
        result.sort()
        return result
    }

    /// Visits once, in no order, every item whose box intersects `query`, and a few that nearly do
    /// (boxes enclose by a few single-precision ulps): a caller needing the exact answer tests its own box.
    public func search(_ query: BBox, _ visit: (Int, BBox) -> Void) {
        // An empty query meets nothing; so does one with a NaN side (no cell holds it).
        guard query.minX <= query.maxX, query.minY <= query.maxY else { return }
        let x0 = Self.cell(query.minX, originX, cellSize), x1 = min(Self.cell(query.maxX, originX, cellSize), lastColumn)
        let y0 = Self.cell(query.minY, originY, cellSize), y1 = min(Self.cell(query.maxY, originY, cellSize), lastRow)
        defer { for (k, b) in oversizedBoxes.enumerated() where b.intersects(query) { visit(Int(oversized[k]), b) } }
        guard x0 <= x1, y0 <= y1 else { return }
        cellKeys.withUnsafeBufferPointer { keys in
            cellStart.withUnsafeBufferPointer { cellStart in
                items.withUnsafeBufferPointer { items in
                    boxes.withUnsafeBufferPointer { boxes in
                        self.firsts.withUnsafeBufferPointer { firsts in
                            guard !keys.isEmpty else { return }
                            for y in y0...y1 {
                                let last = Self.key(x1, y)
                                var k = Self.lowerBound(keys, Self.key(x0, y))
                                // An item is reported from the first of its cells within the query's
                                // cells: its own first column, or the query's first, and so for rows.
                                let rowMask: UInt8 = y == y0 ? 0 : 2
                                while k < keys.count, keys[k] <= last {
                                    let column = Int(keys[k] & 0xFFFF_FFFF)
                                    let mask = rowMask | (column == x0 ? 0 : 1)
                                    let c = Self.corner(column, y, origin: (originX, originY), size: cellSize)
                                    for e in Int(cellStart[k])..<Int(cellStart[k + 1]) where firsts[e] & mask == mask {
                                        let b = boxes[e].box(corner: c)
                                        if b.intersects(query) { visit(Int(items[e]), b) }
                                    }
                                    k += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The first position whose key is not below `key`.
    @inline(__always)
    private static func lowerBound(_ keys: UnsafeBufferPointer<UInt64>, _ key: UInt64) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
