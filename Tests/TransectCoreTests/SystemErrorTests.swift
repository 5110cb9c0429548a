#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TransectCore

@Suite struct SystemErrorTests {
    @Test("errno values read as the C library words them, lower-cased")
    func wording() {
        #expect(SystemError.text(ENOENT) == "no such file or directory")
        #expect(SystemError.text(EACCES) == "permission denied")
        #expect(SystemError.text(EISDIR) == "is a directory")
    }

    @Test("without an argument, the errno a failed call just set")
    func currentErrno() {
        let fd = open("/nonexistent-transect-directory/file", O_RDONLY)
        #expect(fd == -1)
        #expect(SystemError.text() == "no such file or directory")
        let dir = mkdir("/", 0o755)
        #expect(dir == -1)
        #expect(SystemError.text() == "file exists")
    }
}
