import Foundation
import Testing
import TransectSupport
import TransectTestSupport

@Suite struct SHA256Tests {
    /// The engines this processor runs: the portable one always, the hardware one where CPUID
    /// reports the SHA extensions.
    static let engines: [SHA256.Engine] = SHA256.hardwareAvailable ? [.portable, .hardware] : [.portable]

    static func hex(_ text: String, _ engine: SHA256.Engine) -> String {
        var hash = SHA256(engine: engine)
        hash.update(Array(text.utf8))
        return hash.hexDigest
    }

    @Test("the FIPS 180-4 example messages give the published digests", arguments: engines)
    func vectors(engine: SHA256.Engine) {
        #expect(Self.hex("", engine) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex("abc", engine) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", engine)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            Self.hex(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                engine) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        var million = SHA256(engine: engine)
        let a = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { million.update(a) }
        #expect(million.hexDigest == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("the default engine is the hardware one exactly where CPUID reports the SHA extensions")
    func defaultEngine() {
        #expect(SHA256().engine == (SHA256.hardwareAvailable ? .hardware : .portable))
    }

    @Test("updates in pieces of any size give the digest of the whole", arguments: engines)
    func pieces(engine: SHA256.Engine) {
        var random = SeededRandom(seed: 13)
        let bytes = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &random) }
        var whole = SHA256(engine: engine)
        whole.update(bytes)
        for size in [1, 3, 55, 56, 63, 64, 65, 127, 999] {
            var split = SHA256(engine: engine)
            var start = 0
            while start < bytes.count {
                let end = min(start + size, bytes.count)
                split.update(Array(bytes[start..<end]))
                start = end
            }
            #expect(split.hexDigest == whole.hexDigest, "pieces of \(size)")
        }
    }

    /// Every length from 0 to 300 bytes (each padding case, one to five blocks) and 150 seeded
    /// lengths up to 10,000.
    static let lengths: [Int] = {
        var random = SeededRandom(seed: 29)
        return Array(0...300) + (0..<150).map { _ in Int.random(in: 301...10_000, using: &random) } + [10_000]
    }()

    @Test(
        "the hardware engine gives the portable engine's digest, bit for bit, for lengths 0 to 10,000",
        .enabled(if: SHA256.hardwareAvailable, "this processor has no SHA extensions"))
    func hardwareEqualsPortable() {
        var random = SeededRandom(seed: 31)
        let bytes = (0..<10_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        for length in Self.lengths {
            var portable = SHA256(engine: .portable)
            var hardware = SHA256(engine: .hardware)
            portable.update(Array(bytes[0..<length]))
            hardware.update(Array(bytes[0..<length]))
            #expect(hardware.digest == portable.digest, "\(length) bytes")
        }
    }

    @Test(
        "the hardware engine streamed in pieces that cut blocks anywhere gives the portable digest of the whole",
        .enabled(if: SHA256.hardwareAvailable, "this processor has no SHA extensions"))
    func hardwareStreamsAcrossBlocks() {
        var random = SeededRandom(seed: 37)
        let bytes = (0..<10_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        var reference = SHA256(engine: .portable)
        reference.update(bytes)
        for trial in 0..<40 {
            // Cuts at random places: pieces from empty to several blocks, so updates start and
            // end inside blocks, on their edges, and span many at once.
            var hardware = SHA256(engine: .hardware)
            var start = 0
            while start < bytes.count {
                let end = min(start + Int.random(in: 0...(trial % 2 == 0 ? 70 : 700), using: &random), bytes.count)
                bytes.withUnsafeBytes { hardware.update(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
                start = end
            }
            #expect(hardware.digest == reference.digest, "trial \(trial)")
        }
    }

    @Test("a file's digest is sha256sum's", arguments: [0, 1, 55, 64, 1000, 3_000_001])
    func file(size: Int) throws {
        var random = SeededRandom(seed: UInt64(size) + 1)
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
        let path = NSTemporaryDirectory() + "sha256-\(getpid())-\(size).bin"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let expected = try #require(printed.split(separator: " ").first.map(String.init))
        #expect(try SHA256.hexDigest(ofFile: path) == expected)
    }

    @Test("a missing file throws its errno")
    func missing() {
        #expect(throws: SystemError(code: ENOENT)) { try SHA256.hexDigest(ofFile: "/nonexistent-transect-directory/x") }
    }
}

@Suite struct ShardTests {
    @Test("shards cover the rows in order, each row once, where ⌊(r − 1)·N/R⌋ + 1 puts it")
    func partition() {
        for total in [0, 1, 2, 3, 6, 7, 10, 2000, 2001] {
            for count in [1, 2, 3, 7, 16] {
                var next = 1
                for index in 1...count {
                    guard let rows = Shard(index: index, count: count).rows(of: total) else { continue }
                    #expect(rows.lowerBound == next)
                    for r in [rows.lowerBound, rows.upperBound] { #expect((r - 1) * count / total + 1 == index) }
                    next = rows.upperBound + 1
                }
                #expect(next == total + 1, "\(total) rows in \(count) shards")
            }
        }
    }

    @Test("shards of counts and row totals near Int.max place their rows without overflow")
    func extremes() {
        let most = Int.max
        #expect(Shard(index: most, count: most).rows(of: most) == most...most)
        #expect(Shard(index: 1, count: most).rows(of: most) == 1...1)
        #expect(Shard(index: 1, count: most).rows(of: 1990) == 1...1)
        #expect(Shard(index: 2, count: most).rows(of: 1990) == nil)
        #expect(Shard(index: most - 1, count: most).rows(of: 1990) == nil)
        // The last row lands in shard ⌊1989·N/1990⌋ + 1, well before the last of N shards.
        #expect(Shard(index: most, count: most).rows(of: 1990) == nil)
        #expect(Shard(index: 9_218_737_176_534_748_282, count: most).rows(of: 1990) == 1990...1990)
        #expect(Shard(index: 9_218_737_176_534_748_281, count: most).rows(of: 1990) == nil)
        #expect(Shard(index: 1, count: 2).rows(of: most) == 1...(most / 2 + 1))
        #expect(Shard(index: 2, count: 2).rows(of: most) == (most / 2 + 2)...most)
        #expect(Shard(index: 3, count: 3).rows(of: 0) == nil)
        #expect(Shard(index: 1, count: 1).rows(of: -5) == nil)
    }
}
