import Glibc

/// A blocking client connection to another server (social providers over HTTP, SMTP relays): TCP with a
/// deadline over the whole exchange, optionally TLS from the start or after a protocol upgrade (STARTTLS),
/// always with the certificate checked against the host name.
public final class OutboundConnection {
    private let fd: Int32
    private let host: String
    private var transport: any OutboundTransport
    private let deadline: Double
    /// Bytes read past the last line handed out.
    private var buffered: [UInt8] = []
    private var closed = false

    /// Connects to `host:port` (TLS at once when `tls`); the whole exchange must end within `timeoutSeconds`.
    public init(host: String, port: Int, tls: Bool, timeoutSeconds: Int) throws {
        deadline = OutboundHTTP.monotonicSeconds() + Double(timeoutSeconds)
        fd = try OutboundHTTP.connect(host: host, port: port, deadline: deadline)
        self.host = host
        transport = PlainTransport(fd: fd)
        if tls {
            do { transport = try TLSClientTransport(fd: fd, host: host) } catch {
                Glibc.close(fd)
                closed = true
                throw error
            }
        }
    }

    deinit { close() }

    /// Switches to TLS (after the server agreed to STARTTLS); bytes already buffered are a protocol error.
    public func startTLS() throws {
        guard buffered.isEmpty else { throw OutboundHTTPError.malformedResponse }
        transport = try TLSClientTransport(fd: fd, host: host)
    }

    /// Sends every byte.
    public func write(_ bytes: [UInt8]) throws {
        try transport.writeAll(bytes, deadline: deadline)
    }

    /// The next line without its CRLF (or LF); throws at the end of the stream or past `maxBytes`.
    public func readLine(maxBytes: Int = 4096) throws -> String {
        while true {
            if let lf = buffered.firstIndex(of: 10) {
                var line = Array(buffered[0..<lf])
                buffered.removeFirst(lf + 1)
                if line.last == 13 { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard buffered.count <= maxBytes else { throw OutboundHTTPError.malformedResponse }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = try transport.read(&chunk, deadline: deadline)
            if n == 0 { throw OutboundHTTPError.connectionFailed("connection closed") }
            buffered.append(contentsOf: chunk[0..<n])
        }
    }

    /// Closes the connection (TLS state first).
    public func close() {
        guard !closed else { return }
        closed = true
        transport = PlainTransport(fd: fd)
        Glibc.close(fd)
    }
}
