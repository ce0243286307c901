import Foundation

/// A .fgb file read front to back with pread(2) in large chunks: the header first, then the
/// features in batches — a chunk of the file and where each whole feature lies in it. Only one
/// chunk is in memory at a time (the file may be far larger than memory), and the spatial
/// index is skipped, not read: features are wanted in file order, as GDAL gives them.
final class FlatGeobufFile {
    let path: String
    let header: FlatGeobufHeader
    let fileSize: Int
    private let fd: Int32
    /// File offset of the first feature's size prefix.
    private let featuresOffset: Int

    /// Features of one chunk: `bytes` is valid only during the call it is passed to.
    struct Batch {
        let bytes: UnsafeRawBufferPointer
        /// Each feature's flatbuffer (without its size prefix), in file order.
        let features: [Range<Int>]
        /// 0-based index in the file of the first feature.
        let firstIndex: Int
        /// Each feature's index when they are not consecutive (a search of the spatial index).
        var indices: [Int]? = nil

        func index(_ i: Int) -> Int { indices?[i] ?? firstIndex + i }
    }

    init(path: String) throws(FlatGeobufProblem) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .needsGDAL("cannot open: \(String(cString: strerror(errno)))") }
        do {
            (fileSize, header, featuresOffset) = try Self.readHeader(fd)
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
        #if os(Linux)
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }

    /// The file's size, its header, and where the features start (after the spatial index).
    private static func readHeader(_ fd: Int32) throws(FlatGeobufProblem) -> (Int, FlatGeobufHeader, Int) {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { throw .needsGDAL("not a regular file") }
        let fileSize = Int(st.st_size)
        // Anything that is not FlatGeobuf 3 is GDAL's to identify (or refuse).
        let prefix = UnsafeMutableRawBufferPointer.allocate(byteCount: FlatGeobufHeader.prefixSize, alignment: 8)
        defer { prefix.deallocate() }
        let got = try readFully(fd, prefix, at: 0)
        guard got >= 4, Array(prefix[0..<4]) == FlatGeobufHeader.magic else { throw .needsGDAL("no FlatGeobuf 3 magic bytes") }
        guard got == prefix.count else { throw .corrupt("file ends inside the header") }
        let headerSize = Int(prefix.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian)
        guard headerSize <= FlatGeobufHeader.maxSize else { throw .needsGDAL("header of \(headerSize) bytes") }
        let headerBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: headerSize, alignment: 8)
        defer { headerBytes.deallocate() }
        guard try readFully(fd, headerBytes, at: FlatGeobufHeader.prefixSize) == headerSize else {
            throw .corrupt("file ends inside the header")
        }
        let header = try FlatGeobufHeader(UnsafeRawBufferPointer(headerBytes))
        guard header.featuresCount <= FlatGeobufHeader.maxFeatures else { throw .needsGDAL("header claims \(header.featuresCount) features") }
        let featuresOffset = FlatGeobufHeader.prefixSize + headerSize + (try header.indexSize())
        guard featuresOffset <= fileSize else { throw .corrupt("file ends inside the spatial index") }
        return (fileSize, header, featuresOffset)
    }

    deinit {
        close(fd)
    }

    /// Reads the features in file order, `chunkSize` bytes at a time (more for a larger feature),
    /// and passes each chunk's whole features to `body`. Stops after the header's feature count,
    /// or at the end of the file when the count is 0 (unknown) — as GDAL does, a few bytes too
    /// short for a size prefix at the very end are ignored; a feature cut short is an error.
    func forEachBatch(chunkSize: Int = 8 << 20, _ body: (Batch) throws(FlatGeobufProblem) -> Void) throws(FlatGeobufProblem) {
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(chunkSize, 64), alignment: 16)
        defer { buffer.deallocate() }
        let limit = header.featuresCount > 0 ? Int(header.featuresCount) : Int.max
        var filled = 0                  // valid bytes at the start of `buffer`
        var readOffset = featuresOffset // file offset of buffer[filled]
        var index = 0
        var ranges: [Range<Int>] = []
        while index < limit {
            let room = buffer.count - filled
            let got = try Self.readFully(fd, UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), at: readOffset)
            filled += got
            readOffset += got
            let atEnd = readOffset >= fileSize || got < room

            ranges.removeAll(keepingCapacity: true)
            var at = 0
            var pending = 0  // size of the first feature not wholly in the buffer
            while index + ranges.count < limit, filled - at >= 4 {
                let size = Int(buffer.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
                guard size <= filled - at - 4 else { pending = size; break }
                ranges.append((at + 4)..<(at + 4 + size))
                at += 4 + size
            }
            if !ranges.isEmpty {
                try body(Batch(bytes: UnsafeRawBufferPointer(buffer), features: ranges, firstIndex: index))
                index += ranges.count
            }
            guard index < limit else { break }
            let rest = filled - at
            if atEnd {
                if rest < 4 { break }
                let position = readOffset - rest
                throw .corrupt("feature \(index + 1) (at byte \(position)) is cut short: it needs \(pending) bytes, the file ends after \(rest - 4)")
            }
            if rest > 0, at > 0 { buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + at, byteCount: rest) }
            filled = rest
            // One feature larger than the buffer: grow it, unless the file cannot hold that much.
            if rest >= 4, 4 + pending > buffer.count {
                let position = readOffset - rest
                guard 4 + pending <= fileSize - position else {
                    throw .corrupt("feature \(index + 1) (at byte \(position)) is cut short: it needs \(pending) bytes, the file ends after \(fileSize - position - 4)")
                }
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: 4 + pending, alignment: 16)
                larger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: rest)
                buffer.deallocate()
                buffer = larger
            }
        }
    }

    /// Whether the file has the packed R-tree `forEachBatch(within:)` searches (ogr2ogr writes one
    /// of node size 16 unless told otherwise).
    var hasSpatialIndex: Bool { header.indexNodeSize == 16 && header.featuresCount > 0 }

    /// Only the features whose boxes meet `box` (in the file's CRS), found by the spatial index,
    /// in file order, a run of consecutive features read at once; nil when the file has no index
    /// this reader searches (it is then read whole).
    func forEachBatch(within box: BBox, _ body: (Batch) throws(FlatGeobufProblem) -> Void) throws(FlatGeobufProblem) -> Bool {
        guard hasSpatialIndex else { return false }
        let index = FlatGeobufIndex(featureCount: Int(header.featuresCount), nodeSize: 16)
        let indexStart = featuresOffset - index.nodeCount * FlatGeobufIndex.nodeBytes
        let hits = try index.search(box, featureBytes: fileSize - featuresOffset) { (first: Int, count: Int) throws(FlatGeobufProblem) -> [UInt8] in
            try self.bytes(count * FlatGeobufIndex.nodeBytes, at: indexStart + first * FlatGeobufIndex.nodeBytes, what: "the spatial index")
        }
        var start = 0
        while start < hits.count {
            var end = start + 1
            // (A run ends at 8 MB: one read never grows with the file.)
            while end < hits.count, hits[end].index == hits[end - 1].index + 1, hits[end].offset - hits[start].offset < 8 << 20 { end += 1 }
            // The run's bytes: from its first feature's prefix to its last one's end.
            let from = featuresOffset + hits[start].offset, last = featuresOffset + hits[end - 1].offset
            guard from <= last, last + 4 <= fileSize else { throw .corrupt("spatial index: feature offset \(hits[end - 1].offset) outside the file") }
            let lastSize = Int(try bytes(4, at: last, what: "a feature's size").withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }.littleEndian)
            let length = last + 4 + lastSize - from
            guard last + 4 + lastSize <= fileSize else { throw .corrupt("feature \(hits[end - 1].index + 1) is cut short") }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(length, 1), alignment: 16)
            defer { buffer.deallocate() }
            guard try Self.readFully(fd, UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length]), at: from) == length else {
                throw .corrupt("file ends inside feature \(hits[start].index + 1)")
            }
            var ranges: [Range<Int>] = []
            for hit in hits[start..<end] {
                // Consecutive features lie end to end.
                let at = hit.offset - hits[start].offset
                guard at == (ranges.last?.upperBound ?? 0), at + 4 <= length else {
                    throw .corrupt("spatial index: feature \(hit.index + 1) is not where it says")
                }
                let size = Int(buffer.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
                guard at + 4 + size <= length else { throw .corrupt("feature \(hit.index + 1) is cut short") }
                ranges.append((at + 4)..<(at + 4 + size))
            }
            try body(Batch(bytes: UnsafeRawBufferPointer(buffer), features: ranges, firstIndex: hits[start].index,
                           indices: hits[start..<end].map(\.index)))
            start = end
        }
        return true
    }

    /// `count` bytes at `offset`, all of them.
    private func bytes(_ count: Int, at offset: Int, what: String) throws(FlatGeobufProblem) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 8)
        defer { buffer.deallocate() }
        guard try Self.readFully(fd, UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]), at: offset) == count else {
            throw .corrupt("file ends inside \(what)")
        }
        return Array(buffer[0..<count])
    }

    /// pread until `buffer` is full or the file ends; the byte count read.
    private static func readFully(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(FlatGeobufProblem) -> Int {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw .corrupt("read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }
}
