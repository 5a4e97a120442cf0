/// Transactions: every batch is whole or absent.
///
/// Writes take the write lock up front (`BEGIN IMMEDIATE`), so a second writer waits for the
/// busy timeout at the start of its transaction instead of failing half-way through it (a
/// deferred transaction that later needs to write cannot wait in WAL mode).
extension Database {
  /// Opens a write transaction now. The replay tool pairs it with `rollback()` to discard a
  /// batch, or `commit()` to keep it.
  public func beginImmediate() throws {
    try execute("BEGIN IMMEDIATE")
  }

  public func commit() throws {
    try execute("COMMIT")
  }

  /// Discards everything since `beginImmediate()`.
  public func rollback() throws {
    try execute("ROLLBACK")
  }

  /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
  ///
  /// Inside a transaction the caller already opened, `body` runs in a savepoint instead, so it
  /// still succeeds or fails whole, and the caller's commit or rollback decides the rest.
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    if isInTransaction {
      try execute("SAVEPOINT routestore")
      do {
        let result = try body()
        try execute("RELEASE routestore")
        return result
      } catch {
        try? execute("ROLLBACK TO routestore")
        try? execute("RELEASE routestore")
        throw error
      }
    }
    try beginImmediate()
    do {
      let result = try body()
      try commit()
      return result
    } catch {
      if isInTransaction { try? rollback() }
      throw error
    }
  }
}
