/// A leaf column of the Parquet schema with its levels, as the reader needs it.
struct LeafColumn: Sendable {
    let index: Int
    let path: [String]
    let dottedPath: String
    let physicalType: ParquetPhysicalType
    let typeLength: Int
    let maxDefinitionLevel: Int
    let maxRepetitionLevel: Int
    let logicalType: ParquetLogicalType?
    let convertedType: Int32?
}

/// A column as seen by API users.
public struct ParquetColumnDescription: Sendable, Equatable {
    /// Dotted path (`bbox.xmin`).
    public var path: String
    public var pathComponents: [String]
    public var physicalType: ParquetPhysicalType
    public var logicalType: ParquetLogicalType?
    public var isNullable: Bool
    /// False for columns inside lists/maps (repetition level > 0), which this reader does not read.
    public var isReadable: Bool
    /// Kind of `ParquetValues` this column decodes to ("int64", "double", "string", "bool", "binary").
    public var valueKind: String
}

/// The flattened schema: leaf columns plus the set of group paths.
struct ParquetSchema: Sendable {
    var leaves: [LeafColumn] = []
    var groupPaths: Set<String> = []

    static func build(_ elements: [SchemaElement]) throws -> ParquetSchema {
        guard let root = elements.first else { throw DecodeError.metadata("empty schema") }
        var schema = ParquetSchema()
        var next = 1
        let rootChildren = Int(root.numChildren ?? 0)
        guard rootChildren >= 0, rootChildren <= elements.count - 1 else {
            throw DecodeError.metadata("schema root claims \(rootChildren) children")
        }
        for _ in 0..<rootChildren {
            try walk(elements, &next, parentPath: [], def: 0, rep: 0, depth: 1, into: &schema)
        }
        guard next == elements.count else {
            throw DecodeError.metadata("schema has \(elements.count - next) unattached elements")
        }
        return schema
    }

    private static func walk(_ elements: [SchemaElement], _ next: inout Int, parentPath: [String],
                             def: Int, rep: Int, depth: Int, into schema: inout ParquetSchema) throws {
        guard depth <= 64 else { throw DecodeError.metadata("schema nested too deeply") }
        guard next < elements.count else { throw DecodeError.metadata("schema element list ends early") }
        let e = elements[next]
        next += 1
        let path = parentPath + [e.name]
        var d = def, r = rep
        switch e.repetition ?? 0 {
        case 0: break
        case 1: d += 1
        case 2: d += 1; r += 1
        default: throw DecodeError.metadata("invalid repetition type \(e.repetition ?? -1) for \(path.joined(separator: "."))")
        }
        let children = Int(e.numChildren ?? 0)
        if children > 0 || e.type == nil {
            guard children >= 0, children <= elements.count - next else {
                throw DecodeError.metadata("schema group \(path.joined(separator: ".")) claims \(children) children")
            }
            schema.groupPaths.insert(path.joined(separator: "."))
            for _ in 0..<children {
                try walk(elements, &next, parentPath: path, def: d, rep: r, depth: depth + 1, into: &schema)
            }
        } else {
            guard let raw = e.type, let pt = ParquetPhysicalType(thrift: raw) else {
                throw DecodeError.metadata("unknown physical type \(e.type ?? -1) for \(path.joined(separator: "."))")
            }
            let tl = Int(e.typeLength ?? 0)
            if pt == .fixedLenByteArray && (tl <= 0 || tl > 1 << 20) {
                throw DecodeError.metadata("invalid FIXED_LEN_BYTE_ARRAY length \(tl) for \(path.joined(separator: "."))")
            }
            schema.leaves.append(LeafColumn(
                index: schema.leaves.count, path: path, dottedPath: path.joined(separator: "."),
                physicalType: pt, typeLength: tl, maxDefinitionLevel: d, maxRepetitionLevel: r,
                logicalType: e.logicalType, convertedType: e.convertedType))
        }
    }
}

extension LeafColumn {
    /// The value kind this column decodes to.
    var outputKind: OutputKind {
        switch physicalType {
        case .boolean: return .bool
        case .int32:
            if case let .integer(_, signed)? = logicalType, !signed { return .uint32 }
            if let c = convertedType, c == ConvertedType.uint8 || c == ConvertedType.uint16 || c == ConvertedType.uint32 { return .uint32 }
            return .int64
        case .int64: return .int64
        case .int96: return .unsupported
        case .float, .double: return .double
        case .byteArray:
            switch logicalType {
            case .string?, .enumeration?, .json?: return .string
            default: break
            }
            if let c = convertedType, c == ConvertedType.utf8 || c == ConvertedType.enumeration || c == ConvertedType.json { return .string }
            return .binary
        case .fixedLenByteArray:
            if case .float16? = logicalType, typeLength == 2 { return .float16 }
            return .binary
        }
    }

    var description: ParquetColumnDescription {
        let kind: String
        switch outputKind {
        case .bool: kind = "bool"
        case .int64, .uint32: kind = "int64"
        case .double, .float16: kind = "double"
        case .string: kind = "string"
        case .binary: kind = "binary"
        case .unsupported: kind = "unsupported"
        }
        return ParquetColumnDescription(
            path: dottedPath, pathComponents: path, physicalType: physicalType, logicalType: logicalType,
            isNullable: maxDefinitionLevel > 0,
            isReadable: maxRepetitionLevel == 0 && outputKind != .unsupported && maxDefinitionLevel <= 255,
            valueKind: kind)
    }
}

/// What a leaf column decodes to.
enum OutputKind: Equatable {
    case bool, int64, uint32, double, float16, string, binary, unsupported
}
