import Foundation
import GeoParquet
import XCTest
@testable import FlyrLink

/// GeoParquet read over HTTP range requests and from S3, against real servers on loopback:
/// Tests/Support/range_server.py (Range support, a request log, injected 503s) and moto's S3
/// server with signatures checked (Tests/Support/s3_server.py).
final class RemoteSourceTests: XCTestCase {
    static let campaign = "0c5c3f5e-3b0a-5d0e-8f57-6b2a1d4c9e10"
    var city: String { TestPaths.fixture("city2k") }

    /// Runs flyr-link on the city2k GeoParquet at `base` (a directory or a URL prefix).
    func run(_ base: String, out: URL, territory: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        var args = ["run", "--buildings", "\(base)/buildings.snappy.parquet", "--addresses", "\(base)/addresses.zstd.parquet",
                    "--out", out.path, "--campaign", Self.campaign, "--quiet"]
        if let territory { args += ["--territory", territory] }
        return try ProcessRunner.flyrLink(args, environment: environment)
    }

    func assertSameOutputs(_ a: URL, _ b: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        // report.json and report.html name the sources (and the bytes fetched): the data files must agree.
        for name in RunWriter.files where name != "report.json" && name != ReportFile.name {
            let x = try Data(contentsOf: a.appendingPathComponent(name)), y = try Data(contentsOf: b.appendingPathComponent(name))
            XCTAssertFalse(x.isEmpty, name, file: file, line: line)
            XCTAssertEqual(x, y, "\(name) differs between the local and the remote run", file: file, line: line)
        }
    }

    func report(_ out: URL) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
    }

    func parquetSection(_ out: URL, _ role: String) throws -> [String: Int] {
        let inputs = try XCTUnwrap(try report(out)["inputs"] as? [String: Any])
        let input = try XCTUnwrap(inputs[role] as? [String: Any])
        return try XCTUnwrap(input["parquet"] as? [String: Int])
    }

    /// (a) A run over HTTP writes the same bytes as the same run on the local files.
    func testRunOverHTTPGivesTheLocalOutputs() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let server = try LoopbackServer.rangeServer(root: city, dir: dir, test: self)
        let local = try run(city, out: dir.appendingPathComponent("local"))
        XCTAssertEqual(local.status, 0, local.stderr)
        let remote = try run(server.base, out: dir.appendingPathComponent("remote"))
        XCTAssertEqual(remote.status, 0, remote.stderr)
        try assertSameOutputs(dir.appendingPathComponent("local"), dir.appendingPathComponent("remote"))
        let links = try String(contentsOf: dir.appendingPathComponent("remote/links.csv"), encoding: .utf8)
        XCTAssertGreaterThan(links.split(separator: "\n").count, 1900)
        // The report counts what came over the wire, as the server logged it.
        let logged = LoggedRequest.read(server.log)
        for (role, name) in [("buildings", "buildings.snappy.parquet"), ("addresses", "addresses.zstd.parquet")] {
            let p = try parquetSection(dir.appendingPathComponent("remote"), role)
            let mine = logged.filter { $0.path == "/\(name)" }
            XCTAssertEqual(p["bytes_fetched"], mine.reduce(0) { $0 + $1.bytes }, role)
            XCTAssertEqual(p["requests"], mine.count, role)
            XCTAssertTrue(mine.allSatisfy { $0.status == 206 }, "every request a range request")
        }
        // /vsicurl/ names the same object.
        let vsi = try run("/vsicurl/" + server.base, out: dir.appendingPathComponent("vsicurl"))
        XCTAssertEqual(vsi.status, 0, vsi.stderr)
        try assertSameOutputs(dir.appendingPathComponent("local"), dir.appendingPathComponent("vsicurl"))
    }

    /// (b) With a territory, only the footer and the row groups it needs come over the wire:
    /// no more than 1.2× the compressed bytes of those row groups (from the file's metadata), and
    /// past the footer's three requests (last 8 bytes, magic, metadata) no more than those bytes.
    /// The territory needs 2 of the fixture's 4 (5) row groups: its footer (7.5 KB for the
    /// addresses) is a third of one 24 KB row group, so with a single group the footer alone would
    /// pass the 1.2× bound; benchmarks/README.md measures the bound on a 1M-building file.
    func testTerritoryFetchesOnlyTheRowGroupsItNeeds() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let server = try LoopbackServer.rangeServer(root: city, dir: dir, test: self)
        let box = BoundingBox(xmin: 10.199, ymin: 56.149, xmax: 10.207, ymax: 56.155)
        let territory = dir.appendingPathComponent("t.geojson")
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[10.199,56.149],[10.207,56.149],[10.207,56.155],[10.199,56.155],[10.199,56.149]]]}}]}"#
            .write(to: territory, atomically: true, encoding: .utf8)
        let local = try run(city, out: dir.appendingPathComponent("local"), territory: territory.path)
        XCTAssertEqual(local.status, 0, local.stderr)
        let remote = try run(server.base, out: dir.appendingPathComponent("remote"), territory: territory.path)
        XCTAssertEqual(remote.status, 0, remote.stderr)
        try assertSameOutputs(dir.appendingPathComponent("local"), dir.appendingPathComponent("remote"))
        let logged = LoggedRequest.read(server.log)
        for name in ["buildings.snappy.parquet", "addresses.zstd.parquet"] {
            let file = try GeoParquetFile(path: "\(city)/\(name)")
            let sizes = file.rowGroupCompressedBytes
            let needed = (0..<file.rowGroupCount).filter { file.rowGroupBoundingBox($0)?.intersects(box) ?? true }
            let neededBytes = needed.reduce(0) { $0 + sizes[$1] }
            XCTAssertLessThan(needed.count, file.rowGroupCount, "\(name): the territory needs only some row groups")
            XCTAssertGreaterThan(needed.count, 0, name)
            let requests = logged.filter { $0.path == "/\(name)" }
            let fetched = requests.reduce(0) { $0 + $1.bytes }
            XCTAssertLessThanOrEqual(Double(fetched), 1.2 * Double(neededBytes),
                                     "\(name): \(fetched) bytes fetched for \(needed.count) row groups of \(neededBytes) bytes")
            XCTAssertEqual(requests.prefix(2).map(\.range), ["bytes=-8", "bytes=0-3"], name)
            XCTAssertLessThanOrEqual(requests.dropFirst(3).reduce(0) { $0 + $1.bytes }, neededBytes, name)
            XCTAssertEqual(requests.count, 3 + needed.count, "\(name): one coalesced request per row group")
        }
    }

    /// (c) A missing object and a refused one: one line on stderr naming the URL and the status.
    func testNotFoundAndForbiddenAreOneLine() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let server = try LoopbackServer.rangeServer(root: city, dir: dir, test: self)
        for (url, status) in [("\(server.base)/missing.parquet", "HTTP 404 Not Found"),
                              ("\(server.base)/forbidden/buildings.snappy.parquet", "HTTP 403 Forbidden")] {
            let r = try ProcessRunner.flyrLink(["run", "--buildings", url, "--addresses", "\(city)/addresses.zstd.parquet",
                                                "--out", dir.appendingPathComponent("out").path])
            XCTAssertNotEqual(r.status, 0)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
            XCTAssertTrue(r.stderr.contains("buildings: \(url): \(status)"), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path))
        // A 404 is not retried: one request each.
        XCTAssertEqual(LoggedRequest.read(server.log).filter { $0.path == "/missing.parquet" }.count, 1)
    }

    /// `inspect` of the city's buildings through `server` succeeds; what the server logged.
    private func inspectSucceedsThrough(_ server: (base: String, log: URL)) throws -> [LoggedRequest] {
        let r = try ProcessRunner.flyrLink(["inspect", "\(server.base)/buildings.snappy.parquet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("features: 2000"), r.stdout)
        return LoggedRequest.read(server.log)
    }

    /// (d) A server that answers the first request with 503 is asked again, and the run succeeds.
    func testServiceUnavailableIsRetried() throws {
        let logged = try inspectSucceedsThrough(try LoopbackServer.rangeServer(root: city, dir: TestPaths.temporaryDirectory(self),
                                                                                failFirst: 1, test: self))
        XCTAssertEqual(logged.first?.status, 503)
        XCTAssertEqual(logged.dropFirst().first?.status, 206)
        XCTAssertEqual(logged.dropFirst().first?.range, logged.first?.range, "the same request again")
    }

    /// A connection closed without an answer (curl: empty reply) is tried again, like a 503.
    func testConnectionClosedWithoutAnswerIsRetried() throws {
        let logged = try inspectSucceedsThrough(try LoopbackServer.rangeServer(root: city, dir: TestPaths.temporaryDirectory(self),
                                                                                resetFirst: 2, test: self))
        XCTAssertEqual(logged.prefix(3).map(\.status), [0, 0, 206])
        XCTAssertEqual(Set(logged.prefix(3).map(\.range)), ["bytes=-8"], "the same request again")
    }

    /// A server that keeps failing: the run stops with one line after a few attempts.
    func testPersistentServerErrorIsOneLineAfterRetries() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let server = try LoopbackServer.rangeServer(root: city, dir: dir, failFirst: 1000, test: self)
        let r = try ProcessRunner.flyrLink(["inspect", "\(server.base)/buildings.snappy.parquet"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("HTTP 503 Service Unavailable (after \(HTTPRangeSource.attempts) attempts)"), r.stderr)
        XCTAssertEqual(LoggedRequest.read(server.log).count, HTTPRangeSource.attempts)
    }

    /// Every file of the GeoParquet corpus reads the same over HTTP as from disk: every row
    /// group, every readable column, the geometries.
    func testCorpusReadsOverHTTPAsFromDisk() throws {
        let corpus = try TestPaths.sharedData("geoparquet")
        let dir = TestPaths.temporaryDirectory(self)
        let server = try LoopbackServer.rangeServer(root: corpus, dir: dir, test: self)
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus).filter { $0.hasSuffix(".parquet") }.sorted()
        XCTAssertGreaterThan(names.count, 10)
        for name in names {
            let local = try GeoParquetFile(path: "\(corpus)/\(name)")
            let source = try HTTPRangeSource(try XCTUnwrap(RemoteLocation("\(server.base)/\(name)")))
            let remote = try GeoParquetFile(source: source, name: name)
            let columns = local.columns.filter(\.isReadable).map(\.path)
            let a = try local.readAll(columns: columns), b = try remote.readAll(columns: columns)
            XCTAssertEqual(a.batches.count, b.batches.count, name)
            for (x, y) in zip(a.batches, b.batches) {
                XCTAssertEqual(x.geometryWKB, y.geometryWKB, name)
                XCTAssertEqual(x.values, y.values, name)
            }
            XCTAssertEqual(a.stats, b.stats, name)
            XCTAssertLessThanOrEqual(source.bytesFetched, try FileManager.default.attributesOfItem(atPath: "\(corpus)/\(name)")[.size] as? Int ?? 0)
        }
    }

    /// The same run from an S3-protocol server (moto, signatures checked) with credentials from
    /// the AWS environment variables; a wrong secret key is one line.
    func testS3RunGivesTheLocalOutputsAndAWrongSecretIsOneLine() throws {
        let dir = TestPaths.temporaryDirectory(self)
        let env = try ProcessRunner.run("/bin/bash", [TestPaths.root.appendingPathComponent("Tests/Support/s3-server-env.sh").path])
        XCTAssertEqual(env.status, 0, env.stderr)
        let python = env.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let info = dir.appendingPathComponent("s3.json")
        // The buildings also as a partitioned dataset: two parts under a prefix, and a marker object.
        let parts = TestPaths.fixture("city2k-parts"), marker = dir.appendingPathComponent("_SUCCESS")
        _ = FileManager.default.createFile(atPath: marker.path, contents: Data())
        let server = try LoopbackServer(python: python, script: "s3_server.py",
                                        arguments: ["--info-file", info.path, "--bucket", "flyr-test",
                                                    "\(city)/buildings.snappy.parquet", "\(city)/addresses.zstd.parquet",
                                                    "city/theme=buildings/part-0.snappy.parquet=\(parts)/part-0.snappy.parquet",
                                                    "city/theme=buildings/part-1.snappy.parquet=\(parts)/part-1.snappy.parquet",
                                                    "city/theme=buildings/_SUCCESS=\(marker.path)"],
                                        infoFile: info, test: self)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(server.info.utf8)) as? [String: Any])
        let port = try XCTUnwrap(json["port"] as? Int)
        let key = try XCTUnwrap(json["access_key_id"] as? String), secret = try XCTUnwrap(json["secret_access_key"] as? String)
        var environment = ["AWS_ENDPOINT_URL": "http://127.0.0.1:\(port)", "AWS_ACCESS_KEY_ID": key,
                           "AWS_SECRET_ACCESS_KEY": secret, "AWS_REGION": "us-east-1", "AWS_SESSION_TOKEN": "",
                           "AWS_NO_SIGN_REQUEST": ""]
        let local = try run(city, out: dir.appendingPathComponent("local"))
        XCTAssertEqual(local.status, 0, local.stderr)
        let remote = try run("s3://flyr-test", out: dir.appendingPathComponent("s3"), environment: environment)
        XCTAssertEqual(remote.status, 0, remote.stderr)
        try assertSameOutputs(dir.appendingPathComponent("local"), dir.appendingPathComponent("s3"))
        XCTAssertGreaterThan(try parquetSection(dir.appendingPathComponent("s3"), "buildings")["bytes_fetched"] ?? 0, 0)

        // A prefix: its .parquet objects in key order, rows numbered through them: the same outputs.
        let partitioned = try ProcessRunner.flyrLink(["run", "--buildings", "s3://flyr-test/city/theme=buildings/",
                                                      "--addresses", "s3://flyr-test/addresses.zstd.parquet",
                                                      "--out", dir.appendingPathComponent("prefix").path, "--campaign", Self.campaign, "--quiet"],
                                                     environment: environment)
        XCTAssertEqual(partitioned.status, 0, partitioned.stderr)
        try assertSameOutputs(dir.appendingPathComponent("local"), dir.appendingPathComponent("prefix"))
        let p = try parquetSection(dir.appendingPathComponent("prefix"), "buildings")
        XCTAssertEqual(p["row_groups_total"], 4)
        XCTAssertEqual(p["rows_in_file"], 2000)
        let empty = try ProcessRunner.flyrLink(["inspect", "s3://flyr-test/nothing-here/"], environment: environment)
        XCTAssertNotEqual(empty.status, 0)
        XCTAssertTrue(empty.stderr.contains("s3://flyr-test/nothing-here/: no .parquet object under this prefix"), empty.stderr)

        environment["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        let refused = try run("/vsis3/flyr-test", out: dir.appendingPathComponent("refused"), environment: environment)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("/vsis3/flyr-test/"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("HTTP 403 Forbidden (SignatureDoesNotMatch"), refused.stderr)
    }

    /// SigV4 against AWS's published example (GET Object with a Range header, S3 API reference,
    /// "Signature Calculations for the Authorization Header").
    func testSigV4MatchesAWSExample() throws {
        let signer = S3Signer(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                              sessionToken: nil, region: "us-east-1")
        let headers = signer.headers(host: "examplebucket.s3.amazonaws.com", path: "/test.txt", range: "bytes=0-9",
                                     date: Date(timeIntervalSince1970: 1_369_353_600))   // 2013-05-24T00:00:00Z
        XCTAssertTrue(headers.contains("x-amz-date: 20130524T000000Z"), "\(headers)")
        XCTAssertTrue(headers.contains("Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"), "\(headers)")
    }

    func testRemoteLocationsAndS3Addressing() throws {
        XCTAssertEqual(RemoteLocation("https://example.org/a.parquet"), .http(url: "https://example.org/a.parquet"))
        XCTAssertEqual(RemoteLocation("/vsicurl/http://127.0.0.1:8/a.parquet"), .http(url: "http://127.0.0.1:8/a.parquet"))
        XCTAssertEqual(RemoteLocation("s3://bucket/dir/a.parquet"), .s3(bucket: "bucket", key: "dir/a.parquet"))
        XCTAssertEqual(RemoteLocation("/vsis3/bucket/dir/a.parquet"), .s3(bucket: "bucket", key: "dir/a.parquet"))
        XCTAssertEqual(RemoteLocation("s3://bucket"), .s3(bucket: "bucket", key: ""))
        XCTAssertTrue(RemoteLocation("s3://bucket/release/theme=buildings/")?.isPrefix ?? false)
        XCTAssertFalse(RemoteLocation("s3://bucket/release/a.parquet")?.isPrefix ?? true)
        XCTAssertTrue(SourceSpec.parse("s3://bucket/release/theme=buildings/").isGeoParquet)
        XCTAssertEqual(S3Signer.canonicalQuery([("prefix", "a/theme=b/"), ("list-type", "2")]), "list-type=2&prefix=a%2Ftheme%3Db%2F")
        XCTAssertEqual(S3ObjectList.elements("Key", in: "<Contents><Key>a&amp;b.parquet</Key></Contents><Contents><Key>c</Key></Contents>"),
                       ["a&b.parquet", "c"])
        XCTAssertNil(RemoteLocation("data/a.parquet"))
        XCTAssertNil(RemoteLocation("PG:dbname=x"))
        XCTAssertTrue(SourceSpec.parse("https://example.org/a.parquet?x=1").isGeoParquet)
        XCTAssertNil(SourceSpec.parse("s3://bucket/a.parquet").layer)
        let aws = try S3Configuration(environment: ["AWS_REGION": "us-west-2", "AWS_NO_SIGN_REQUEST": "YES"])
        XCTAssertNil(aws.signer)
        XCTAssertEqual(aws.request(bucket: "overturemaps-us-west-2", key: "release/theme=buildings/part-0.parquet").url,
                       "https://overturemaps-us-west-2.s3.us-west-2.amazonaws.com/release/theme%3Dbuildings/part-0.parquet")
        let local = try S3Configuration(environment: ["AWS_S3_ENDPOINT": "127.0.0.1:9000", "AWS_HTTPS": "NO",
                                                      "AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"])
        let target = local.request(bucket: "b", key: "k/x y.parquet")
        XCTAssertEqual(target.url, "http://127.0.0.1:9000/b/k/x%20y.parquet")
        XCTAssertEqual(target.host, "127.0.0.1:9000")
        XCTAssertNotNil(local.signer)
        XCTAssertThrowsError(try S3Configuration(environment: ["AWS_ACCESS_KEY_ID": "k"]))
    }
}
