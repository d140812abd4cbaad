import ForcePlugin
import Testing

// OBInjector's behaviours, on boxes that fill only empty properties (`policy: .onlyIntoEmpty`), each test
// with its own box and fixture classes.

private class MyService: @unchecked Sendable {}  // no state
private final class MyExtendedService: MyService, @unchecked Sendable {}  // no state
private final class OtherService: Sendable {}

private protocol FooService: AnyObject {}
private final class FooServiceImpl: FooService, Sendable {}

private final class Holder {
  var myService: MyService?
  var service: MyService?
  var fooService: (any FooService)?
}

private final class DateHolder {
  var currentDate: Stamp?
}

private final class Stamp: Sendable {}

private final class ObservingHolder: FillObserver {
  var myService: MyService?
  var calls = 0
  func didInjectDependencies(_ report: FillReport) { calls += 1 }
}

@Suite struct OBInjectorBehaviours {
  private func makeBox() -> ServiceBox { ServiceBox(policy: .onlyIntoEmpty) }

  @Test func nameAndTypeMatchInjectsTheIdenticalInstance() {
    let box = makeBox()
    let service = MyService()
    box.register(service, as: "myService")
    let holder = Holder()
    box.fill(holder)
    #expect(holder.myService === service)
    #expect(holder.service == nil)  // same type, other name: not injected
  }

  @Test func wrongTypeStaysNil() {
    let box = makeBox()
    box.register(OtherService(), as: "myService")
    let holder = Holder()
    let report = box.fill(holder)
    #expect(holder.myService == nil)
    guard case .typeMismatch(_, let given) = report.skipReason(for: "myService") else {
      Issue.record("expected a type mismatch in \(report)")
      return
    }
    #expect(given == Injection.typeName(OtherService.self))
  }

  @Test func registeredButNotFilledStaysNil() {
    let box = makeBox()
    box.register(MyService(), as: "myService")
    let holder = Holder()
    #expect(holder.myService == nil)
  }

  @Test func aRegisteredNameTheObjectLacksHasNoEffect() {
    let box = makeBox()
    box.register(MyService(), as: "unknownProperty")
    let holder = Holder()
    let report = box.fill(holder)
    #expect(holder.myService == nil && holder.service == nil)
    #expect(!report.didInject)
    #expect(report.skipReason(for: "unknownProperty") == .noSuchProperty)
  }

  @Test func onlyIntoNilKeepsAPresetValue() {
    let box = makeBox()
    box.register(MyService(), as: "myService")
    let preset = MyService()
    let holder = Holder()
    holder.myService = preset
    let report = box.fill(holder)
    #expect(holder.myService === preset)
    #expect(report.skipReason(for: "myService") == .notEmpty)
  }

  @Test func subclassInstanceIsInjected() {
    let box = makeBox()
    let extended = MyExtendedService()
    box.register(extended, as: "myService")
    let holder = Holder()
    box.fill(holder)
    #expect(holder.myService === extended)
  }

  @Test func protocolRegistrationIsInjected() {
    let box = makeBox()
    let foo = FooServiceImpl()
    box.register(foo, as: "fooService")
    let holder = Holder()
    box.fill(holder)
    #expect(holder.fooService === foo)
  }

  @Test func aProviderGivesANewInstanceForEachFill() {
    let box = makeBox()
    box.register("currentDate") { Stamp() }
    let first = DateHolder()
    let second = DateHolder()
    box.fill(first)
    box.fill(second)
    let a = first.currentDate
    #expect(a != nil && second.currentDate != nil && a !== second.currentDate)
  }

  @Test func didInjectIsCalledAfterInjection() {
    let box = makeBox()
    let service = MyService()
    box.register(service, as: "myService")
    let holder = ObservingHolder()
    box.fill(holder)
    #expect(holder.calls == 1)
    #expect(holder.myService === service)
  }

  @Test func didInjectIsNotCalledWhenNothingWasInjected() {
    let box = makeBox()
    box.register(OtherService(), as: "myService")  // wrong type
    let holder = ObservingHolder()
    box.fill(holder)
    #expect(holder.calls == 0)
    holder.myService = MyService()
    box.remove("myService")
    box.register(MyService(), as: "myService")
    box.fill(holder)  // only into nil: the preset stays, nothing injected
    #expect(holder.calls == 0)
  }

  @Test func registeringANameTwiceKeepsTheFirst() {
    let box = makeBox()
    let first = MyService()
    #expect(box.register(first, as: "myService"))
    #expect(!box.register(MyService(), as: "myService"))
    #expect(!box.register("myService") { MyService() })
    let holder = Holder()
    box.fill(holder)
    #expect(holder.myService === first)
  }

  @Test func countCountsRegistrations() {
    let box = makeBox()
    #expect(box.count == 1)  // the box itself
    box.register(MyService(), as: "a")
    box.register("b") { MyService() }
    box.register(MyService(), as: "a")  // ignored
    #expect(box.count == 3)
    #expect(box.names == ["serviceBox", "a", "b"])
  }

  @Test func lookupByName() {
    let box = makeBox()
    let service = MyService()
    box.register(service, as: "myService")
    #expect(box.lookup("myService") as? MyService === service)
    #expect(box.lookup("missing") == nil)
    #expect(box.lookup("serviceBox") as? ServiceBox === box)
    #expect(box.isRegistered("myService") && !box.isRegistered("missing"))
  }

  @Test func deleteByNameAndClear() {
    let box = makeBox()
    box.register(MyService(), as: "myService")
    box.register(MyService(), as: "service")
    #expect(box.remove("myService"))
    #expect(!box.remove("myService"))
    #expect(box.lookup("myService") == nil)
    let holder = Holder()
    box.fill(holder)
    #expect(holder.myService == nil && holder.service != nil)
    let again = MyService()
    #expect(box.register(again, as: "myService"))  // free again
    #expect(box.lookup("myService") as? MyService === again)
    box.removeAll()
    #expect(box.count == 0 && box.lookup("service") == nil)
  }

  @Test func fillBeforeConfigureInjectsNothing() {
    let box = makeBox()
    let early = Holder()
    #expect(!box.fill(early).didInject)
    let service = MyService()
    box.configureOnce { $0.register(service, as: "myService") }
    let late = Holder()
    box.fill(late)
    #expect(early.myService == nil)
    #expect(late.myService === service)
  }

  @Test func configureThreeTimesRunsOnce() {
    let box = makeBox()
    var runs = 0
    #expect(box.configureOnce { _ in runs += 1 })
    #expect(!box.configureOnce { _ in runs += 1 })
    #expect(!box.configureOnce { _ in runs += 1 })
    #expect(runs == 1)
  }
}
