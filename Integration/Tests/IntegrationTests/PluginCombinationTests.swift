import AuditPlugin
import ImperativePlugin
import InjectPlugin
import InjectionKernel
import LazyPlugin
import Testing

// Plugins together: each class mixes markers of several plugins, configured in one imperative block.

private final class Weather: Sendable {
  let city: String
  init(city: String) { self.city = city }
}

private final class Dashboard {
  @Inject var weather: Weather
  @Lazy var widgets: [String]
  @Audited var title: String = "Home"
}

private class BaseScreen {
  @Inject var locale: String
  @Audited var visits: Int = 0
}

private final class DetailScreen: BaseScreen {
  @Lazy var history: [Int]
  @Inject var weather: Weather?
}

private class IncompleteBase {
  @Inject var locale: String
}

private final class IncompleteScreen: IncompleteBase {
  @Lazy var history: [Int]
}

@Suite struct PluginCombinationTests {
  @Test func threePluginsInOneBlockOnePass() throws {
    let log = AuditLog()
    let plan = try Injection.imperative { lets in
      lets.checkCompleteness(in: Dashboard.self)
      try lets.inject(Weather.self).declared(in: Dashboard.self).value(Weather(city: "Oslo"))
      lets.injectLazy(in: Dashboard.self)
      lets.audit(log, in: Dashboard.self)
    }
    #expect(plan.catalogPasses == 1)
    #expect(Set(plan.entries.compactMap(\.property.plugin)) == [InjectPlugin.id, LazyPlugin.id, AuditPlugin.id])
    let dashboard = Dashboard()
    #expect(dashboard.weather.city == "Oslo")
    #expect(dashboard.widgets.isEmpty)
    #expect(dashboard.title == "Home")
    #expect(dashboard.title == "Home")
    #expect(log.reads(of: "title") == 2)
  }

  @Test func subclassMixesInheritedAndOwnMarkers() throws {
    let log = AuditLog()
    try Injection.imperative { lets in
      lets.checkCompleteness(in: DetailScreen.self)
      try lets.inject(String.self).declared(in: BaseScreen.self).value("nb_NO")
      try lets.inject(Weather?.self).declared(in: DetailScreen.self).value(Weather(city: "Bergen"))
      lets.injectLazy(in: DetailScreen.self)
      lets.audit(log, in: BaseScreen.self)
    }
    let screen = DetailScreen()
    #expect(screen.locale == "nb_NO")
    #expect(screen.weather?.city == "Bergen")
    screen.history.append(1)
    #expect(screen.history == [1])
    screen.visits += 1
    #expect(screen.visits == 1)
    #expect(log.reads(of: "visits") == 2)
    #expect(Injection.report().contains("BaseScreen.visits: Swift.Int <- audited (Audit)"))
  }

  @Test func completenessNamesEveryPluginsMissingProperties() throws {
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in
        lets.checkCompleteness(in: IncompleteScreen.self)
        lets.injectLazy(in: IncompleteScreen.self)
      }
    }
    // A dry run runs the same check and returns what it finds instead of throwing.
    let plan = try Injection.imperativeDryRun { lets in
      lets.checkCompleteness(in: IncompleteScreen.self)
      lets.injectLazy(in: IncompleteScreen.self)
    }
    // The inherited property as the scope class's instances read it.
    #expect(
      plan.missing == [
        "IntegrationTests.IncompleteScreen.locale: Swift.String (inherited from IntegrationTests.IncompleteBase) (Inject)"
      ])
    #expect(plan.plan.emptyProperties.contains { $0.declaringClass == IncompleteBase.self && $0.name == "locale" })
  }
}
