import InjectPlugin
import InjectionKernel
import Testing

// Names of private, fileprivate and function-local types, and hints that are valid Swift.

private protocol NamedClient: Sendable {}
private struct NamedClientImpl: NamedClient {}

private final class NamesHost {
  @Inject var client: any NamedClient
  @Inject var count: Int?
  @Inject var table: [String: Int]
  @Inject var maybeClient: (any NamedClient)?
}

private final class NamesOptionalMismatchHost {
  @Inject var retries: Int?
}

private final class NamesMismatchHost {
  @Inject var level: Int
}

fileprivate struct FilePrivateValue: Sendable {}

/// Read by the exit test only: nothing is ever injected into `port`.
/// Read by the exit tests only.
private final class ScopedGetterStopHost {
  @Inject var timeout: Int
}

/// Read by the exit test only.
private final class GetterStopHost {
  @Inject var timeout: Int
}

private protocol FittingAnalytics: Sendable {}
private final class FittingConsole: FittingAnalytics {}
private final class FittingDownloader {
  @Inject var analytics: any FittingAnalytics
}
private final class StopHost {
  @Inject var port: Int
}

@Suite struct NamesAndHintsTests {
  @Test func privateAndLocalTypesPrintWithoutAddresses() throws {
    final class LocalType {}
    #expect(Injection.typeName(NamesHost.self) == "InjectPluginTests.NamesHost")
    #expect(Injection.typeName(FilePrivateValue?.self) == "Swift.Optional<InjectPluginTests.FilePrivateValue>")
    #expect(Injection.typeName(LocalType.self) == "InjectPluginTests.NamesAndHintsTests.LocalType")
    let property = try Injection.property(named: "count", of: NamesHost.self)
    #expect(property.description == "InjectPluginTests.NamesHost.count: Swift.Optional<Swift.Int>")
    let client = try Injection.property(named: "client", of: NamesHost.self)
    #expect(client.description == "InjectPluginTests.NamesHost.client: InjectPluginTests.NamedClient")
  }

  @Test func reportsAndErrorsNameTheProperty() throws {
    try Injection.inject(Int?.self).declared(in: NamesHost.self).value(4)
    let line = Injection.report().split(separator: "\n").first { $0.contains("NamesHost.count") }
    #expect(
      line == "InjectPluginTests.NamesHost.count: Swift.Optional<Swift.Int> <- value Swift.Optional<Swift.Int> (Inject)"
    )
    #expect {
      try Injection.inject(valueOf: String.self, anyTypeIn: NamesMismatchHost.self).value("x")
    } throws: { error in
      (error as? InjectionError)?.description
        == "Cannot inject Swift.String into InjectPluginTests.NamesMismatchHost.level: Swift.Int: the property holds "
        + "Swift.Int."
    }
    // A value for an optional property: the message says the optional is the difference.
    #expect {
      try Injection.inject(valueOf: Int.self, anyTypeIn: NamesOptionalMismatchHost.self).value(5)
    } throws: { error in
      (error as? InjectionError)?.description
        == "Cannot inject Swift.Int into InjectPluginTests.NamesOptionalMismatchHost.retries: "
        + "Swift.Optional<Swift.Int>: the property holds Swift.Optional<Swift.Int>, an optional of it. Inject a "
        + "value of the optional type, or select by the value type alone (InjectPlugin's inject(_:) without a "
        + "class or a name; includingOptionals() on a kernel PropertySelection), which wraps a value in the "
        + "optional (not a getter or a setter)."
    }
  }

  @Test func hintsAreValidSwift() throws {
    #expect(Injection.sourceSpelling(of: Int?.self) == "Int?")
    #expect(Injection.sourceSpelling(of: (any NamedClient).self) == "any NamedClient")
    #expect(Injection.sourceSpelling(of: (any NamedClient)?.self) == "(any NamedClient)?")
    #expect(Injection.sourceSpelling(of: (any NamedClient.Type).self) == "any NamedClient.Type")
    #expect(Injection.metatypeExpression(of: (any NamedClient.Type).self) == "(any NamedClient.Type).self")
    #expect(Injection.sourceSpelling(of: Any.Type.self) == "Any.Type")
    #expect(Injection.sourceSpelling(of: AnyObject.Type.self) == "AnyObject.Type")
    #expect(Injection.sourceSpelling(of: [String: Int].self) == "[String: Int]")
    #expect(Injection.sourceSpelling(of: [FilePrivateValue?].self) == "[FilePrivateValue?]")
    #expect(Injection.sourceSpelling(of: Any.self) == "Any")
    #expect(Injection.metatypeExpression(of: (any NamedClient).self) == "(any NamedClient).self")
    #expect(Injection.metatypeExpression(of: Int?.self) == "Int?.self")
    func hint(_ name: String) throws -> String {
      let property = try Injection.property(named: name, of: NamesHost.self)
      return try #require(property.markerType).injectionHint(for: property)
    }
    // A type unrelated properties share: a rule for it alone would reach them all.
    #expect(try hint("count") == "Injection.inject(Int?.self).declared(in: NamesHost.self).named(\"count\").value(…)")
    #expect(try hint("client") == "Injection.inject((any NamedClient).self).value(…)")
    #expect(try hint("maybeClient") == "Injection.inject((any NamedClient)?.self).value(…)")
    #expect(
      try hint("table") == "Injection.inject([String: Int].self).declared(in: NamesHost.self).named(\"table\").value(…)"
    )
  }

  @Test func missingValueMessageIsOneLineThatStartsWithTheProperty() throws {
    let property = try Injection.property(named: "port", of: StopHost.self)
    #expect(
      property.missingValueMessage
        == "InjectPluginTests.StopHost.port: Swift.Int was read with nothing injected or stored: inject it with "
        + "Injection.inject(Int.self).declared(in: StopHost.self).named(\"port\").value(…), or assign it a value "
        + "first (a didSet that uses oldValue reads the "
        + "property before each assignment).")
  }

  @Test func readingAnEmptyPropertyStopsWithThatMessageFirst() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = StopHost().port
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    let firstLine = stderr.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
    #expect(
      firstLine
        == "InjectPluginTests.StopHost.port: Swift.Int was read with nothing injected or stored: inject it with "
        + "Injection.inject(Int.self).declared(in: StopHost.self).named(\"port\").value(…), or assign it a value "
        + "first (a didSet that uses oldValue reads the "
        + "property before each assignment).")
  }

  @Test func aReadThatARuleForAConcreteTypeWasMeantForNamesThatRule() async throws {
    // `inject(FittingConsole.self)` selects properties declared `FittingConsole` only; the read said nothing
    // about the rule that was meant for it (review H71).
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(FittingConsole.self).value(FittingConsole())
      _ = FittingDownloader().analytics
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      stderr.contains(
        "InjectPluginTests.FittingDownloader.analytics: InjectPluginTests.FittingAnalytics was read with nothing "
          + "injected or stored: a rule injects FittingConsole, whose values fit it, but a rule by type selects "
          + "the properties declared with that very type; inject it with "
          + "Injection.inject((any FittingAnalytics).self).value(…)"))
  }

  @Test func aGetterAskingForTheStoredValueOfAnEmptyInstanceStopsNamingTheGetter() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(Int.self).declared(in: GetterStopHost.self).named("timeout").getter { _, storage, original in
        original.get(storage) * 2
      }
      _ = GetterStopHost().timeout
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    let firstLine = stderr.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
    // Not "nothing injected": a getter is injected, and it is what asked for the missing value.
    #expect(
      firstLine
        == "InjectPluginTests.GetterStopHost.timeout: Swift.Int was read with nothing stored, and its injection "
        + "(getter) asked for the stored value with original.get: give the instance a value first, or have the "
        + "injection return one of its own when the storage is nil.")
  }

  @Test func insideAScopeTheStopNamesTheGetterTheScopeInjected() async throws {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(Int.self).declared(in: ScopedGetterStopHost.self).value(30)
      try Injection.withOverrides({ lets in
        try lets.inject(Int.self).declared(in: ScopedGetterStopHost.self).getter { _, storage, original in
          original.get(storage)
        }
      }) {
        _ = ScopedGetterStopHost().timeout
      }
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    // Before, it named the process's injection (value), which the scope's getter had replaced.
    #expect(
      stderr.hasPrefix(
        "InjectPluginTests.ScopedGetterStopHost.timeout: Swift.Int was read with nothing "
          + "stored, and its injection (getter) asked"), "\(stderr)")
  }
}

// Stops that said "nothing injected" while a rule was close (review H82).

private final class OptionalRuleDependency: Sendable {}
private final class OptionalRuleHost {
  @Inject var dependency: OptionalRuleDependency
}

@Test func aReadThatARuleForTheOptionalTypeWasMeantForNamesThatRule() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    try Injection.inject(OptionalRuleDependency?.self).value(OptionalRuleDependency())
    _ = OptionalRuleHost().dependency
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  // Before: "…was read with nothing injected or stored: inject it with Injection.inject(…).value(…)".
  #expect(
    message.contains(
      "a rule injects OptionalRuleDependency?, which selects the properties declared with that optional type (a "
        + "rule for OptionalRuleDependency reaches both)"))
}

private final class IsolatedReadDependency: Sendable {}
private final class IsolatedReadHost {
  @Inject var dependency: IsolatedReadDependency
}

@Test func aReadInsideAScopeThatHidesTheProcesssInjectionSaysSo() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    try Injection.inject(IsolatedReadDependency.self).value(IsolatedReadDependency())
    _ = IsolatedReadHost().dependency  // the process's
    try Injection.withIsolatedInjections {
      try Injection.rejectAllInjections()  // in the scope only
      _ = IsolatedReadHost().dependency
    }
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  #expect(message.contains("IsolatedReadHost.dependency"))
  #expect(message.contains("the process injects it, but the read ran inside an override scope or a child injector"))
}

private final class NeverInjectedInScopeDependency: Sendable {}
private final class NeverInjectedInScopeHost {
  @Inject var dependency: NeverInjectedInScopeDependency
}

@Test func aReadInsideAScopeOfAPropertyTheProcessDoesNotInjectHasNoScopeNote() async {
  let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
    Injection.withIsolatedInjections { _ = NeverInjectedInScopeHost().dependency }
  }
  let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  #expect(message.contains("NeverInjectedInScopeHost.dependency"))
  #expect(!message.contains("override scope"))  // before: a note that misled (review H84)
}
