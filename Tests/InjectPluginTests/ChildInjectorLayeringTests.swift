import Foundation
import InjectPlugin
import Synchronization
import Testing

private struct LayeredBadge: Sendable { let text: String }
private struct LayeredLater: Sendable { let tag: String }

/// A struct owner: it reads injections by type alone (type-keyed state, layered in scopes).
private struct LayeredStructHolder {
  @Inject var later: LayeredLater?
}

private let liveLayeredValues = Atomic<Int>(0)

private final class LayeredValue: Sendable {
  init() { liveLayeredValues.add(1, ordering: .relaxed) }
  deinit { liveLayeredValues.subtract(1, ordering: .relaxed) }
}

/// A child injector's type-keyed injections (what structs and statics read) are its own changes on top of
/// what lies beneath it, not a copy made at its first change; and a child that rebinds keeps no replaced
/// values. Each test's parent is an isolated scope of its own, so tests running in parallel do not meet.
@Suite struct ChildInjectorLayeringTests {
  @Test func aChildThatRebindsAgainAndAgainKeepsOnlyItsNewestValue() throws {
    try Injection.withIsolatedInjections {
      let child = try Injection.childInjector { _ in }
      try child.run {
        for _ in 0..<50 {
          let value = LayeredValue()
          try Injection.inject(LayeredValue.self).value(value)
        }
      }
      // A change beneath makes the child rebuild its type-keyed state from its own changes: no replaced value.
      try Injection.inject(LayeredBadge.self).value(LayeredBadge(text: "parent"))
      _ = try child.resolveAll(LayeredValue.self)
      #expect(liveLayeredValues.load(ordering: .relaxed) == 1)
      child.end()
      #expect(liveLayeredValues.load(ordering: .relaxed) == 0)
    }
  }

  @Test func aStructReadInAChildSeesTypesItsParentBindsAfterTheChildBoundOneByTypeAlone() throws {
    try Injection.withIsolatedInjections {
      let child = try Injection.childInjector { lets in
        try lets.inject(LayeredBadge.self).value(LayeredBadge(text: "child"))
      }
      try Injection.inject(LayeredLater.self).value(LayeredLater(tag: "parent"))
      #expect(child.run { LayeredStructHolder().later?.tag } == "parent")
    }
  }
}

private struct RacedOther: Sendable { let tag: String }
private struct RacedGrandchildTool: Sendable { let tag: String }
private struct RacedStructHost {
  @Inject var other: RacedOther?
}

/// A grandchild reading while its parent child writes: after the write returns, the grandchild reads the
/// new value, while other threads read in the grandchild. The race this guards (a read in the window
/// between a change's revision and its store marked a copy built on the old value as up to date) was seen
/// by review H53 in 2 of 10,000 rounds; this machine did not show it in 30,000, so the test is a weak guard
/// of that window and a plain guard of reads following writes across layers.
@Test func aGrandchildReadsItsParentsWriteOnceTheWriteReturned() throws {
  let child = try Injection.childInjector {
    try $0.inject(RacedGrandchildTool.self).value(RacedGrandchildTool(tag: "c"))
  }
  let grandchild = try child.childInjector { try $0.inject(LayeredBadge.self).value(LayeredBadge(text: "g")) }
  let stop = Atomic<Bool>(false)
  let readers = (0..<3).map { _ in
    Thread { while !stop.load(ordering: .relaxed) { _ = grandchild.run { RacedStructHost().other } } }
  }
  for reader in readers { reader.start() }
  defer { stop.store(true, ordering: .relaxed) }
  var stale = 0
  for round in 0..<3000 {
    _ = try child.run { try Injection.inject(RacedOther.self).value(RacedOther(tag: "\(round)")) }
    if grandchild.run({ RacedStructHost().other?.tag }) != "\(round)" { stale += 1 }
  }
  #expect(stale == 0)
}
