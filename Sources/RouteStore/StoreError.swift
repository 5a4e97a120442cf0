/// A store failure, worded so the person at the terminal knows what to do next.
///
/// Privacy: no message ever carries a bound value. Every value reaches SQLite through a bound
/// parameter, so the statement text (`sql`) is the template with `?` placeholders, and
/// SQLite's own messages name tables, columns and constraints, never the values that broke
/// them. The store's path is included (the user typed it); a coordinate never is.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
  /// What went wrong, in the terms a user can act on.
  public enum Kind: Sendable, Hashable {
    /// The file exists but is not an SQLite database.
    case notADatabase
    /// An SQLite database that is not a routemiles store (it holds other tables and was never
    /// marked as one); refused rather than written into.
    case notARouteStore
    /// The file or its directory cannot be written (permissions, a read-only file system, or a
    /// store opened read-only).
    case readOnly
    /// Another connection holds the write lock longer than the busy timeout.
    case busy
    /// The store was written by a newer build, whose schema this build does not know.
    case schemaFromTheFuture(found: Int, supported: Int)
    /// The file cannot be opened or created at all (for example its directory does not exist).
    case cannotOpen
    /// No file at the path, where one must exist (a listing, a deletion): nothing is created.
    case noSuchStore
    /// The path is a directory, not a store file.
    case isADirectory
    /// The file exists but the process may not read it.
    case unreadable
    /// The file is damaged.
    case corrupt
    /// The disk (or a size limit) is full.
    case full
    /// A sample SQLite cannot hold: a NaN timestamp, latitude or longitude (SQLite stores NaN as
    /// NULL). The index is the sample's position in the batch, never its value.
    case unstorableSample(index: Int)
    /// No shift with this ID.
    case noSuchShift(ShiftID)
    /// A row in the store that this build cannot read (for example an unknown shift status).
    case unreadableRow
    /// A constraint refused a write (for example samples for a shift that does not exist).
    case constraint
    /// Anything else SQLite reported.
    case other
  }

  public var kind: Kind
  /// SQLite's extended result code, or 0 when the error did not come from SQLite.
  public var code: Int32
  /// SQLite's message for `code` (`sqlite3_errmsg`), if any.
  public var sqliteMessage: String?
  /// The statement's text as written in this module (placeholders, never values), if any.
  public var sql: String?
  /// The store's path, if known.
  public var path: String?
  /// The operating system's error number behind an open failure, if SQLite recorded one.
  public var systemErrno: Int32

  public init(
    _ kind: Kind, code: Int32 = 0, sqliteMessage: String? = nil, sql: String? = nil,
    path: String? = nil, systemErrno: Int32 = 0
  ) {
    self.kind = kind
    self.code = code
    self.sqliteMessage = sqliteMessage
    self.sql = sql
    self.path = path
    self.systemErrno = systemErrno
  }

  /// The human sentence, then SQLite's code and message in brackets.
  public var description: String {
    var text = sentence
    if code != 0 {
      text += " (SQLite \(code)"
      if let sqliteMessage, !sqliteMessage.isEmpty { text += ": \(sqliteMessage)" }
      text += ")"
    }
    return text
  }

  /// `description` plus the statement text, for bug reports.
  public var debugDescription: String {
    guard let sql else { return description }
    return description + " [statement: \(sql)]"
  }

  var subject: String { path.map { "the store \($0)" } ?? "the store" }

  var sentence: String {
    switch kind {
    case .notADatabase:
      return "\(subject) is not a routemiles store: the file is not an SQLite database"
    case .notARouteStore:
      return "\(subject) is an SQLite database of some other program, not a routemiles store; "
        + "choose another path"
    case .readOnly:
      return "cannot write to \(subject): the file or its directory is read-only"
    case .busy:
      return "\(subject) is locked by another process writing to it; try again when it has finished"
    case .schemaFromTheFuture(let found, let supported):
      return "\(subject) was written by a newer version of routemiles (store schema \(found); "
        + "this build knows up to \(supported)); upgrade routemiles to open it"
    case .cannotOpen:
      switch systemErrno {
      case 2: return "cannot open \(subject): its directory does not exist"
      case 21: return "cannot open \(subject): it is a directory"
      default: return "cannot open \(subject): check the path and its directory"
      }
    case .noSuchStore:
      return "\(subject) does not exist (no such file); `routemiles import --store \(path ?? "PATH") FILE` creates it"
    case .isADirectory:
      return "\(subject) is a directory, not a store file; give the path of a store file"
    case .unreadable:
      return "cannot read \(subject): permission denied"
    case .corrupt:
      return "\(subject) is damaged (its file is corrupt); restore it from a copy"
    case .full:
      return "cannot write to \(subject): the disk is full"
    case .unstorableSample(let index):
      return "sample \(index + 1) of the batch has a NaN timestamp or coordinate, which the store "
        + "cannot hold; the batch was not written"
    case .noSuchShift(let id):
      return "there is no shift \(id.rawValue) in \(subject)"
    case .unreadableRow:
      return "\(subject) holds a row this version of routemiles cannot read"
    case .constraint:
      return "\(subject) refused the write"
    case .other:
      return "\(subject) reported an error"
    }
  }
}
