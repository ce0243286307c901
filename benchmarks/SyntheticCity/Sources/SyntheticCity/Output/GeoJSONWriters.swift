/// Streams an RFC 7946 FeatureCollection, one Feature per line.
class FeatureCollectionWriter {
    let out: BufferedFileWriter
    let projection: LocalProjection
    private var first = true

    init(path: String, projection: LocalProjection) throws {
        out = try BufferedFileWriter(path: path)
        self.projection = projection
        try out.write("{\"type\":\"FeatureCollection\",\"features\":[")
    }

    func beginFeature() throws {
        try out.write(first ? "\n" : ",\n")
        first = false
    }

    /// Coordinates are printed with 8 decimals (about 1 mm).
    func position(_ p: Point) throws {
        try out.byte(UInt8(ascii: "["))
        try out.fixed(projection.lon(p.x), decimals: 8)
        try out.byte(UInt8(ascii: ","))
        try out.fixed(projection.lat(p.y), decimals: 8)
        try out.byte(UInt8(ascii: "]"))
    }

    func close() throws {
        try out.write("\n]}\n")
        try out.close()
    }
}

final class BuildingsWriter: FeatureCollectionWriter {
    func write(_ b: SyntheticBuilding) throws {
        try beginFeature()
        try out.write("{\"type\":\"Feature\",\"properties\":{\"id\":\"")
        try out.identifier(prefix: UInt8(ascii: "b"), b.index)
        try out.write("\",\"height\":")
        try out.fixed(b.height, decimals: 1)
        try out.write(",\"levels\":")
        try out.integer(b.levels)
        try out.write(",\"kind\":\"")
        try out.write(b.kind.rawValue)
        try out.write("\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[")
        for p in b.ring {
            try position(p)
            try out.byte(UInt8(ascii: ","))
        }
        try position(b.ring[0])  // GeoJSON rings are closed
        try out.write("]]}}")
    }
}

final class AddressesWriter: FeatureCollectionWriter {
    func write(_ a: SyntheticAddress) throws {
        try beginFeature()
        try out.write("{\"type\":\"Feature\",\"properties\":{\"id\":\"")
        try out.identifier(prefix: UInt8(ascii: "a"), a.index)
        try out.write("\",\"house_number\":\"")
        try out.integer(a.houseNumber)
        try out.write("\",\"street_name\":")
        try out.jsonString(a.streetName)
        try out.write(",\"unit\":")
        try out.jsonString(a.unit)
        try out.write(",\"postal_code\":")
        try out.jsonString(a.postalCode)
        try out.write(",\"locality\":")
        try out.jsonString(a.locality)
        try out.write("},\"geometry\":{\"type\":\"Point\",\"coordinates\":")
        try position(a.point)
        try out.write("}}")
    }
}

/// truth.csv: address_id,building_id,kind,placement,unit_index,units_in_row
final class TruthWriter {
    private let out: BufferedFileWriter

    init(path: String) throws {
        out = try BufferedFileWriter(path: path)
        try out.write("address_id,building_id,kind,placement,unit_index,units_in_row\n")
    }

    func write(_ a: SyntheticAddress) throws {
        try out.identifier(prefix: UInt8(ascii: "a"), a.index)
        try out.byte(UInt8(ascii: ","))
        if let b = a.truth.buildingIndex { try out.identifier(prefix: UInt8(ascii: "b"), b) }
        try out.byte(UInt8(ascii: ","))
        try out.write(a.truth.kind.rawValue)
        try out.byte(UInt8(ascii: ","))
        try out.write(a.truth.placement.rawValue)
        try out.byte(UInt8(ascii: ","))
        if let i = a.truth.unitIndex { try out.integer(i) }
        try out.byte(UInt8(ascii: ","))
        if let n = a.truth.unitsInRow { try out.integer(n) }
        try out.byte(UInt8(ascii: "\n"))
    }

    func close() throws { try out.close() }
}
