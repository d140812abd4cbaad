import InjectionKernel
import Testing

// A builder that throws for a property the kernel meets after the commit (a generic specialization used
// later) cannot make the commit throw: the read that then finds nothing says why.

private final class LateBox<Element> {
  @Tracked var item: Element
}

private struct NoDefault: Error, CustomStringConvertible {
  var description: String { "no default for this type" }
}

@Test func aBuildersErrorForAPropertyMetLaterIsInTheReadsStop() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    let rules = InjectionRules()
    rules.add(to: PropertySelection(plugin: TrackedPlugin.id).named("item")) { property in
      guard property.valueType == Int.self else { throw NoDefault() }
      return PropertyInjection<Int>(read: .value(1), summary: "tracked 1")
    }
    try Injection.commit(rules)
    precondition(LateBox<Int>().item == 1)
    _ = LateBox<String>().item  // before, the stop said only that nothing was injected
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  #expect(message.contains("LateBox<Swift.String>.item: Swift.String was read with nothing injected or stored"))
  #expect(message.contains("threw when it met this property (no default for this type)"))
}

private final class ScopedLateBox<Element> {
  @Tracked var item: Element
}

@Test func aScopesBuilderErrorIsNotNamedByReadsOutsideIt() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    try Injection.withOverrides({ lets in
      lets.add(to: PropertySelection(plugin: TrackedPlugin.id).named("item")) { property in
        guard property.valueType == Int.self else { throw NoDefault() }
        return PropertyInjection<Int>(read: .value(1), summary: "tracked 1")
      }
    }) { _ = Injection.isInjected(ScopedLateBox<String>.self, "item") }
    _ = ScopedLateBox<String>().item  // the process never had that rule
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  #expect(message.contains("ScopedLateBox<Swift.String>.item: Swift.String was read with nothing injected or stored"))
  #expect(!message.contains("threw when it met this property"))
}
