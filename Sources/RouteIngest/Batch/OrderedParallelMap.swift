import Dispatch
import Synchronization

/// Runs `work` for indices 0..<count on `jobs` threads and hands each result to `deliver` on the
/// calling thread, in index order, as soon as it and every earlier one are done.
///
/// Order is what makes batch output deterministic whatever the scheduling; delivering as soon as
/// possible keeps output streaming and memory bounded by how far the fastest worker runs ahead
/// (at most `count`, typically a few results).
public func orderedParallelMap<Result: Sendable>(
  count: Int, jobs: Int,
  work: @escaping @Sendable (Int) -> Result,
  deliver: (Int, Result) -> Void
) {
  guard count > 0 else { return }
  let jobs = max(1, min(jobs, count))
  if jobs == 1 {
    for index in 0..<count { deliver(index, work(index)) }
    return
  }
  let shared = OrderedResults<Result>()
  let group = DispatchGroup()
  for _ in 0..<jobs {
    DispatchQueue.global().async(group: group) {
      while true {
        let index = shared.next.add(1, ordering: .relaxed).oldValue
        guard index < count else { return }
        let result = work(index)
        shared.results.withLock { $0[index] = result }
        shared.ready.signal()
      }
    }
  }
  var nextToDeliver = 0
  while nextToDeliver < count {
    let available = shared.results.withLock { $0.removeValue(forKey: nextToDeliver) }
    if let available {
      deliver(nextToDeliver, available)
      nextToDeliver += 1
    } else {
      shared.ready.wait()
    }
  }
  group.wait()
}

/// The state the workers of `orderedParallelMap` share.
private final class OrderedResults<Result: Sendable>: Sendable {
  let next = Atomic<Int>(0)
  let results = Mutex<[Int: Result]>([:])
  let ready = DispatchSemaphore(value: 0)
}
