import Foundation
import InjectionKernel
import KernelTestFixtures
import TestSupport
import Testing

// Fixture classes for this file only.
private final class CatalogHost {
  @Tracked var title: String
  @Tracked var score: Int
  let plainLet = 1
  var plainVar = 2
}

private class CatalogBase {
  @Tracked var inherited: Double
}

private final class CatalogSub: CatalogBase {
  @Tracked var own: [String]
}

private final class CatalogGeneric<T> {
  @Tracked var item: T
  @Tracked var label: String
}

private class DescribedHost {
  @Tracked var caption: String
}

private final class DescribedSub: DescribedHost {}

private final class ExplicitHost {
  @Tracked var picked: Int
}

enum CatalogOuter {
  final class Nested {
    @Counted var counter: Int
  }
}

/// A class whose superclass is a Foundation class.
private final class CatalogDecoder: JSONDecoder, @unchecked Sendable {
  @Tracked var hint: String
}

@Suite struct CatalogTests {
  @Test func findsPrivateNestedAndSecondModuleClasses() {
    let all = Injection.markedProperties()
    #expect(all.contains { $0.declaringClass == CatalogHost.self && $0.name == "title" })
    #expect(all.contains { $0.className.hasSuffix("CatalogOuter.Nested") && $0.name == "counter" })
    #expect(all.contains { $0.declaringClass == LibraryHost.self && $0.name == "name" && $0.valueType == String.self })
    #expect(all.contains { $0.declaringClass == LibraryPrivateHost.self && $0.name == "secret" })
    #expect(all.contains { $0.declaringClass == CatalogDecoder.self && $0.name == "hint" })
    // Generic classes are found before any specialization is used.
    let generic = Injection.genericClassesWithMarkedProperties
    #expect(generic.contains("KernelTestFixtures.LibraryBox"))
    #expect(generic.contains { $0.hasSuffix("CatalogGeneric") })
    // Unmarked fields are not cataloged.
    #expect(!all.contains { $0.declaringClass == LibraryHost.self && $0.name == "plain" })
  }

  @Test func reportsNamesOffsetsTypesAndMutability() throws {
    let properties = Injection.declaredProperties(of: CatalogHost.self)
    #expect(properties.map(\.name) == ["title", "score"])
    let title = try #require(properties.first)
    #expect(same(title.valueType, String.self))
    #expect(same(title.fieldType, Tracked<String>.self))
    #expect(title.plugin == TrackedPlugin.id)
    #expect(title.isMutable)
    // Instance layout: 16-byte object header, then two words per wrapper (`MarkedStorage`).
    #expect(properties.map(\.offset) == [16, 32])
  }

  @Test func unmarkedFieldsOnlyWhenAsked() {
    let all = Injection.storedProperties(of: CatalogHost.self)
    #expect(all.map(\.name) == ["title", "score", "plainLet", "plainVar"])
    #expect(all.map(\.isMutable) == [true, true, false, true])
    #expect(all[2].markerType == nil)
    #expect(same(all[3].valueType, Int.self))
    #expect(all[0].plugin == TrackedPlugin.id)
  }

  @Test func listsInheritedPropertiesOnceOnTheDeclaringClass() {
    let sub = Injection.declaredProperties(of: CatalogSub.self)
    let base = Injection.declaredProperties(of: CatalogBase.self)
    #expect(sub.map(\.name) == ["own"])
    #expect(base.map(\.name) == ["inherited"])
    #expect(sub[0].offset > base[0].offset)
    #expect(same(sub[0].valueType, [String].self))
  }

  @Test func genericClassesGetDescriptorsPerSpecialization() {
    let ints = Injection.declaredProperties(of: CatalogGeneric<Int>.self)
    let strings = Injection.declaredProperties(of: CatalogGeneric<String>.self)
    #expect(ints.map(\.name) == ["item", "label"])
    #expect(same(ints[0].valueType, Int.self))
    #expect(same(strings[0].valueType, String.self))
    #expect(same(ints[1].valueType, String.self))
    #expect(same(ints[0].declaringClass, CatalogGeneric<Int>.self))
    let library = Injection.declaredProperties(of: LibraryBox<Float>.self)
    #expect(same(library.first?.valueType, Float.self))
  }

  @Test func secondPassScansNothingNew() {
    _ = Injection.markedProperties()
    let before = Injection.catalogPasses.count
    _ = Injection.properties(of: TrackedPlugin.self)
    _ = Injection.properties(of: CountedPlugin.self)
    _ = Injection.properties(of: FixturePlugin.self)
    // A pass runs only over images loaded since the last one; tests running in parallel may load a
    // library meanwhile (seen: one extra pass in about one run in four), so only such passes may appear.
    #expect(Injection.catalogPasses.dropFirst(before).allSatisfy { $0.images > 0 })
    let first = Injection.catalogPasses.first
    print("first catalog pass of the test process: \(first.map(String.init(describing:)) ?? "none")")
    #expect((first?.images ?? 0) > 0)
    #expect((first?.classes ?? 0) > 0)
  }

  @Test func explicitClassListIsScannedAndImagesStayScannable() {
    // Switching modes is safe while other tests run: what is cataloged stays, and classes are also
    // cataloged on first access whatever the mode.
    Injection.setDiscovery(.classes([ExplicitHost.self]))
    let listed = Injection.markedProperties()
    Injection.setDiscovery(.loadedImages)
    #expect(listed.contains { $0.declaringClass == ExplicitHost.self && $0.name == "picked" })
    #expect(Injection.markedProperties().contains { $0.declaringClass == LibraryHost.self })
  }

  /// Descriptions are made on first use: threads describing one property (and a subclass's view of it)
  /// at once all get the same text.
  @Test func aPropertyDescribedFromManyThreadsAtOnceReadsTheSame() throws {
    let declared = try #require(Injection.declaredProperties(of: DescribedHost.self).first)
    let view = try #require(declared.viewed(from: DescribedSub.self))
    let seen = LockedState<Set<String>>([])
    concurrently(threads: 8) { _ in
      for _ in 0..<200 {
        let texts = [declared.description, view.description]
        seen.withLock { $0.formUnion(texts) }
      }
    }
    #expect(
      seen.withLock { $0 } == [
        "InjectionKernelTests.DescribedHost.caption: Swift.String",
        "InjectionKernelTests.DescribedSub.caption: Swift.String (inherited from InjectionKernelTests.DescribedHost)",
      ])
  }

  @Test func eachPluginReceivesExactlyItsProperties() {
    let tracked = Injection.properties(of: TrackedPlugin.self)
    let counted = Injection.properties(of: CountedPlugin.self)
    let fixture = Injection.properties(of: FixturePlugin.self)
    #expect(tracked.allSatisfy { $0.plugin == TrackedPlugin.id && $0.fieldType is any MarkedPropertyWrapper.Type })
    #expect(counted.map(\.name) == ["counter"])
    #expect(Set(fixture.filter { $0.declaringClass == LibraryHost.self }.map(\.name)) == ["name", "count"])
  }
}

/// Metatype equality (the `#expect` macro cannot compare metatypes with `==` directly).
func same(_ a: Any.Type?, _ b: Any.Type) -> Bool { a.map { $0 == b } ?? false }
