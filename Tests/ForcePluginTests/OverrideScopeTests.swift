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
