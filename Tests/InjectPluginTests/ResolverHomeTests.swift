import InjectPlugin
import InjectionKernel
import Testing

// A binding made in a child injector resolves there: the resolver its factory was given, kept by the value
// and used later from outside the child, resolves under the child's rules (found by review H82: a
// coordinator kept from a child resolved the parent's screens when called outside the child). Each test
// has its own types: the process's bindings are shared by tests running in parallel.

private final class HomeScreen: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class HomeCoordinator: @unchecked Sendable {  // immutable; a Resolver is not Sendable (its arguments)
  let resolver: Resolver
  init(_ resolver: Resolver) { self.resolver = resolver }
  func screen() throws -> HomeScreen { try resolver.resolve(HomeScreen.self) }
}

@Test func aResolverKeptFromAChildsFactoryResolvesUnderTheChildAnywhere() throws {
  try Injection.inject(HomeScreen.self).provider { _ in HomeScreen("parent") }
  let child = try Injection.childInjector { lets in
    try lets.inject(HomeScreen.self).provider { _ in HomeScreen("child") }
    try lets.inject(HomeCoordinator.self).singleton { resolver in HomeCoordinator(resolver) }
  }
  let coordinator = try child.resolve(HomeCoordinator.self)
  #expect(try child.run { try coordinator.screen() }.name == "child")
  #expect(try coordinator.screen().name == "child")  // before: "parent"
  #expect(try coordinator.resolver.resolveAll(HomeScreen.self).map(\.name) == ["child"])
  // Inside a child of the child, the grandchild's own bindings decide (they are more specific).
  let grandchild = try child.childInjector { lets in
    try lets.inject(HomeScreen.self).provider { _ in HomeScreen("grandchild") }
  }
  #expect(try grandchild.run { try coordinator.screen() }.name == "grandchild")
  grandchild.end()
  child.end()
  #expect(throws: ResolutionError.childInjectorEnded) { try coordinator.screen() }  // before: "parent"
}

private final class ProcessScreen: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class ProcessCoordinator: @unchecked Sendable {  // immutable; a Resolver is not Sendable (its arguments)
  let resolver: Resolver
  init(_ resolver: Resolver) { self.resolver = resolver }
}

@Test func aResolverOfAProcessBindingResolvesWhereItIsCalled() throws {
  try Injection.inject(ProcessScreen.self).provider { _ in ProcessScreen("process") }
  try Injection.inject(ProcessCoordinator.self).provider { resolver in ProcessCoordinator(resolver) }
  let child = try Injection.childInjector { lets in
    try lets.inject(ProcessScreen.self).provider { _ in ProcessScreen("child") }
  }
  let fromChild = try child.resolve(ProcessCoordinator.self)
  // The process's binding is everybody's: its resolver follows the caller, as before.
  #expect(try child.run { try fromChild.resolver.resolve(ProcessScreen.self) }.name == "child")
  #expect(try fromChild.resolver.resolve(ProcessScreen.self).name == "process")
  child.end()
  #expect(try fromChild.resolver.resolve(ProcessScreen.self).name == "process")
}

private final class EndedHomeScreen: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class EndedHomeCoordinator: @unchecked Sendable {  // immutable; a Resolver is not Sendable
  let resolver: Resolver
  init(_ resolver: Resolver) { self.resolver = resolver }
}

@Test func aResolverOfAnEndedChildThrowsAlsoInTheChildsOwnContext() throws {
  try Injection.inject(EndedHomeScreen.self).value(EndedHomeScreen("parent"))
  let child = try Injection.childInjector { lets in
    try lets.inject(EndedHomeScreen.self).value(EndedHomeScreen("child"))
    try lets.inject(EndedHomeCoordinator.self).singleton { resolver in EndedHomeCoordinator(resolver) }
  }
  let (coordinator, context) = try child.run {
    (try Injection.resolve(EndedHomeCoordinator.self), InjectionContext.current)
  }
  child.end()
  #expect(throws: ResolutionError.childInjectorEnded) { try coordinator.resolver.resolve(EndedHomeScreen.self) }
  // Before: "parent" — the ended child's own context took the shortcut for callers inside it (review H84).
  #expect(throws: ResolutionError.childInjectorEnded) {
    try context.run { try coordinator.resolver.resolve(EndedHomeScreen.self) }
  }
}

private final class EndingDuringCallScreen: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private final class EndingDuringCallCoordinator: @unchecked Sendable {  // immutable; a Resolver is not Sendable
  let resolver: Resolver
  init(_ resolver: Resolver) { self.resolver = resolver }
}

@Test func aChildThatEndsWhileAKeptResolverResolvesMakesTheCallThrow() throws {
  let ending = LockedState<ChildInjector?>(nil)
  try Injection.inject(EndingDuringCallScreen.self).provider { _ in
    ending.withLock { $0 }?.end()  // the child ends while the call runs
    return EndingDuringCallScreen("parent")
  }
  let child = try Injection.childInjector { lets in
    try lets.inject(EndingDuringCallCoordinator.self).singleton { resolver in EndingDuringCallCoordinator(resolver) }
  }
  let coordinator = try child.resolve(EndingDuringCallCoordinator.self)
  ending.withLock { $0 = child }
  // Before: the parent's screen, built after the child had ended (review H84).
  #expect(throws: ResolutionError.childInjectorEnded) {
    try coordinator.resolver.resolve(EndingDuringCallScreen.self)
  }
}
