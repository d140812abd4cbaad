import InjectPlugin
import InjectionKernel
import Testing

// A direct call whose selection names a class or a property name and matches nothing throws, naming its
// near misses; selections by type alone reach `T?` properties too.

private final class OptionalRetries {
  @Inject var retries: Int?
}

private class MistakeBase {
  @Inject var greeting: String
}

private final class MistakeSub: MistakeBase {}

private final class TimeoutHost {
  @Inject var timeoutSeconds: Double
}

private final class NoInjectHost {
  var plain = 0
}

private final class GenericLater<T> {
  @Inject var onlyInGenericLater: T
}

private final class WidenLogger: Sendable {
  let name: String
  init(name: String) { self.name = name }
}

private final class WidenHost {
  @Inject var logger: WidenLogger?
  @Inject var required: WidenLogger
}

private struct WidenStruct {
  @Inject var logger: WidenLogger?
}

private final class SharedWidenService: Sendable {}

private final class SharedWidenHost {
  @Inject var service: SharedWidenService?
  @Inject var plain: SharedWidenService
}

private final class ListedTimeouts {
  @Inject var connectTimeout: Double
  @Inject var readTimeout: Double
}

private final class ListedEndpoint {
  @Inject var endpoint: String
}

private final class ListedOther {
  @Inject var retries: Int
}

private protocol ListedEngine: Sendable {}
private final class ListedHybrid: ListedEngine {}

private final class ListedEngineUser {
  @Inject var engine: any ListedEngine
}

/// The selection text and near misses of the `selectionMatchesNothing` error `body` throws; `nil` when it
/// throws another error or none.
private func unmatchedSelection(_ body: () throws -> Void) -> (selection: String, nearMisses: [String])? {
  guard case .selectionMatchesNothing(let selection, let nearMisses) = injectionError(body) else { return nil }
  return (selection, nearMisses)
}

/// The error `body` throws, if it is an `InjectionError`.
private func injectionError(_ body: () throws -> Void) -> InjectionError? {
  do {
    try body()
    return nil
  } catch {
    return error as? InjectionError
  }
}

@Suite struct SelectionMistakeTests {
  @Test func aNameNoPropertyHasPointsAtTheBindingForResolve() throws {
    // A Swinject habit: `.named("…")` written for `resolve(_:named:)`, which `inject(_:named:)` binds.
    let unmatched = unmatchedSelection {
      try Injection.inject(WidenLogger.self).named("nameNoPropertyHasAnywhere").value(WidenLogger(name: "a"))
    }
    #expect(
      unmatched?.nearMisses.last
        == "Injection.inject(WidenLogger.self, named: \"nameNoPropertyHasAnywhere\") binds the name for "
        + "resolve(_:named:) even where no property has it")
  }

  @Test func anEmptyNameIsQuotedInTheError() throws {
    // Before: "Inject: type Swift.Double, in …TimeoutHost, named " (review H82).
    let unmatched = unmatchedSelection {
      try Injection.inject(Double.self).declared(in: TimeoutHost.self).named("").value(3)
    }
    #expect(
      unmatched?.selection
        == "Inject: type Swift.Double, in InjectPluginTests.TimeoutHost, named \"\" (no property named \"\" in "
        + "InjectPluginTests.TimeoutHost)")
  }

  @Test func anIntForAnIntOptionalPropertyThrowsAndNamesTheType() throws {
    let error = injectionError { try Injection.inject(Int.self).declared(in: OptionalRetries.self).value(3) }
    #expect(
      error
        == .selectionMatchesNothing(
          selection: "Inject: type Swift.Int, in InjectPluginTests.OptionalRetries",
          nearMisses: [
            "InjectPluginTests.OptionalRetries.retries: Swift.Optional<Swift.Int> — its type is Int?, not Int: "
              + "select Int?.self"
          ]))
    #expect(OptionalRetries().retries == nil)  // nothing applied
    #expect(!Injection.isInjected(OptionalRetries.self, "retries"))
  }

  @Test func namingASubclassOfTheDeclaringClassGivesItAnInjectionOfItsOwn() throws {
    try Injection.inject(String.self).declared(in: MistakeSub.self).value("hi")
    #expect(MistakeSub().greeting == "hi")
    #expect(Injection.isInjected(MistakeSub.self, "greeting"))
    #expect(!Injection.isInjected(MistakeBase.self, "greeting"))
  }

  @Test func aClassThatNeitherDeclaresNorInheritsThePropertyNamesItsNearMisses() throws {
    // A selection by class and type lists the class's properties of other types (declared or inherited).
    let error = injectionError { try Injection.inject(String.self).declared(in: TimeoutHost.self).value("hi") }
    #expect(
      error
        == .selectionMatchesNothing(
          selection: "Inject: type Swift.String, in InjectPluginTests.TimeoutHost",
          nearMisses: [
            "InjectPluginTests.TimeoutHost.timeoutSeconds: Swift.Double — its type is Double, not String: select "
              + "Double.self"
          ]))
    let typo = injectionError { try Injection.inject(Int?.self).declared(in: MistakeSub.self).value(3) }
    #expect(
      typo
        == .selectionMatchesNothing(
          selection: "Inject: type Swift.Optional<Swift.Int>, in InjectPluginTests.MistakeSub",
          nearMisses: [
            "InjectPluginTests.MistakeSub.greeting: Swift.String (inherited from InjectPluginTests.MistakeBase) — its "
              + "type is String, not Int?: select String.self"
          ]))
  }

  @Test func aMistypedNameWithoutAClassIsATypo() throws {
    let error = injectionError { try Injection.inject(Double.self).named("timeoutSecnds").value(2) }
    guard case .selectionMatchesNothing(let selection, let nearMisses) = error else {
      Issue.record("expected selectionMatchesNothing, got \(String(describing: error))")
      return
    }
    #expect(selection == "Inject: type Swift.Double, named timeoutSecnds")
    #expect(
      nearMisses.contains(
        "InjectPluginTests.TimeoutHost.timeoutSeconds: Swift.Double — its name is timeoutSeconds, not "
          + "timeoutSecnds: select named(\"timeoutSeconds\")"))
  }

  @Test func aMistypedNameWithAClassNamesTheSimilarName() throws {
    let error = injectionError {
      try Injection.inject(Double.self).declared(in: TimeoutHost.self).named("timeotuSeconds").value(2)
    }
    #expect(
      error
        == .selectionMatchesNothing(
          selection: "Inject: type Swift.Double, in InjectPluginTests.TimeoutHost, named timeotuSeconds "
            + "(no property named timeotuSeconds in InjectPluginTests.TimeoutHost)",
          nearMisses: [
            "InjectPluginTests.TimeoutHost.timeoutSeconds: Swift.Double — its name is timeoutSeconds, not "
              + "timeotuSeconds: select named(\"timeoutSeconds\")"
          ]))
    #expect(error?.description.hasPrefix("No marked property matches Inject: type Swift.Double") == true)
  }

  @Test func aNameInAListThatSelectsNothingIsAMistakeNamingIt() throws {
    for selection in [
      Injection.inject(Double.self).named("connectTimeout", "raedTimeout"),
      Injection.inject(Double.self).declared(in: ListedTimeouts.self).named("connectTimeout", "raedTimeout"),
    ] {
      let unmatched = try #require(unmatchedSelection { try selection.value(2) })
      #expect(unmatched.selection.hasSuffix("named connectTimeout, raedTimeout (the name raedTimeout selects nothing)"))
      #expect(
        unmatched.nearMisses == [
          "InjectPluginTests.ListedTimeouts.readTimeout: Swift.Double — its name is readTimeout, not raedTimeout: "
            + "select named(\"readTimeout\")"
        ])
    }
    // Nothing was applied: the name that matched got nothing either.
    #expect(!Injection.isInjected(ListedTimeouts.self, "connectTimeout"))
  }

  @Test func aClassInAListThatSelectsNothingIsAMistakeNamingIt() throws {
    let unmatched = try #require(
      unmatchedSelection {
        try Injection.inject(Double.self).declared(in: ListedTimeouts.self, NoInjectHost.self).value(2)
      })
    #expect(unmatched.selection.hasSuffix("(nothing selected in InjectPluginTests.NoInjectHost)"))
    #expect(!Injection.isInjected(ListedTimeouts.self, "readTimeout"))
  }

  @Test func theRightNameInAnotherClassIsANearMiss() throws {
    let unmatched = try #require(
      unmatchedSelection {
        try Injection.inject(String.self).declared(in: ListedOther.self).named("endpoint").value("x")
      })
    #expect(
      unmatched.nearMisses.contains(
        "InjectPluginTests.ListedEndpoint.endpoint: Swift.String — it is declared in InjectPluginTests.ListedEndpoint, "
          + "not in InjectPluginTests.ListedOther: select declared(in: ListedEndpoint.self)"))
  }

  @Test func aClassOnlySelectionListsTheClassesPropertiesOfOtherTypes() throws {
    let unmatched = try #require(
      unmatchedSelection {
        try Injection.inject(ListedHybrid.self).declared(in: ListedEngineUser.self).value(ListedHybrid())
      })
    #expect(unmatched.nearMisses.count == 1)
    #expect(unmatched.nearMisses.first?.hasPrefix("InjectPluginTests.ListedEngineUser.engine: ") == true)
    #expect(unmatched.nearMisses.first?.contains("select (any ListedEngine).self") == true)
  }

  @Test func aClassWithoutMarkedPropertiesIsAMistake() throws {
    let error = injectionError { try Injection.inject(Int.self).declared(in: NoInjectHost.self).value(1) }
    #expect(
      error
        == .selectionMatchesNothing(
          selection: "Inject: type Swift.Int, in InjectPluginTests.NoInjectHost", nearMisses: []))
    #expect(error?.description.contains("mayMatchLater()") == true)
  }

  @Test func rulesForLaterClassesSayMayMatchLater() throws {
    let plan = try #require(try Injection.inject(Int.self).named("notLoadedYetAnywhere").mayMatchLater().value(1))
    #expect(plan.unmatchedSelections.map(\.isMistake) == [false])
    try Injection.inject(Int.self).declared(in: NoInjectHost.self).mayMatchLater().value(1)
  }

  @Test func aGenericClassFieldNameIsNotATypoBeforeItsSpecializationIsUsed() throws {
    try Injection.inject(Int.self).named("onlyInGenericLater").value(5)
    #expect(GenericLater<Int>().onlyInGenericLater == 5)
  }

  @Test func aValueInjectedByTypeReachesOptionalProperties() throws {
    let logger = WidenLogger(name: "main")
    let plan = try #require(try Injection.inject(WidenLogger.self).value(logger))
    #expect(Set(plan.entries.map(\.property.name)) == ["logger", "required"])
    let host = WidenHost()
    #expect(host.logger === logger)
    #expect(host.required === logger)
    #expect(WidenStruct().logger === logger)
    host.logger = nil  // nil brings the injected value back
    #expect(host.logger === logger)
    try Injection.inject(WidenLogger.self).reject()
    #expect(host.logger == nil)
  }

  @Test func aSharedValueInjectedByTypeIsTheSameForOptionalProperties() throws {
    try Injection.inject(SharedWidenService.self).shared { SharedWidenService() }
    let host = SharedWidenHost()
    #expect(host.service === host.plain)
    #expect(SharedWidenHost().service === host.plain)
  }
}
