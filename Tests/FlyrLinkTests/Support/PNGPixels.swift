import CZlib
import Foundation

/// A PNG screenshot's pixels (8-bit RGB or RGBA, not interlaced: what Chromium writes), decoded
/// with the system zlib: IDAT inflated, each row unfiltered.
struct PNGPixels {
    let width: Int
    let height: Int
    /// RGB(A) rows, `bytesPerPixel` per pixel.
    let bytesPerPixel: Int
    private let data: [UInt8]

    struct Invalid: Error, CustomStringConvertible { let description: String }

    init(contentsOf path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count > 8, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { throw Invalid(description: "not a PNG") }
        func be32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        var i = 8, w = 0, h = 0, colorType = 0
        var idat: [UInt8] = []
        while i + 8 <= bytes.count {
            let length = be32(i)
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            let body = (i + 8)..<(i + 8 + length)
            if type == "IHDR" {
                w = be32(body.lowerBound); h = be32(body.lowerBound + 4)
                guard bytes[body.lowerBound + 8] == 8, bytes[body.lowerBound + 12] == 0 else { throw Invalid(description: "not 8-bit non-interlaced") }
                colorType = Int(bytes[body.lowerBound + 9])
            } else if type == "IDAT" {
                idat += bytes[body]
            }
            i = body.upperBound + 4
        }
        guard colorType == 2 || colorType == 6 else { throw Invalid(description: "colour type \(colorType)") }
        let bpp = colorType == 6 ? 4 : 3
        let stride = w * bpp
        var raw = [UInt8](repeating: 0, count: h * (stride + 1))
        var rawLength = uLongf(raw.count)
        let status = raw.withUnsafeMutableBufferPointer { out in
            idat.withUnsafeBufferPointer { src in uncompress(out.baseAddress, &rawLength, src.baseAddress, uLong(src.count)) }
        }
        guard status == Z_OK, Int(rawLength) == raw.count else { throw Invalid(description: "IDAT does not inflate (zlib \(status))") }
        var pixels = [UInt8](repeating: 0, count: h * stride)
        for y in 0..<h {
            let filter = raw[y * (stride + 1)]
            let src = y * (stride + 1) + 1, dst = y * stride
            for x in 0..<stride {
                let a = x >= bpp ? Int(pixels[dst + x - bpp]) : 0
                let b = y > 0 ? Int(pixels[dst - stride + x]) : 0
                let c = x >= bpp && y > 0 ? Int(pixels[dst - stride + x - bpp]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw Invalid(description: "filter \(filter)")
                }
                pixels[dst + x] = UInt8(truncatingIfNeeded: Int(raw[src + x]) + predictor)
            }
        }
        width = w
        height = h
        bytesPerPixel = bpp
        data = pixels
    }

    /// The pixel at (x, y) as 0xRRGGBB.
    func rgb(_ x: Int, _ y: Int) -> Int {
        let k = (y * width + x) * bytesPerPixel
        return Int(data[k]) << 16 | Int(data[k + 1]) << 8 | Int(data[k + 2])
    }

    /// How many pixels have each colour.
    func histogram() -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for y in 0..<height { for x in 0..<width { counts[rgb(x, y), default: 0] += 1 } }
        return counts
    }
}
