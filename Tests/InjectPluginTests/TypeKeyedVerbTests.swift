import Foundation
import InjectPlugin
import InjectionKernel
import Testing

// What each verb selected by type alone gives `@Inject` properties of structs and `static` properties,
// which read type-keyed injections (no instance to select). Type-keyed rules are process-wide: each test
// binds types no other test binds.

private final class WeakTypeKeyedDelegate: Sendable {}

private struct WeakTypeKeyedStruct {
  @Inject var delegate: WeakTypeKeyedDelegate?
}

/// Swift 6 accepts a wrapped `static var` only on a global-actor-isolated type.
@MainActor private final class WeakTypeKeyedStatic {
  @Inject static var delegate: WeakTypeKeyedDelegate?
}

private final class WeakTypeKeyedClass {
  @Inject var delegate: WeakTypeKeyedDelegate?
}

private struct IfNilReading: Sendable { let degrees: Double }
private struct IfNilThermo: Sendable {
  @Inject var reading: IfNilReading
}

private struct IfNilOptionalReading: Sendable { let degrees: Double }
private struct IfNilOptionalThermo: Sendable {
  @Inject var reading: IfNilOptionalReading?
}
private final class IfNilOptionalClass {
  @Inject var reading: IfNilOptionalReading?
}

private struct GetterReading: Sendable { let degrees: Double }
private struct GetterThermo: Sendable {
  @Inject var reading: GetterReading
}

private struct SetterReading: Sendable { let degrees: Double }
private struct SetterThermo: Sendable {
  @Inject var reading: SetterReading
}

private struct RestoredReading: Sendable { let degrees: Double }
private struct RestoredThermo: Sendable {
  @Inject var reading: RestoredReading
}
private final class RestoredClassThermo {
  @Inject var reading: RestoredReading
}
/// Binds a getter for the type alone (recorded without optionals; the app's value is recorded with them).
private final class GetterReadingModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(RestoredReading.self).getter { _, storage, _ in storage ?? RestoredReading(degrees: 7) }
  }
}

@Suite struct TypeKeyedVerbTests {
  @Test func removingAModulesGetterGivesStructsTheAppsValueAgain() throws {
    // Before, structs and statics were left with nothing, and their next read stopped (review H65).
    try Injection.inject(RestoredReading.self).value(RestoredReading(degrees: 9))
    let module = GetterReadingModule()
    try Injection.addModule(module)
    #expect(RestoredClassThermo().reading.degrees == 7)
    try Injection.removeModule(module)
    #expect(RestoredClassThermo().reading.degrees == 9)
    #expect(RestoredThermo().reading.degrees == 9)
  }

  @MainActor @Test func weakSelectedByTypeAloneReachesStructsAndStaticsWhileTheObjectLives() throws {
    var delegate: WeakTypeKeyedDelegate? = WeakTypeKeyedDelegate()
    weak let released = delegate
    try Injection.inject(WeakTypeKeyedDelegate?.self).weak(try #require(delegate))
    #expect(WeakTypeKeyedClass().delegate === delegate)
    #expect(WeakTypeKeyedStruct().delegate === delegate)  // before: nil, while the class read the object
    #expect(WeakTypeKeyedStatic.delegate === delegate)
    var storing = WeakTypeKeyedStruct()
    let stored = WeakTypeKeyedDelegate()
    storing.delegate = stored
    #expect(storing.delegate === stored)  // a stored value first, as in a class
    delegate = nil
    #expect(released == nil)  // the injection does not keep it alive
    #expect(WeakTypeKeyedStruct().delegate == nil)
    #expect(WeakTypeKeyedStatic.delegate == nil)
    #expect(storing.delegate === stored)
  }

  @Test func ifNilSelectedByTypeAloneStopsAStructReadNamingWhyItDoesNotReachIt() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(IfNilReading.self).ifNil { _ in IfNilReading(degrees: 4.5) }
      _ = IfNilThermo().reading
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    // Before: "…was read with nothing injected or stored: inject it with ….value(…)", though it was.
    #expect(message.contains("an ifNil factory selected by type alone, which reaches only class properties"))
    #expect(message.contains("@Inject InjectPluginTests.IfNilReading outside a class instance"))
  }

  @Test func ifNilSelectedByTypeAloneFillsClassesAndLeavesAnOptionalStructPropertyEmpty() throws {
    try Injection.inject(IfNilOptionalReading.self).ifNil { _ in IfNilOptionalReading(degrees: 2.5) }
    #expect(IfNilOptionalClass().reading?.degrees == 2.5)
    #expect(IfNilOptionalThermo().reading == nil)  // as documented: a struct has no instance to fill
  }

  @Test func aGetterSelectedByTypeAloneStopsAStructReadNamingWhyItDoesNotReachIt() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(GetterReading.self).value(GetterReading(degrees: 1))
      try Injection.inject(GetterReading.self).getter { _, _, _ in GetterReading(degrees: 7.5) }
      _ = GetterThermo().reading
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a getter selected by type alone, which reaches only class properties"))
  }

  @Test func aSetterSelectedByTypeAloneStopsAStructReadNamingWhyItDoesNotReachIt() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.inject(SetterReading.self).setter { _, _, _, _ in }
      _ = SetterThermo().reading
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a setter selected by type alone, which reaches only class properties"))
  }
}
