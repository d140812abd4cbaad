import InjectionKernel
import Testing

// Retractions take a committed rule back where it is, so that what it shadowed shows again; rules
// recorded for different owners stay side by side. Each test owns its host classes.

private final class RetractHost {
  @Tracked var shadowedLabel: String
}

private final class RetractScopeHost {
  @Tracked var label: String
}

private final class RetractOwnersHost {
  @Tracked var label: String
}

private final class RetractFilteredHost {
  @Tracked var label: String
}

private final class RetractForeignHost {
  @Tracked var label: String
}

private final class Owner {}

@Suite struct RetractionTests {
  private func value(_ text: String) -> PropertyInjection<String> {
    PropertyInjection(read: .value(text), summary: "tracked \(text)")
  }

  private func commit(_ record: (InjectionRules) -> Void) throws {
    let rules = InjectionRules()
    record(rules)
    try Injection.commit(rules)
  }

  @Test func retractingARuleShowsWhatItShadowedWhereARejectionWouldHideIt() throws {
    // By name alone (a name no other test uses) for the broad rule: a rule by type alone would reach
    // other tests' `String` properties.
    let byName = PropertySelection(plugin: TrackedPlugin.id).ofType(String.self).named("shadowedLabel")
    let byClass = byName.declared(in: RetractHost.self)
    try commit { $0.add(value("type"), to: byName) }
    try commit { $0.add(value("class"), to: byClass) }
    #expect(RetractHost().shadowedLabel == "class")
    try commit { $0.retract(byClass) }
    #expect(RetractHost().shadowedLabel == "type")
    #expect(Injection.isInjected(RetractHost.self, "shadowedLabel"))
    // Retracting a rule that is no longer there changes nothing.
    try commit { $0.retract(byClass) }
    #expect(RetractHost().shadowedLabel == "type")
    // A rejection, by contrast, is a rule of its own.
    try commit { $0.reject(byClass) }
    #expect(!Injection.isInjected(RetractHost.self, "shadowedLabel"))
    try commit { $0.retract(byClass) }  // takes the rejection back
    #expect(RetractHost().shadowedLabel == "type")
  }

  @Test func rulesOfDifferentOwnersStaySideBySideInCommitOrder() throws {
    let selection = PropertySelection(plugin: TrackedPlugin.id).ofType(String.self).declared(in: RetractOwnersHost.self)
    let first = Owner()
    let second = Owner()
    let mine = selection.recorded(forOwner: ObjectIdentifier(first))
    let theirs = selection.recorded(forOwner: ObjectIdentifier(second))
    #expect(mine.selectsTheSameProperties(as: theirs))
    try commit { $0.add(value("app"), to: selection) }
    try commit { $0.add(value("first"), to: mine) }
    try commit { $0.add(value("second"), to: theirs) }
    #expect(RetractOwnersHost().label == "second")  // the newest decides
    try commit { $0.retract(mine) }  // an older owner's: nothing visible changes
    #expect(RetractOwnersHost().label == "second")
    try commit { $0.retract(theirs) }
    #expect(RetractOwnersHost().label == "app")  // the app's rule, where it was
    // In one batch, a retraction applies before the other changes, wherever it was recorded.
    try commit { rules in
      rules.add(value("again"), to: mine)
      rules.retract(mine)
    }
    #expect(RetractOwnersHost().label == "again")
  }

  @Test func aFilteredSelectionCannotBeRetractedAndIsRejectedInstead() throws {
    let filtered = PropertySelection(plugin: TrackedPlugin.id).ofType(String.self).declared(
      in: RetractFilteredHost.self
    )
    .filter { $0.name == "label" }
    try commit { $0.add(value("filtered"), to: filtered) }
    #expect(RetractFilteredHost().label == "filtered")
    try commit { $0.retract(filtered) }
    #expect(!Injection.isInjected(RetractFilteredHost.self, "label"))
  }

  @Test func aRetractionInsideAnOverrideScopeTakesBackTheScopesRuleOnly() throws {
    let selection = PropertySelection(plugin: TrackedPlugin.id).ofType(String.self).declared(in: RetractScopeHost.self)
    try commit { $0.add(value("process"), to: selection) }
    try Injection.withOverrides({ $0.add(self.value("scope"), to: selection) }) {
      #expect(RetractScopeHost().label == "scope")
      try commit { $0.retract(selection) }
      #expect(RetractScopeHost().label == "process")
    }
    #expect(RetractScopeHost().label == "process")
  }

  @Test func aScopeRetractingAnEnclosingRuleTakesItBackForItselfOnly() throws {
    let byClass = PropertySelection(plugin: TrackedPlugin.id).ofType(String.self)
      .declared(in: RetractForeignHost.self)
    let forOwner = byClass.named("label").recorded(forOwner: ObjectIdentifier(Owner.self))
    try commit { $0.add(value("app"), to: byClass) }
    try commit { $0.add(value("owner"), to: forOwner) }
    try Injection.withIsolatedInjections {
      #expect(RetractForeignHost().label == "owner")
      try commit { $0.retract(forOwner) }  // the process holds the rule: the scope records what is left
      #expect(RetractForeignHost().label == "app")
    }
    #expect(RetractForeignHost().label == "owner")
  }
}
