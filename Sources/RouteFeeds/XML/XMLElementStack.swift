/// One open element: enough to check its closing tag and to name it in an error.
struct XMLOpenElement<Role: XMLRole> {
  /// The hash of the whole qualified name (`XMLName.mix`), compared with the closing tag's.
  var nameHash: UInt64
  /// The first eight bytes of the local name, packed (see `XMLName`).
  var localPrefix: UInt64
  var localLength: Int
  /// The line the start tag begins on.
  var line: Int
  var role: Role
  /// The role of the element it is in, so closing it restores the scanner's view of the
  /// innermost role without reading the stack again.
  var parentRole = Role.skipped

  var displayName: String { XMLName.display(prefix: localPrefix, length: localLength) }
}

/// The open elements, innermost last, without recursion and in bounded memory.
///
/// Only the outermost `trackedDepth` levels are remembered (40 bytes each, so at most 160 KB);
/// deeper levels are only counted. Everything a format reader needs sits at a shallow depth
/// (GPX: 6 or less; TCX: 7; KML nests folders, rarely past a few dozen), so a
/// deeper element is always inside a skipped subtree; the price of the bound is that closing
/// tags deeper than `trackedDepth` are not checked against their start tags. A million nested
/// elements therefore cost a counter, not a million stack frames or a million names.
///
/// Pushes and pops are plain stores and loads into storage the scanner makes unique once per
/// chunk (`prepareForWriting`), instead of an array's uniqueness and bounds checks per element.
struct XMLElementStack<Role: XMLRole> {
  static var trackedDepth: Int { 4096 }

  /// How many elements are open.
  private(set) var depth = 0
  /// The innermost open element's role (`.skipped` when none is open, or when it lies deeper
  /// than `trackedDepth`, which only a skipped subtree can).
  private(set) var topRole = Role.skipped
  private var storage = Storage(capacity: 32)

  /// Call before pushing within a mutation of the owner, so a copy of the reader made earlier
  /// keeps its own elements.
  ///
  /// - Complexity: O(1), or O(*depth*) right after the reader was copied.
  @inline(__always) mutating func prepareForWriting() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(count: min(depth, Self.trackedDepth)) }
  }

  /// The innermost open element, if it is within the tracked depth.
  ///
  /// - Complexity: O(1).
  @inline(__always) var top: XMLOpenElement<Role>? {
    depth > 0 && depth <= Self.trackedDepth ? storage.elements[depth - 1] : nil
  }

  /// Levels the storage can hold now (it grows by doubling, never past `trackedDepth`).
  var storageCapacity: Int { storage.capacity }

  /// Requires `prepareForWriting()` since the owner's mutation began.
  ///
  /// - Complexity: amortised O(1).
  @inline(__always) mutating func push(_ element: XMLOpenElement<Role>) {
    var element = element
    element.parentRole = topRole
    if depth < storage.capacity {
      storage.elements[depth] = element
    } else if depth < Self.trackedDepth {
      storage = storage.copy(count: depth, capacity: min(Self.trackedDepth, storage.capacity * 2))
      storage.elements[depth] = element
    }
    depth += 1
    topRole = depth <= Self.trackedDepth ? element.role : .skipped
  }

  /// Closes the innermost element; returns it when it was tracked.
  ///
  /// - Complexity: O(1).
  @inline(__always) mutating func pop() -> XMLOpenElement<Role>? {
    defer { depth -= 1 }
    guard depth <= Self.trackedDepth else { return nil }
    let element = storage.elements[depth - 1]
    topRole = element.parentRole
    return element
  }

  /// Memory for the tracked levels; `XMLOpenElement` is a trivial type, so no per-element
  /// initialisation or destruction is needed.
  private final class Storage {
    let elements: UnsafeMutablePointer<XMLOpenElement<Role>>
    let capacity: Int

    init(capacity: Int) {
      self.capacity = capacity
      elements = .allocate(capacity: capacity)
    }

    deinit { elements.deallocate() }

    func copy(count: Int, capacity: Int? = nil) -> Storage {
      let copy = Storage(capacity: capacity ?? self.capacity)
      copy.elements.initialize(from: elements, count: count)
      return copy
    }
  }
}
