import Foundation
import InjectPlugin
import Testing

// Fills through new instances that need each other: `A.b`'s factory makes a `B` whose initializer reads
// its `a`, whose factory makes an `A` whose initializer reads its `b`… Before, the stack overflowed with no
// message (found by review H71); now the property whose fills nest too deep stops, naming the chain.

private final class FillCycleA: @unchecked Sendable {  // marked properties only
  @Inject var b: FillCycleB
}
private final class FillCycleB: @unchecked Sendable {  // marked properties only
  @Inject var a: FillCycleA
}

private final class OnceCycleA: @unchecked Sendable {  // marked properties only
  @Inject var b: OnceCycleB?
}
private final class OnceCycleB: @unchecked Sendable {  // marked properties only
  @Inject var a: OnceCycleA?
}

private final class SmallStackCycleA: @unchecked Sendable {  // marked properties only
  @Inject var b: SmallStackCycleB
}
private final class SmallStackCycleB: @unchecked Sendable {  // marked properties only
  @Inject var a: SmallStackCycleA
}

private final class DerivedPalette: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}
private final class Theme: @unchecked Sendable {  // marked properties only
  @Inject var palette: DerivedPalette
}
private final class ChainNode: @unchecked Sendable {  // marked properties only
  let parent: ChainNode?
  @Inject var depth: Int?
  init(parent: ChainNode?) { self.parent = parent }
}

/// The instance every other theme derives its palette from.
private let baseTheme = Theme()

/// Runs `body` on a thread with a 256 KB stack and waits for it (20 s at most): a cycle of fills stops
/// when the stack is nearly used up, which on a small stack comes after a few dozen rounds (on the 8 MB of
/// a main thread, under the thread sanitizer, it took minutes).
private func onSmallStack(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    body()
    done.signal()
  }
  thread.stackSize = 256 * 1024
  thread.start()
  _ = done.wait(timeout: .now() + 20)
}

@Suite struct FillCycleTests {
  @Test func ifNilFactoriesThatNeedEachOthersPropertiesStopWithTheChain() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(FillCycleA.self).ifNil { _ in
        let a = FillCycleA()
        _ = a.b
        return a
      }
      try Injection.inject(FillCycleB.self).ifNil { _ in
        let b = FillCycleB()
        _ = b.a
        return b
      }
      onSmallStack { _ = FillCycleA().b }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("times over on the same thread, each time for another instance"))
    // The chain starts at whichever property reached the limit first.
    let ab = "InjectPluginTests.FillCycleA.b: InjectPluginTests.FillCycleB"
    let ba = "InjectPluginTests.FillCycleB.a: InjectPluginTests.FillCycleA"
    #expect(
      message.contains("The last round: \(ab) → \(ba) → \(ab).")
        || message.contains("The last round: \(ba) → \(ab) → \(ba)."))
  }

  @Test func aCycleOfFillsOnAThreadWithASmallStackStopsBeforeItOverflows() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(SmallStackCycleA.self).ifNil { _ in
        let a = SmallStackCycleA()
        _ = a.b
        return a
      }
      try Injection.inject(SmallStackCycleB.self).ifNil { _ in
        let b = SmallStackCycleB()
        _ = b.a
        return b
      }
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        _ = SmallStackCycleA().b
        done.signal()
      }
      thread.stackSize = 128 * 1024
      thread.start()
      _ = done.wait(timeout: .now() + 20)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a cycle of fills"))
  }

  @Test func onceOnlyFillsThatNeedEachOthersPropertiesStopWithTheChain() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(OnceCycleA.self).ifNilOnce { _ in
        let a = OnceCycleA()
        _ = a.b
        return a
      }
      try Injection.inject(OnceCycleB.self).ifNilOnce { _ in
        let b = OnceCycleB()
        _ = b.a
        return b
      }
      onSmallStack { _ = OnceCycleA().b }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a cycle of fills"))
  }

  @Test func fillsReadingTheSamePropertyAlongAChainOfExistingInstancesNestAsDeepAsTheStackAllows() throws {
    // Not a cycle either: each node's fill reads its parent's, whose fill then runs — 300 deep. (A first
    // version stopped at 8 nested fills of one property: a port of earlier reviews' tests caught it; a
    // second at 256, found by review H75.)
    try Injection.inject(Int?.self).declared(in: ChainNode.self).ifNil { target in
      ((target as! ChainNode).parent?.depth ?? -1) + 1
    }
    var node = ChainNode(parent: nil)
    for _ in 0..<300 { node = ChainNode(parent: node) }
    #expect(node.depth == 300)
  }

  @Test func aFillMayReadThePropertyOfAnotherInstanceWhoseFillThenRuns() throws {
    // Not a cycle: the factory derives each theme's palette from the base theme's, filled on first use.
    try Injection.inject(DerivedPalette.self).declared(in: Theme.self).ifNil { target in
      target === baseTheme ? DerivedPalette("base") : DerivedPalette(baseTheme.palette.name + " derived")
    }
    #expect(Theme().palette.name == "base derived")
    #expect(baseTheme.palette.name == "base")
  }
}
