import ForcePlugin
import Synchronization
import Testing

// How fills write fields: types checked, retain/release, `let`, weak/unowned, generics, value types.

private final class Service: Sendable {
  let id: Int
  init(id: Int = 0) { self.id = id }
}

/// Counts its deinits through a flag object.
private final class Tracked: Sendable {
  let onDeinit: @Sendable () -> Void
  init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
  deinit { onDeinit() }
}

private final class Flag: @unchecked Sendable {  // written and read on the test's thread only
  var value = false
}

private final class ConstantHost {
  let service = Service(id: 1)
  var other: Service?
}

private final class RetainHost {
  var tracked: Tracked?
}

private final class WeakHost {
  weak var delegate: Service?
  var strong: Service?
}

private final class UnownedHost {
  unowned var owner: Service
  unowned var maybeOwner: Service?
  init(owner: Service) {
    self.owner = owner
    self.maybeOwner = nil
  }
}

private final class UnsafeHost {
  unowned(unsafe) var raw: Service
  init(raw: Service) { self.raw = raw }
}

private protocol Delegate: AnyObject {}
private final class DelegateImpl: Delegate, Sendable {}

private final class AnyObjectHost {
  weak var delegate: AnyObject?
  unowned var owner: AnyObject
  unowned var maybeOwner: AnyObject?
  init(owner: AnyObject) {
    self.owner = owner
    self.maybeOwner = nil
  }
}

private final class GenericVoidHost<Element> {
  var exact: Element
  var label: String?
  init(_ exact: Element) { self.exact = exact }
}

/// Claims, through its mirror, to be an optional holding `payload`.
private struct SpoofedOptional: CustomReflectable, @unchecked Sendable {  // immutable
  let payload: AnyObject
  init(_ payload: AnyObject) { self.payload = payload }
  var customMirror: Mirror { Mirror(self, children: [("some", payload)], displayStyle: .optional) }
}

private struct Unique: ~Copyable {
  var value = 1
}

private final class NoncopyableFieldHost {
  var unique: Unique? = nil
  var count = 0
}

private final class WeakExistentialHost {
  weak var delegate: (any Delegate)?
}

private final class GenericHost<Element> {
  var element: Element?
  var elements: [Element] = []
}

private class GenericBase<Element> {
  var base: Element?
}

private final class GenericChild: GenericBase<String> {
  var own: Int = 0
}

private struct Point {
  var x = 0
}

private enum Direction { case north }

private final class MixedHost {
  var int = 0
  var string = ""
  var optionalInt: Int?
  var array: [String] = []
  var any: Any = 0
  var service: Service = Service()
}

@Suite struct FieldWrites {
  @Test func letFieldsAreNeverWritten() throws {
    let injector = ForceInjector()
    let injected = Service(id: 2)
    try injector.forceInject(in: ConstantHost.self) { _ in .value(injected) }
    let host = ConstantHost()
    let report = try injector.fill(host)
    #expect(host.service.id == 1)
    #expect(host.other === injected)
    #expect(report.injectedNames == ["other"])
  }

  @Test func strongWritesRetainTheNewValueAndReleaseTheOld() throws {
    let injector = ForceInjector()
    let firstGone = Flag()
    let secondGone = Flag()
    let host = RetainHost()
    do {
      let first = Tracked { firstGone.value = true }
      try injector.forceInject(in: RetainHost.self) { _ in .provider { first } }
    }
    try injector.fill(host)
    #expect(!firstGone.value)
    injector.forceRejectAll()  // the rule no longer holds `first`: only the field does
    #expect(!firstGone.value)
    #expect(host.tracked != nil)
    do {
      let second = Tracked { secondGone.value = true }
      try injector.forceInject(in: RetainHost.self) { _ in .value(second) }
    }
    try injector.fill(host)  // overwrites: `first` is released
    #expect(firstGone.value)
    #expect(!secondGone.value)
    injector.forceRejectAll()
    #expect(!secondGone.value)  // held by the field
    host.tracked = nil
    #expect(secondGone.value)
  }

  @Test func weakFieldsKeepWeakSemantics() throws {
    let injector = ForceInjector()
    let host = WeakHost()
    do {
      let service = Service(id: 5)
      try injector.forceInject(in: WeakHost.self) { $0.name == "delegate" ? .value(service) : .skip }
      try injector.fill(host)
      #expect(host.delegate === service)
      injector.forceRejectAll()  // the rule held the value
    }
    #expect(host.delegate == nil)  // the field did not keep it alive
    let property = try #require(Injection.storedProperties(of: WeakHost.self).first { $0.name == "delegate" })
    #expect(Injection.referenceOwnership(of: property) == .weak)
  }

  @Test func weakFieldRefusesAProvidersOwnerlessValue() throws {
    let injector = ForceInjector()
    // Unscoped, so asked at the fill (a scoped rule is refused when added).
    try injector.forceInject {
      $0.isDeclared(in: WeakHost.self) && $0.name == "delegate" ? .provider { Service() } : .skip
    }
    let host = WeakHost()
    let kept = Service(id: 7)
    host.delegate = kept
    // The new value would die as soon as it was written, and the fill would report it injected.
    #expect {
      try injector.fill(host)
    } throws: { error in
      guard case ForceError.unsupportedOwnership(let property, let ownership, _) = error else { return false }
      return ownership == .weak
        && property.hasSuffix("WeakHost.delegate: Swift.Optional<\(Injection.typeName(Service.self))>")
    }
    #expect(host.delegate === kept)  // a fill that throws writes nothing
  }

  @Test func aScopedRuleWithAProviderForAWeakFieldIsRefusedWhenAdded() throws {
    let injector = ForceInjector()
    // Before, the rule was added and every fill of the class threw.
    #expect(throws: ForceError.self) {
      try injector.forceInject(in: WeakHost.self) { $0.name == "delegate" ? .provider { Service() } : .skip }
    }
    let host = WeakHost()
    #expect(!(try injector.fill(host)).didInject)  // the rule was not added
  }

  @Test func serviceBoxSkipsAProvidersOwnerlessValueForAWeakField() {
    let box = ServiceBox(name: "weakFieldBox")
    box.register("delegate") { Service() }
    let host = WeakHost()
    let report = box.fill(host)
    #expect(report.injectedNames.isEmpty)
    guard case .unsupportedOwnership(.weak, _)? = report.skipped.first(where: { $0.name == "delegate" })?.reason else {
      Issue.record("expected the weak field to be skipped, got \(report.skipped)")
      return
    }
  }

  @Test func unownedFieldsDoNotRetain() throws {
    let injector = ForceInjector()
    let original = Service(id: 1)
    let host = UnownedHost(owner: original)
    var replacement = Service(id: 2)
    do {
      let captured = replacement
      try injector.forceInject(in: UnownedHost.self) { _ in .value(captured) }
    }
    let report = try injector.fill(host)
    #expect(report.injectedNames == ["owner", "maybeOwner"])
    injector.forceRejectAll()  // the rule no longer holds the value
    #expect(isKnownUniquelyReferenced(&replacement))  // the two unowned fields hold no strong reference
    #expect(host.owner.id == 2)
    #expect(host.maybeOwner?.id == 2)
    let properties = Injection.storedProperties(of: UnownedHost.self)
    #expect(properties.compactMap(Injection.referenceOwnership(of:)) == [.unowned, .unowned])
  }

  @Test func unownedFieldRefusesAProvidersOwnerlessValue() throws {
    let injector = ForceInjector()
    #expect(throws: ForceError.self) {  // scoped: refused when added
      try injector.forceInject(in: UnownedHost.self) { $0.name == "owner" ? .provider { Service() } : .skip }
    }
    try injector.forceInject {
      $0.isDeclared(in: UnownedHost.self) && $0.name == "owner" ? .provider { Service() } : .skip
    }
    let owner = Service()
    let host = UnownedHost(owner: owner)
    #expect(throws: ForceError.self) { try injector.fill(host) }
    #expect(host.owner === owner)
  }

  @Test func unsafeUnownedFieldsAreRefusedWithATypedError() throws {
    let injector = ForceInjector()
    let kept = Service(id: 1)
    try injector.forceInject { $0.isDeclared(in: UnsafeHost.self) ? .value(Service(id: 2)) : .skip }
    let host = UnsafeHost(raw: kept)
    do {
      try injector.fill(host)
      Issue.record("an unowned(unsafe) field must be refused")
    } catch ForceError.unsupportedOwnership(let property, let ownership, _) {
      #expect(property.hasSuffix("UnsafeHost.raw: \(Injection.typeName(Service.self))"))
      #expect(ownership == .unmanaged)
    }
    #expect(host.raw === kept)
  }

  @Test func anyObjectFieldsAreFilledWeaklyAndUnowned() throws {
    let injector = ForceInjector()
    let original = Service(id: 1)
    let host = AnyObjectHost(owner: original)
    var replacement = Service(id: 2)
    do {
      let captured = replacement
      try injector.forceInject(in: AnyObjectHost.self) { _ in .value(captured) }
    }
    let report = try injector.fill(host)
    #expect(Set(report.injectedNames) == ["delegate", "owner", "maybeOwner"])
    injector.forceRejectAll()  // the rule no longer holds the value
    #expect(isKnownUniquelyReferenced(&replacement))  // none of the three fields holds a strong reference
    #expect(host.delegate === replacement && host.owner === replacement && host.maybeOwner === replacement)
    // The same through a service box, by name.
    let box = ServiceBox(name: "anyObjectBox")
    let other = Service(id: 3)
    box.register(other, as: "delegate")
    #expect(box.fill(host).injectedNames == ["delegate"])
    #expect(host.delegate === other)
  }

  @Test func anyObjectFieldsTakeClassInstancesOnly() throws {
    let injector = ForceInjector()
    // A value type casts to AnyObject in a box nothing keeps: before, the unowned field was left
    // dangling and the weak one read nil.
    #expect(throws: ForceError.self) {
      try injector.forceInject(in: AnyObjectHost.self) { $0.name == "owner" ? .value(42) : .skip }
    }
    #expect(throws: ForceError.self) {
      try injector.forceInject(in: AnyObjectHost.self) { $0.name == "delegate" ? .value("text") : .skip }
    }
  }

  @Test func weakAndUnownedFieldsTakeAnOptionalHoldingAnInstance() throws {
    let injector = ForceInjector()
    let kept = Service(id: 3)
    let wrapped: Service? = kept
    let owner = Service(id: 1)
    try injector.forceInject(in: UnownedHost.self) { $0.name == "owner" ? .value(wrapped as Any) : .skip }
    let host = UnownedHost(owner: owner)
    try injector.fill(host)
    #expect(host.owner === kept)  // refused by the first AnyObject fix
    let anyHost = AnyObjectHost(owner: owner)
    let box = ServiceBox(name: "wrappedBox")
    box.register(wrapped as Any, as: "delegate")
    #expect(box.fill(anyHost).injectedNames == ["delegate"])
    #expect(anyHost.delegate === kept)
  }

  @Test func weakAndUnownedFieldsTakeNilAndRefuseAValueThatOnlyClaimsToBeAnOptional() throws {
    let injector = ForceInjector()
    let owner = Service(id: 1)
    let host = AnyObjectHost(owner: owner)
    host.delegate = owner
    host.maybeOwner = owner
    let none: Service? = nil
    try injector.forceInject(in: AnyObjectHost.self) { $0.name == "owner" ? .skip : .value(none as Any) }
    try injector.fill(host)  // before, nil was refused with "Optional<…> … holds Optional<…>"
    #expect(host.delegate == nil && host.maybeOwner == nil)
    // A struct whose mirror says it is an optional holding an instance is still a struct.
    #expect(throws: ForceError.self) {
      try injector.forceInject(in: AnyObjectHost.self) { $0.name == "owner" ? .value(SpoofedOptional(owner)) : .skip }
    }
  }

  @Test func fieldsOfAGenericParameterThatIsVoidAreListed() {
    #expect(Injection.storedProperties(of: GenericVoidHost<Void>.self).map(\.name) == ["exact", "label"])
  }

  @Test func fieldsOfANoncopyableTypeAreNotOffered() throws {
    let injector = ForceInjector()
    let offered = Mutex<[String]>([])
    try injector.forceInject { property in
      if property.isDeclared(in: NoncopyableFieldHost.self) { offered.withLock { $0.append(property.name) } }
      return property.isDeclared(in: NoncopyableFieldHost.self) && property.name == "count" ? .value(3) : .skip
    }
    let host = NoncopyableFieldHost()
    try injector.fill(host)
    #expect(offered.withLock { $0 } == ["count"])
    #expect(host.count == 3 && host.unique == nil)
    #expect(Injection.storedProperties(of: NoncopyableFieldHost.self).map(\.name) == ["count"])
  }

  @Test func weakExistentialFieldsAreRefused() throws {
    let injector = ForceInjector()
    let delegate = DelegateImpl()
    // A scoped rule is checked at once: it is refused and not added.
    do {
      try injector.forceInject(in: WeakExistentialHost.self) { _ in .value(delegate) }
      Issue.record("a weak existential field must be refused")
    } catch ForceError.unsupportedOwnership(let property, let ownership, let reason) {
      #expect(property.contains("WeakExistentialHost.delegate: Swift.Optional<"))
      #expect(ownership == .weak)
      #expect(reason.contains("protocol type"))
    }
    let host = WeakExistentialHost()
    #expect(!(try injector.fill(host)).didInject)
    #expect(host.delegate == nil)
  }

  @Test func valueTypesAreRefusedWithATypedError() throws {
    let injector = ForceInjector()
    #expect(throws: ForceError.notAClass(type: Injection.typeName(Point.self))) { try injector.fill(Point()) }
    #expect(throws: ForceError.notAClass(type: Injection.typeName(Direction.self))) {
      try injector.fill(Direction.north)
    }
    #expect(throws: ForceError.self) { try ServiceBox().fill(Point()) }
  }

  @Test func genericClassesAreFilledPerSpecialization() throws {
    let injector = ForceInjector()
    try injector.forceInject { property in
      if property.declaringClass == GenericHost<Int>.self {
        return property.name == "element" ? .value(7) : .value([1, 2])
      }
      if property.declaringClass == GenericHost<String>.self, property.name == "element" { return .value("seven") }
      if property.isDeclared(in: GenericChild.self) { return .value(3) }
      if property.isDeclared(in: GenericBase<String>.self) { return .value("base") }
      return .skip
    }
    let ints = GenericHost<Int>()
    let strings = GenericHost<String>()
    let child = GenericChild()
    try injector.fill(ints)
    try injector.fill(strings)
    try injector.fill(child)
    #expect(ints.element == 7 && ints.elements == [1, 2])
    #expect(strings.element == "seven" && strings.elements.isEmpty)
    #expect(child.base == "base" && child.own == 3)
  }

  @Test func valuesOfEveryShapeAreWrittenWithTheirExactType() throws {
    let injector = ForceInjector()
    let service = Service(id: 9)
    try injector.forceInject(in: MixedHost.self) { property in
      switch property.name {
      case "int": return .value(42)
      case "string": return .value("text")
      case "optionalInt": return .value(5)  // the wrapped type fits an optional
      case "array": return .value(["a", "b"])
      case "any": return .value(Service(id: 1))
      case "service": return .value(service)
      default: return .skip
      }
    }
    let host = MixedHost()
    try injector.fill(host)
    #expect(host.int == 42 && host.string == "text" && host.optionalInt == 5 && host.array == ["a", "b"])
    #expect((host.any as? Service)?.id == 1)
    #expect(host.service === service)
  }
}
