internal import CGEOS

/// An error GEOS reported, with GEOS's own message.
public struct GEOSError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let message: String
    public var description: String { "GEOS \(operation) failed: \(message)" }
}

/// One GEOS context, owned by one thread for the whole run (as shapely keeps one per thread).
/// The error buffer is reset before each call that can fail, so a message belongs to its call.
/// Not Sendable: each worker makes its own and never shares it.
package final class GEOSContext {
    let handle: GEOSContextHandle_t
    private let errorBox: ErrorBox

    final class ErrorBox {
        var message = ""
    }

    init() {
        guard let h = GEOS_init_r() else { fatalError("GEOS_init_r returned NULL (out of memory)") }
        handle = h
        errorBox = ErrorBox()
        let userdata = Unmanaged.passUnretained(errorBox).toOpaque()
        GEOSContext_setErrorMessageHandler_r(handle, { message, userdata in
            guard let userdata, let message else { return }
            Unmanaged<ErrorBox>.fromOpaque(userdata).takeUnretainedValue().message = String(cString: message)
        }, userdata)
    }

    deinit {
        GEOS_finish_r(handle)
    }

    func resetError() { errorBox.message = "" }

    func error(_ operation: String) -> GEOSError {
        GEOSError(operation: operation, message: errorBox.message.isEmpty ? "unknown error" : errorBox.message)
    }
}
