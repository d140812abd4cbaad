import Dispatch
import Foundation
import ImperativePlugin
import InjectPlugin
import Synchronization

/// DeluxeInjection's published headline in its exact shape: a fresh process with a catalog fixture
/// loaded runs one `Injection.imperative` block that injects the fixture's marked properties, checked
/// for completeness over the fixture's module. The figure is the wall time of that one call, the
/// kernel's first pass over every image of the process included.
struct HeadlineFigure: Encodable {
  let fixture: String
  /// How the block injects the properties.
  let shape: HeadlineShape
  /// Classes and fields of the images the first pass read (the runner's own and the fixture).
  let classes: Int
  let fields: Int
  /// Properties the block injected.
  let injected: Int
  /// Wall time of `Injection.imperative`, pass included.
  let nanoseconds: UInt64
  /// The part of it the kernel's passes took (their own statistics).
  let passNanoseconds: UInt64
  /// The part of the passes that read the images (finding marked fields), before resolving classes.
  let scanNanoseconds: UInt64
  /// Wall time of the same block run again right after, in the same process.
  let secondBlockNanoseconds: UInt64
}

/// How the headline's block injects the fixture's marked properties.
enum HeadlineShape: String, Encodable, CaseIterable {
  /// One rule per property, each naming its class and property and giving it a value of its own: 150
  /// rules (`lets.inject(Int.self).declared(in: C.self).named("p").value(i)`).
  case rulePerProperty = "rule-per-property"
  /// DeluxeInjection's own shape: one block asked for every property, deciding what each gets — here one
  /// rule whose builder (`InjectionRules.add(to:builder:)`) gives each property of the fixture a value of
  /// its own and skips the others.
  case oneRule = "one-rule"

  /// What the report says the block does.
  var label: String {
    switch self {
    case .rulePerProperty: "one rule per property"
    case .oneRule: "one rule deciding per property, as DeluxeInjection's inject block"
    }
  }
}

/// Opens `path`, touches its pages (an app has by the time it injects) and times the block. Must run
/// first in a fresh process: nothing may have asked the kernel anything before.
func measureHeadline(fixture path: String, shape: HeadlineShape) throws -> HeadlineFigure {
  guard dlopen(path, RTLD_NOW) != nil else {
    throw BenchmarkError.fixture("cannot open \(path): \(String(cString: dlerror()))")
  }
  MappedPages.touch(of: path)
  // libCatalogFixture40000.so holds the module CatalogFixture40000.
  let module = String(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent.dropFirst("lib".count))
  let block = shape == .rulePerProperty ? injectMarkedProperties(ofModule:) : injectMarkedPropertiesByOneRule(ofModule:)
  let start = DispatchTime.now().uptimeNanoseconds
  let injected = try block(module)
  let nanoseconds = DispatchTime.now().uptimeNanoseconds - start
  // The same block again: no image is new and the runtime's caches are warm, so the difference is what
  // the first block paid once (the scan, type metadata made and conformances looked up for the first
  // time, pages touched for the first time).
  let again = DispatchTime.now().uptimeNanoseconds
  _ = try block(module)
  let secondNanoseconds = DispatchTime.now().uptimeNanoseconds - again
  let fixtureProperties = Injection.markedProperties().filter { $0.className.hasPrefix(module) }
  guard injected > 0, fixtureProperties.count == injected, fixtureProperties.allSatisfy(Injection.isInjected) else {
    throw BenchmarkError.fixture("the block did not inject \(path)'s marked properties")
  }
  let passes = Injection.catalogPasses
  return HeadlineFigure(
    fixture: URL(fileURLWithPath: path).lastPathComponent, shape: shape, classes: passes.reduce(0) { $0 + $1.classes },
    fields: passes.reduce(0) { $0 + $1.fields }, injected: injected, nanoseconds: nanoseconds,
    passNanoseconds: passes.reduce(0) { $0 + $1.nanoseconds },
    scanNanoseconds: passes.reduce(0) { $0 + $1.scanNanoseconds }, secondBlockNanoseconds: secondNanoseconds)
}

/// The headline's block: injects every marked property of `module`, checked for completeness over it.
/// Returns how many properties it injected.
private func injectMarkedProperties(ofModule module: String) throws -> Int {
  var injected = 0
  _ = try Injection.imperative { lets in
    lets.checkCompleteness(inModules: module)
    for property in Injection.markedProperties() where property.className.hasPrefix(module) {
      try lets.inject(Int.self).declared(in: property.declaringClass).named(property.name).value(injected)
      injected += 1
    }
  }
  return injected
}

/// The headline's block in DeluxeInjection's shape: one rule for every `Int` property of the `@Inject`
/// plugin, whose builder gives each of `module`'s a value of its own (their count, as the other shape
/// does) and leaves the others alone; checked for completeness over `module`. Returns how many
/// properties it injected.
private func injectMarkedPropertiesByOneRule(ofModule module: String) throws -> Int {
  let injected = InjectedCount()
  _ = try Injection.imperative { lets in
    lets.checkCompleteness(inModules: module)
    lets.add(to: PropertySelection(plugin: InjectPlugin.id).ofType(Int.self)) { property in
      guard property.className.hasPrefix(module) else { return nil }
      let value = injected.count.add(1, ordering: .relaxed).oldValue
      return PropertyInjection<Int>(read: .value(value), summary: "headline value")
    }
  }
  return injected.count.load(ordering: .relaxed)
}

/// How many properties the one-rule block's builder injected.
private final class InjectedCount: Sendable {
  let count = Atomic<Int>(0)
}
