import AssociatePlugin
import BenchHosts

/// AssociatePlugin: reading and writing a property declared in an extension, beside the same operation
/// on a plain stored property of the same class.
func associateBenchmarks(service: Service) -> [Benchmark] {
  let hosts = (0..<16).map { _ in AssociateHost() }
  for host in hosts {
    host.plain = service
    host.associate = service
  }
  let plainRead = "plain stored property of the host"
  let plainWrite = "plain stored property of the host, write"
  return [
    Benchmark(.associated, plainRead) { n in readLoop(hosts, n) { $0.plain?.value ?? 0 } },
    Benchmark(.associated, "associated property (extension), read", vs: plainRead) { n in
      readLoop(hosts, n) { $0.associate?.value ?? 0 }
    },
    Benchmark(.associated, plainWrite) { n in
      for index in 0..<n { hosts[index & 15].plain = service }
      return n
    },
    Benchmark(.associated, "associated property (extension), write", vs: plainWrite, divisor: 20) { n in
      for index in 0..<n { hosts[index & 15].associate = service }
      return n
    },
  ]
}

/// What the associated storage holds after `owners` owners were created, given a value and dropped,
/// 10,000 alive at a time: the heap in use (the malloc-counting preload's live bytes; 0 without it) and the storage's own statistics.
struct AssociateChurnFigure {
  let owners: Int
  let heapBytesBefore: Int
  let heapBytesAfter: Int
  let liveOwnersAfter: Int
  let ownerCapacityAtPeak: Int
  let ownerCapacityAfter: Int

  static func measure(owners: Int, service: Service) -> AssociateChurnFigure {
    let before = MallocCounters.liveBytes
    var peak = 0
    for _ in 0..<max(owners / 10_000, 1) {
      var alive: [ChurnedOwner] = []
      alive.reserveCapacity(10_000)
      for _ in 0..<min(owners, 10_000) {
        let owner = ChurnedOwner()
        owner.cargo = service
        alive.append(owner)
      }
      peak = max(peak, Injection.associatedStorageStatistics.ownerCapacity)
    }
    let after = Injection.associatedStorageStatistics
    return AssociateChurnFigure(
      owners: owners, heapBytesBefore: before, heapBytesAfter: MallocCounters.liveBytes,
      liveOwnersAfter: after.liveOwners, ownerCapacityAtPeak: peak, ownerCapacityAfter: after.ownerCapacity)
  }

  func print() {
    Swift.print(
      "\nASSOCIATED STORAGE after \(owners) owners came and went (10,000 alive at a time): heap in use "
        + "\(heapBytesBefore) B before, \(heapBytesAfter) B after (\(heapBytesAfter - heapBytesBefore) B); "
        + "\(liveOwnersAfter) owners left in the tables; room for \(ownerCapacityAfter) owners "
        + "(\(ownerCapacityAtPeak) at the peak)")
  }
}
