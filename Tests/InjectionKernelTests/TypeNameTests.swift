import InjectionKernel
import Testing

// Fixture types for this file only: every shape of declaration a name is read for.
private final class PrivateNamedClass {}
final class NamedOuter {
  final class Inner {}
  struct InnerStruct {
    enum Deepest {}
  }
}
struct NamedStruct {}
enum NamedEnum {}
final class NamedGeneric<Element> {
  final class Nested {}
}
extension Int {
  fileprivate struct NestedInExtension {}
}
extension NamedStruct {
  fileprivate final class InExtensionOfOwnType {}
}
private protocol NamedProtocol {}

/// What the runtime prints, without its anonymous contexts (`(unknown context at $…).`), which change
/// from run to run: the spelling `Injection.typeName` promises.
private func runtimeSpelling(_ type: Any.Type) -> String {
  var name = _typeName(type, qualified: true)
  while let start = name.range(of: "(unknown context at $") {
    guard let close = name[start.upperBound...].firstIndex(of: ")") else { break }
    var end = name.index(after: close)
    if end < name.endIndex, name[end] == "." { end = name.index(after: end) }
    name.removeSubrange(start.lowerBound..<end)
  }
  return name
}

@Suite struct TypeNameTests {
  @Test func namesReadFromTheContextChainMatchTheRuntimesSpelling() {
    final class LocalClass {}
    struct LocalStruct {}
    let types: [Any.Type] = [
      Int.self, String.self, Int?.self, [String].self, [String: Int].self, (Int, String).self,
      PrivateNamedClass.self, NamedOuter.self, NamedOuter.Inner.self, NamedOuter.InnerStruct.Deepest.self,
      NamedStruct.self, NamedEnum.self, NamedGeneric<Int>.self, NamedGeneric<String>.Nested.self,
      Int.NestedInExtension.self, NamedStruct.InExtensionOfOwnType.self, LocalClass.self, LocalStruct.self,
      (any NamedProtocol).self, (any Sendable).self, Int.Type.self, ((Int) -> String).self,
    ]
    for type in types {
      #expect(Injection.typeName(type) == runtimeSpelling(type))
      #expect(Injection.typeName(type) == runtimeSpelling(type), "the second time, from the cache")
    }
    #expect(Injection.typeName(NamedOuter.Inner.self) == "InjectionKernelTests.NamedOuter.Inner")
    #expect(Injection.typeName(PrivateNamedClass.self) == "InjectionKernelTests.PrivateNamedClass")
    #expect(Injection.typeName(LocalClass.self) == "InjectionKernelTests.TypeNameTests.LocalClass")
  }

  @Test func nearMissesDifferByCaseOrAFewEdits() {
    #expect(Injection.isNearMiss("Fixturs", of: "Fixtures"))  // one deletion
    #expect(Injection.isNearMiss("settigns", of: "settings"))  // a swap of neighbours
    #expect(Injection.isNearMiss("PORT", of: "port"))  // case only
    #expect(Injection.isNearMiss("prot", of: "port"))  // short names: one edit
    #expect(!Injection.isNearMiss("pt", of: "port"))  // short names: two edits are too many
    #expect(!Injection.isNearMiss("Networking", of: "Notes"))
  }
}

private protocol SpelledRepository<Item> {
  associatedtype Item
}
private protocol SpelledStore<Key, Value> {
  associatedtype Key
  associatedtype Value
}

@Test func constrainedExistentialsAreNamedAsWritten() {
  // Before: `any InjectionKernelTests.SpelledRepository<Self.InjectionKernelTests.SpelledRepository.Item ==
  // Swift.String>` (review H82).
  #expect(
    Injection.typeName((any SpelledRepository<String>).self)
      == "any InjectionKernelTests.SpelledRepository<Swift.String>")
  #expect(
    Injection.typeName((any SpelledStore<String, [Int]>).self)
      == "any InjectionKernelTests.SpelledStore<Swift.String, Swift.Array<Swift.Int>>")
}
