import ForcePlugin
import InjectPlugin
import Testing

// APServiceBox's behaviours, on boxes that overwrite (the default policy), each test with its own box and
// fixture classes.

private class AnalyticsService: @unchecked Sendable {}  // no state
private final class CountlyAnalytics: AnalyticsService, @unchecked Sendable {}  // no state

private protocol Tracker: AnyObject {}
private final class ConsoleTracker: Tracker, Sendable {}

private final class StorageManager: Sendable {}
private final class PreferenceManager: @unchecked Sendable {  // filled once, before it is shared
  var storageManager: StorageManager?
}

/// A plain stored property (what `@synthesize` produced) and one with observers (hand-written
/// accessors around storage): a fill writes the storage, as DeluxeInjection writes ivars, so the
/// observer does not run.
private final class Screen {
  var analyticsService: AnalyticsService?
  var observedCount = 0
  var handWritten: AnalyticsService? {
    didSet { observedCount += 1 }
  }
  private(set) var privateSetter: AnalyticsService?
  var readPrivateSetter: AnalyticsService? { privateSetter }
}

/// A base class's private field, and a subclass's field of the same name (allowed: the base's is out of
/// the subclass's sight).
private class ShadowBase {
  private var secret: StorageManager?
  var baseSecret: StorageManager? { secret }
}
private final class ShadowSub: ShadowBase {
  var secret: StorageManager?
}
/// A plain field named `_secret` in a subclass is no property wrapper's storage: it shadows nothing.
private class UnderscoreBase {
  var secret: StorageManager?
}
private final class UnderscoreSub: UnderscoreBase {
  var _secret: StorageManager?
}
/// A `lazy var` shadows the name too (its storage field has another name).
private final class LazyShadowSub: ShadowBase {
  lazy var secret: StorageManager? = nil
}

private final class BoxHolder {
  var serviceBox: ServiceBox?
  var otherBox: ServiceBox?
}

private final class TrackerHolder {
  var tracker: (any Tracker)?
}

private class BaseController {
  var analyticsService: AnalyticsService?
}

private final class DetailController: BaseController {
  var title = ""
}

private final class MarkedScreen {
  @Inject var analyticsService: AnalyticsService?
  let constant: AnalyticsService? = nil
}

private final class SelfFillingController {
  var analyticsService: AnalyticsService?
  init(box: ServiceBox) {
    box.fill(self)
  }
}

@Suite struct APServiceBoxBehaviours {
  @Test func synthesizedLikeAndPrivateSetterPropertiesAreFilled() {
    let box = ServiceBox()
    let analytics = AnalyticsService()
    box.register(analytics, as: "analyticsService")
    box.register(analytics, as: "privateSetter")
    let screen = Screen()
    box.fill(screen)
    #expect(screen.analyticsService === analytics)
    #expect(screen.readPrivateSetter === analytics)
  }

  @Test func handWrittenObservedPropertyIsFilledWithoutRunningItsObserver() {
    let box = ServiceBox()
    let analytics = AnalyticsService()
    box.register(analytics, as: "handWritten")
    let screen = Screen()
    box.fill(screen)
    #expect(screen.handWritten === analytics)
    #expect(screen.observedCount == 0)
  }

  @Test func aNameFillsTheSubclassesFieldNotTheShadowedPrivateFieldOfItsSuperclass() throws {
    // Before, one registration wrote both fields, the second one another class's private state.
    let box = ServiceBox()
    box.register(StorageManager(), as: "secret")
    let sub = ShadowSub()
    let report = box.fill(sub)
    #expect(sub.secret != nil)
    #expect(sub.baseSecret == nil)
    #expect(report.injected.count == 1)
    // A force rule's closure sees each field with its declaring class, and picks.
    let forced = ForceInjector()
    try forced.forceInject(in: ShadowBase.self) { property in
      property.name == "secret" && property.declaringClass == ShadowBase.self ? .value(StorageManager()) : .skip
    }
    let filled = ShadowSub()
    try forced.fill(filled)
    #expect(filled.secret == nil)
    #expect(filled.baseSecret != nil)
    let lazySub = LazyShadowSub()
    box.fill(lazySub)
    #expect(lazySub.baseSecret == nil)
    let underscoreSub = UnderscoreSub()
    box.fill(underscoreSub)
    #expect(underscoreSub.secret != nil)  // the base's field is filled: nothing shadows it
    // The base's own instances still have theirs.
    let base = box.fill(ShadowBase())
    #expect(base.injected.count == 1)
  }

  @Test func unknownNameStaysNil() {
    let box = ServiceBox()
    box.register(AnalyticsService(), as: "analytics")  // not the property's name
    let screen = Screen()
    box.fill(screen)
    #expect(screen.analyticsService == nil)
  }

  @Test func theBoxInjectsItself() {
    let box = ServiceBox()
    let holder = BoxHolder()
    box.fill(holder)
    #expect(holder.serviceBox === box)
    #expect(holder.otherBox == nil)
    let named = ServiceBox(name: "otherBox")
    named.fill(holder)
    #expect(holder.otherBox === named)
    #expect(holder.serviceBox === box)  // `named` registered itself under its own name only
  }

  @Test func protocolTypedPropertyReceivesAConformingService() {
    let box = ServiceBox()
    let tracker = ConsoleTracker()
    box.register(tracker, as: "tracker")
    let holder = TrackerHolder()
    box.fill(holder)
    #expect(holder.tracker === tracker)
  }

  @Test func superclassPropertyIsFilledOnASubclassInstance() {
    let box = ServiceBox()
    let analytics = AnalyticsService()
    box.register(analytics, as: "analyticsService")
    box.register("title") { "Details" }
    let controller = DetailController()
    let report = box.fill(controller)
    #expect(controller.analyticsService === analytics)
    #expect(controller.title == "Details")
    #expect(report.injected.first?.contains("BaseController.analyticsService") == true)
  }

  @Test func subclassInstanceFitsASuperclassTypedProperty() {
    let box = ServiceBox()
    let countly = CountlyAnalytics()
    box.register(countly, as: "analyticsService")
    let screen = Screen()
    box.fill(screen)
    #expect(screen.analyticsService === countly)
  }

  @Test func registeredServicesAreFilledFromEachOther() {
    let box = ServiceBox()
    let preferences = PreferenceManager()
    let storage = StorageManager()
    box.register(preferences, as: "preferenceManager")
    box.register(storage, as: "storageManager")
    #expect(preferences.storageManager == nil)
    box.fill(Screen())
    #expect(preferences.storageManager === storage)
  }

  @Test func anObjectFillsItselfInInit() {
    let box = ServiceBox()
    let analytics = AnalyticsService()
    box.register(analytics, as: "analyticsService")
    #expect(SelfFillingController(box: box).analyticsService === analytics)
  }

  @Test func overwriteReplacesAPresetValue() {
    let box = ServiceBox()
    let analytics = AnalyticsService()
    box.register(analytics, as: "analyticsService")
    let screen = Screen()
    screen.analyticsService = AnalyticsService()
    box.fill(screen)
    #expect(screen.analyticsService === analytics)
    let kept = AnalyticsService()
    screen.analyticsService = kept
    box.fill(screen, policy: .onlyIntoEmpty)
    #expect(screen.analyticsService === kept)
  }

  @Test func markedAndLetPropertiesAreSkippedWithTheirReason() {
    let box = ServiceBox()
    box.register(AnalyticsService(), as: "analyticsService")
    box.register(AnalyticsService(), as: "constant")
    let screen = MarkedScreen()
    let report = box.fill(screen)
    #expect(!report.didInject)
    #expect(report.skipReason(for: "analyticsService") == .marked(plugin: "Inject"))
    #expect(report.skipReason(for: "constant") == .immutable)
    #expect(screen.constant == nil)
  }
}
