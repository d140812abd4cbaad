import InjectionKernel
import Testing

private final class SlotHost {
  @Tracked var value: Int
  @Tracked var optional: String?
  init() {}
}

/// Only `rejectRestoresOriginalBehaviour` injects into it (tests run in parallel).
private final class SlotRejectHost {
  @Tracked var optional: String?
  init() {}
}

private final class SlotGetterHost {
  @Tracked var number: Int
  init() {}
}

private class SlotBase {
  @Tracked var shared: String
}

private final class SlotSub: SlotBase {}

private class NestedSelectionBase {
  @Tracked var baseName: String
}

private final class NestedSelectionSub: NestedSelectionBase {
  @Tracked var subName: String
}

private final class SlotGeneric<T> {
  @Tracked var element: T
}

private final class SlotMismatchHost {
  @Tracked var first: Int
  @Tracked var second: String
}

private final class SlotReportHost {
  @Tracked var reported: Int
}

private func select(_ owner: AnyClass) -> PropertySelection {
  PropertySelection(plugin: TrackedPlugin.id).declared(in: owner)
}

@Suite struct SlotTests {
  @Test func injectionReachesExistingAndNewInstances() throws {
    let existing = SlotHost()
    let rules = InjectionRules()
    TrackedPlugin.inject(7, into: SlotHost.self, rules: rules)
    let plan = try Injection.commit(rules)
    #expect(plan.entries.map(\.property.name) == ["value"])
    #expect(existing.value == 7)
    #expect(SlotHost().value == 7)
    #expect(existing.optional == nil)
    existing.value = 3  // a set stores a per-instance value
    #expect(existing.value == 3)
    #expect(SlotHost().value == 7)
  }

  @Test func rejectRestoresOriginalBehaviour() throws {
    let host = SlotRejectHost()
    host.optional = "stored"
    let inject = InjectionRules()
    inject.add(
      PropertyInjection<String?>(read: .getter { _, _, _ in "got" }, summary: "getter"),
      to: select(SlotRejectHost.self).named("optional"))
    try Injection.commit(inject)
    #expect(host.optional == "got")
    let reject = InjectionRules()
    reject.reject(select(SlotRejectHost.self).named("optional"))
    try Injection.commit(reject)
    #expect(host.optional == "stored")
    host.optional = nil
    #expect(host.optional == nil)
  }

  @Test func getterReceivesStorageAndOriginal() throws {
    let host = SlotGetterHost()
    host.number = 10
    let rules = InjectionRules()
    rules.add(
      PropertyInjection<Int>(
        read: .getter { _, storage, original in original.get(storage) * 2 },
        write: { _, storage, newValue, original in original.set(&storage, newValue + 1) },
        summary: "doubling"),
      to: select(SlotGetterHost.self))
    try Injection.commit(rules)
    #expect(host.number == 20)
    host.number = 4  // stored as 5 by the setter
    #expect(host.number == 10)
  }

  @Test func nestedClassesInOneSelectionSelectEachPropertyOnce() throws {
    let rules = InjectionRules()
    rules.add(
      PropertyInjection<String>(read: .value("both"), summary: "value"),
      to: PropertySelection(plugin: TrackedPlugin.id).declared(in: NestedSelectionBase.self, NestedSelectionSub.self))
    let plan = try Injection.plan(rules)
    #expect(plan.entries.map(\.property.name).sorted() == ["baseName", "subName"])
    #expect(plan.multiplySelected.isEmpty)
  }

  @Test func subclassesInheritTheDeclaringClassInjection() throws {
    let sub = SlotSub()
    let rules = InjectionRules()
    TrackedPlugin.inject("base", into: SlotBase.self, rules: rules)
    try Injection.commit(rules)
    #expect(sub.shared == "base")
    #expect(SlotBase().shared == "base")
  }

  @Test func genericSpecializationsHaveTheirOwnSlots() throws {
    let rules = InjectionRules()
    TrackedPlugin.inject(5, into: SlotGeneric<Int>.self, rules: rules)
    TrackedPlugin.inject("five", into: SlotGeneric<String>.self, rules: rules)
    try Injection.commit(rules)
    #expect(SlotGeneric<Int>().element == 5)
    #expect(SlotGeneric<String>().element == "five")
  }

  @Test func wrongTypeThrowsAndAppliesNothing() throws {
    let host = SlotMismatchHost()
    let rules = InjectionRules()
    TrackedPlugin.inject(1, into: SlotMismatchHost.self, rules: rules)
    rules.add(PropertyInjection<Int>(read: .value(2), summary: "value 2"), to: select(SlotMismatchHost.self))
    #expect(throws: InjectionError.self) { try Injection.commit(rules) }
    do {
      try Injection.commit(rules)
    } catch let error as InjectionError {
      guard case .typeMismatch(let property, let expected, let given) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(property.hasSuffix("SlotMismatchHost.second: Swift.String"))
      #expect(expected == "Swift.String")
      #expect(given == "Swift.Int")
    }
    #expect(!Injection.isInjected(SlotMismatchHost.self, "first"))
    host.first = 9
    #expect(host.first == 9)
  }

  @Test func unmatchedSelectionsAreListedAndUnknownNamesThrowAtCommit() throws {
    let rules = InjectionRules()
    rules.add(
      PropertyInjection<Double>(read: .value(1), summary: "value"), to: select(SlotHost.self).ofType(Double.self))
    let plan = try Injection.plan(rules)
    #expect(plan.unmatchedSelections.map(\.isMistake) == [true])
    #expect(throws: InjectionError.self) { try Injection.commit(rules) }
    #expect(plan.entries.isEmpty)
    #expect(plan.catalogPasses == 1)

    let typo = InjectionRules()
    typo.add(PropertyInjection<Int>(read: .value(1), summary: "value"), to: select(SlotHost.self).named("vaule"))
    #expect(
      throws: InjectionError.selectionMatchesNothing(
        selection:
          "Tracked: in InjectionKernelTests.SlotHost, named vaule (no property named vaule in InjectionKernelTests.SlotHost)",
        nearMisses: [
          "InjectionKernelTests.SlotHost.value: Swift.Int — its name is value, not vaule: select named(\"value\")"
        ])
    ) {
      try Injection.commit(typo)
    }
    // A plan lists the misspelled name as a mistake instead of throwing, once.
    let typoPlan = try Injection.plan(typo)
    #expect(
      typoPlan.unmatchedSelections.map(\.selection) == [
        "Tracked: in InjectionKernelTests.SlotHost, named vaule (no property named vaule in InjectionKernelTests.SlotHost)"
      ])
    #expect(typoPlan.unmatchedSelections.map(\.isMistake) == [true])
    #expect(throws: InjectionError.self) { try Injection.property(named: "vaule", of: SlotHost.self) }
    #expect(try Injection.property(named: "value", of: SlotHost.self).offset == 16)
  }

  @Test func reportAndIntrospection() throws {
    let rules = InjectionRules()
    TrackedPlugin.inject(1, into: SlotReportHost.self, rules: rules)
    try Injection.commit(rules)
    let again = InjectionRules()
    TrackedPlugin.inject(2, into: SlotReportHost.self, rules: again)
    let plan = try Injection.commit(again)
    #expect(plan.entries.first?.replacesInjection == true)
    #expect(Injection.isInjected(SlotReportHost.self, "reported"))
    #expect(Injection.injectedClasses().contains { $0 == SlotReportHost.self })
    let line = Injection.report().split(separator: "\n").first { $0.contains("SlotReportHost.reported") }
    #expect(line?.hasSuffix("<- tracked 2 (Tracked, re-injected 1x)") == true)
    #expect(SlotReportHost().reported == 2)
  }
}
