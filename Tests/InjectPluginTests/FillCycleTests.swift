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

private final class DerivedPalette: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}
private final class Theme: @unchecked Sendable {  // marked properties only
  @Inject var palette: DerivedPalette
}
/// The instance every other theme derives its palette from.
private let baseTheme = Theme()

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
      _ = FillCycleA().b
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("was filled from inside its own fill's factory 8 times over on the same thread"))
    #expect(
      message.contains(
        "The last round: InjectPluginTests.FillCycleA.b: InjectPluginTests.FillCycleB → "
          + "InjectPluginTests.FillCycleB.a: InjectPluginTests.FillCycleA → "
          + "InjectPluginTests.FillCycleA.b: InjectPluginTests.FillCycleB."))
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
      _ = OnceCycleA().b
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a cycle of fills"))
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
