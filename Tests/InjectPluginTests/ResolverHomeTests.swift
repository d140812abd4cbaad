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
