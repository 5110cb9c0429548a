#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TransectSupport

@Suite struct SystemErrorTests {
    @Test("errno values read as the C library words them, lower-cased")
    func wording() {
        #expect(SystemError.text(ENOENT) == "no such file or directory")
        #expect(SystemError.text(EACCES) == "permission denied")
        #expect(SystemError.text(EISDIR) == "is a directory")
    }

    @Test("the errno a failed call just set is held and worded")
    func currentErrno() {
        #expect(throws: SystemError(code: ENOENT)) { try SystemError.call { open("/nonexistent-transect-directory/file", O_RDONLY) } }
        #expect(SystemError(code: ENOENT).text == "no such file or directory")
        #expect(throws: SystemError(code: EEXIST)) { try SystemError.call { mkdir("/", 0o755) } }
        #expect(SystemError(code: EEXIST).text == "file exists")
    }
}

@Suite struct SystemCallTests {
    @Test("a call that succeeds gives its value back")
    func value() throws {
        let fd = try SystemError.call { open("/", O_RDONLY | O_DIRECTORY) }
        #expect(fd >= 0)
        try SystemError.call { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 3)
        let fds = try pipeEnds()
        defer {
            close(fds.read)
            close(fds.write)
        }
        let written = try SystemError.call { bytes.withUnsafeBytes { write(fds.write, $0.baseAddress, 3) } }
        #expect(written == 3)
        let got = try SystemError.call { bytes.withUnsafeMutableBytes { read(fds.read, $0.baseAddress, 3) } }
        #expect(got == 3)
        let file = try SystemError.call { fopen("/dev/null", "r") }
        fclose(file)
        try SystemError.check { true }
    }

    @Test("a failing call throws the errno it set, worded by text")
    func failure() {
        let missing = "/nonexistent-transect-directory/file"
        #expect(throws: SystemError(code: ENOENT)) { try SystemError.call { open(missing, O_RDONLY) } }
        #expect(throws: SystemError(code: EEXIST)) { try SystemError.call { mkdir("/", 0o755) } }
        #expect(throws: SystemError(code: EBADF)) { try SystemError.call { read(-1, nil, 0) } }
        #expect(throws: SystemError(code: ENOENT)) { try SystemError.call { fopen(missing, "r") } }
        #expect(throws: SystemError(code: ENOENT)) { try SystemError.call { realpath(missing, nil) } }
        do {
            try SystemError.call { open(missing, O_RDONLY) }
            Issue.record("open of a missing path succeeded")
        } catch {
            #expect(error.code == ENOENT)
            #expect(error.text == "no such file or directory")
        }
    }

    @Test("a check stated as a Bool throws the errno its failed call left")
    func succeeds() {
        #expect(throws: SystemError(code: ENOTDIR)) {
            try SystemError.check { open("/dev/null/file", O_RDONLY) != -1 }
        }
    }

    @Test("the short wording of track files: two codes of their own, the rest as text")
    func briefText() {
        #expect(SystemError(code: ENOENT).briefText == "no such file")
        #expect(SystemError(code: EACCES).briefText == "not readable")
        #expect(SystemError(code: EISDIR).briefText == "is a directory")
        #expect(SystemError(code: ENOENT).text == "no such file or directory")
    }

    @Test("EINTR runs the call again when asked, and is thrown when not")
    func interrupts() throws {
        var calls = 0
        let value = try SystemError.call(retryingInterrupts: true) { () -> Int32 in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(value == 7)
        #expect(calls == 3)

        var reads = 0
        let count = try SystemError.call(retryingInterrupts: true) { () -> Int in
            reads += 1
            if reads == 1 {
                errno = EINTR
                return -1
            }
            return 5
        }
        #expect(count == 5)
        #expect(reads == 2)

        calls = 0
        #expect(throws: SystemError(code: EINTR)) {
            try SystemError.call { () -> Int32 in
                calls += 1
                errno = EINTR
                return -1
            }
        }
        #expect(calls == 1)
    }

    private func pipeEnds() throws(SystemError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        try SystemError.call { pipe(&fds) }
        return (fds[0], fds[1])
    }
}
