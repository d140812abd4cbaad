import InjectionKernel
import Testing

// A batch's own checks (`InjectionRules.validate(listingEmpty:_:)`) run at every commit of the batch,
// with the plan, before anything is applied. Each test owns its host classes.

private final class ValidatedHost {
  @Tracked var label: String
  @Tracked var count: Int
}

private final class ValidatedScopeHost {
  @Tracked var label: String
}

private struct StillEmpty: Error, Equatable {
  let properties: [String]
}

@Suite struct BatchValidationTests {
  /// A batch injecting `label` of `host`, checked to leave none of `host`'s properties empty.
  private func checkedBatch(for host: AnyClass) -> InjectionRules {
    let rules = InjectionRules()
    TrackedPlugin.inject("set", into: host, rules: rules)
    rules.validate(listingEmpty: { { $0.declaringClass == host } }) { plan in
      let empty = plan.emptyProperties.filter { $0.declaringClass == host }.map(\.name)
      if !empty.isEmpty { throw StillEmpty(properties: empty) }
    }
    return rules
  }

  @Test func aFailingCheckFailsTheCommitAndNothingIsApplied() throws {
    let rules = checkedBatch(for: ValidatedHost.self)
    #expect(throws: StillEmpty(properties: ["count"])) { try Injection.commit(rules) }
    #expect(!Injection.isInjected(ValidatedHost.self, "label"))
    TrackedPlugin.inject(3, into: ValidatedHost.self, rules: rules)
    try Injection.commit(rules)
    #expect(Injection.isInjected(ValidatedHost.self, "label") && Injection.isInjected(ValidatedHost.self, "count"))
  }

  @Test func checksRunForCommitsIntoAnOverrideScopeAndNotForDryRuns() throws {
    let rules = checkedBatch(for: ValidatedScopeHost.self)
    rules.validate(listingEmpty: { nil }) { _ in throw StillEmpty(properties: ["always"]) }
    #expect(throws: StillEmpty(properties: ["always"])) {
      try Injection.withOverrides({ _ in }) { try Injection.commit(rules) }
    }
    #expect(try Injection.plan(rules).entries.count == 1)  // a dry run runs no check
    #expect(!Injection.isInjected(ValidatedScopeHost.self, "label"))
  }
}
