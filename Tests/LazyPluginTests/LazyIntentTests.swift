import ImperativePlugin
import InjectionKernel
import LazyPlugin
import Testing

// A per-type factory plus `injectLazy()` is one intent; `rejectLazy()` forgets factories; a scoped
// `rejectLazy(in:)` exists; `injectLazy(in:)` naming a class without `@Lazy` properties is a mistake.

private final class IntentCache: LazyConstructible, Sendable {
  let limit: Int
  init() { limit = 16 }
  init(limit: Int) { self.limit = limit }
}

private final class IntentParser: LazyConstructible, Sendable {
  let strict: Bool
  init() { strict = false }
  init(strict: Bool) { self.strict = strict }
}

private final class IntentGallery {
  @Lazy var cache: IntentCache
  @Lazy var parser: IntentParser?
  @Lazy var items: [String]
}

private final class OnceConflictHost {
  @Lazy var parser: IntentParser?
}

private final class ScopedRejectHost {
  @Lazy var names: [String]?
}

private final class NoLazyHost {
  var plain = 0
}

/// Only the exit test (a process of its own) registers a factory for this type.
private final class ForgottenValue: LazyConstructible, Sendable {
  let origin: String
  init() { origin = "init()" }
  init(origin: String) { self.origin = origin }
}

private final class ForgottenHost {
  @Lazy var value: ForgottenValue
}

@Suite struct LazyIntentTests {
  @Test func aPerTypeFactoryPlusInjectLazyIsOneIntent() throws {
    let plan = try Injection.imperative { lets in
      lets.checkCompleteness(in: IntentGallery.self)
      lets.injectLazy(IntentCache.self) { IntentCache(limit: 64) }
      lets.lazy(IntentParser?.self).declared(in: IntentGallery.self).create { _ in IntentParser(strict: true) }
      lets.injectLazy(in: IntentGallery.self)
    }
    #expect(plan.multiplySelected.isEmpty)
    #expect(!plan.description.contains("selected by"))
    let gallery = IntentGallery()
    #expect(gallery.cache.limit == 64)
    #expect(gallery.parser?.strict == true)
  }

  @Test func onceAfterTurningOnIsStillTwoRules() throws {
    let rules = InjectionRules()
    rules.injectLazy(in: OnceConflictHost.self)
    rules.lazy(IntentParser?.self).declared(in: OnceConflictHost.self).once()
    let plan = try Injection.commit(rules)
    #expect(plan.multiplySelected.map(\.name) == ["parser"])
  }

  @Test func scopedRejectLazyTurnsOffOnlyThoseClasses() throws {
    try Injection.injectLazy(in: ScopedRejectHost.self)
    #expect(ScopedRejectHost().names == [])
    let plan = try Injection.rejectLazy(in: ScopedRejectHost.self)
    #expect(plan.entries.map(\.property.name) == ["names"])
    #expect(ScopedRejectHost().names == nil)
  }

  @Test func turningOnAClassWithoutLazyPropertiesIsAMistake() throws {
    #expect {
      try Injection.injectLazy(in: NoLazyHost.self)
    } throws: { error in
      (error as? InjectionError)
        == .selectionMatchesNothing(selection: "Lazy: in LazyPluginTests.NoLazyHost", nearMisses: [])
    }
  }

  /// `rejectLazy()` turns off every `@Lazy` property of the process, so it runs in a process of its own.
  @Test func rejectLazyForgetsPerTypeFactories() async {
    await #expect(processExitsWith: .success) {
      try Injection.injectLazy(ForgottenValue.self) { ForgottenValue(origin: "factory") }
      try Injection.injectLazy(in: ForgottenHost.self)
      precondition(ForgottenHost().value.origin == "factory")
      try Injection.rejectLazy()
      try Injection.injectLazy(in: ForgottenHost.self)
      precondition(ForgottenHost().value.origin == "init()", "the per-type factory outlived rejectLazy()")
    }
  }
}
