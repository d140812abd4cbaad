import ImperativePlugin
import InjectPlugin
import InjectionKernel
import LazyPlugin

// A tiny app: services are injected once at start-up; view models just declare what they use.

protocol Analytics: AnyObject, Sendable {
  func track(_ event: String)
}

final class ConsoleAnalytics: Analytics {
  func track(_ event: String) { print("  [analytics] \(event)") }
}

final class Settings: Sendable {
  let theme: String
  init(theme: String) { self.theme = theme }
}

final class ProfileViewModel {
  @Inject var settings: Settings
  @Inject var analytics: any Analytics
  @Lazy var recentSearches: [String]

  func open() {
    analytics.track("profile opened with the \(settings.theme) theme")
    recentSearches.append("swift")
  }
}

let early = ProfileViewModel()  // created before anything is injected: it still sees the injections

let plan = try Injection.imperative { lets in
  lets.checkCompleteness(in: ProfileViewModel.self)
  try lets.inject(Settings.self).value(Settings(theme: "dark"))
  try lets.inject((any Analytics).self).shared { ConsoleAnalytics() }
  lets.injectLazy(in: ProfileViewModel.self)
}

print("Committed \(plan.entries.count) injections in one block.")
early.open()
ProfileViewModel().open()
print("recent searches of the early view model: \(early.recentSearches)")
print("\nWhat is injected:\n\(Injection.report())")
if let pass = Injection.catalogPasses.first {
  print("\nFirst catalog pass: \(pass)")
}
