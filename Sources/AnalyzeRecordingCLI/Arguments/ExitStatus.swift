/// Exit statuses, following sysexits(3) for failures.
public enum ExitStatus: Int32, Sendable {
    /// The capture is clean / the command did its job.
    case success = 0
    /// The command ran and found what a CI job must act on.
    case findings = 1
    /// EX_USAGE: the command line was wrong.
    case usage = 64
    /// EX_DATAERR: the input is not a usable recording or log.
    case dataError = 65
    /// EX_NOINPUT: the input is missing or unreadable.
    case noInput = 66
    /// EX_UNAVAILABLE: something this build needs is missing (e.g. an encoder).
    case unavailable = 69
    /// EX_SOFTWARE: an internal error.
    case software = 70
    /// EX_CANTCREAT: an output file cannot be written.
    case cannotCreate = 73
    /// EX_IOERR: standard output or error could not be written.
    case ioError = 74
}
