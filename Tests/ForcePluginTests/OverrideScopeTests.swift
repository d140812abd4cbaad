import ForcePlugin
import ImperativePlugin
import InjectionKernel
import Testing

private final class Gateway: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class Checkout {
  var gateway: Gateway?
}

@Test func forceRulesWrittenInAnOverrideScopeApplyToFillsInsideIt() throws {
  try Injection.forceInject(in: Checkout.self) { property in
    property.valueType == Gateway?.self ? .value(Gateway("process")) : .skip
  }
  try Injection.withOverrides({ lets in
    try lets.forceInject(in: Checkout.self) { property in
      property.valueType == Gateway?.self ? .value(Gateway("test")) : .skip
    }
  }) {
    let filled = try Injection.fill(Checkout())
    #expect(filled.gateway?.name == "test")
  }
  let filled = try Injection.fill(Checkout())
  #expect(filled.gateway?.name == "process")
}

private final class LayeredCheckout {
  var gateway = ""
  var session = ""
}

/// A scope's force rules sit on top of the rules beneath it, those added there after the scope's own
/// included (the shared injector's rules are layered scope state).
@Test func forceRulesAddedBeneathAScopeAfterItsOwnStillApplyInIt() throws {
  try Injection.withOverrides({ lets in
    try lets.forceInject(in: LayeredCheckout.self, key: "layered.own") {
      $0.name == "gateway" ? .value("scope") : .skip
    }
  }) {
    // Beneath the scope: the process (a class no other test fills).
    try Injection.outsideOverrides {
      try Injection.forceInject(in: LayeredCheckout.self, key: "layered.later") {
        $0.name == "session" ? .value("process") : .skip
      }
    }
    let filled = try Injection.fill(LayeredCheckout())
    #expect(filled.gateway == "scope")
    #expect(filled.session == "process")
  }
  #expect(try Injection.fill(LayeredCheckout()).gateway == "")
}

private final class LateCheckout {
  var gateway: String?
}

/// From a task that outlived its scope, a force rule throws, as a commit there does (before, it returned
/// normally and applied nowhere: review H73).
@Test func aForceRuleFromATaskThatOutlivedItsScopeThrows() async throws {
  let late = try Injection.withOverrides({ _ in }) {
    Task {
      try await Task.sleep(nanoseconds: 10_000_000)
      try Injection.forceInject(in: LateCheckout.self) {
        $0.name == "gateway" ? .value(Optional("late") as Any) : .skip
      }
    }
  }
  await #expect(throws: InjectionError.overrideScopeEnded) { try await late.value }
  #expect(try Injection.fill(LateCheckout()).gateway == nil)
}
