import Foundation
import InjectPlugin
import InjectionTesting
import Testing

// A child injector or scope that removes a module the process loaded, after the process changed the rules
// the scope's copy of the container's bookkeeping inherited (which it holds weakly). Each test has its own
// fixture types and classes.

private struct RemovedValue: Sendable { let text: String }
private struct RemovedValueStruct {
  @Inject var value: RemovedValue?
}
private final class RemovedValueClass {
  @Inject var value: RemovedValue?
}
private final class TypeAloneModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(RemovedValue.self).value(RemovedValue(text: "module"))
  }
}

@Test func aChildRemovingAModuleAfterTheProcessReinjectedTheTypeSeesTheProcesssValue() throws {
  try Injection.inject(RemovedValue.self).value(RemovedValue(text: "app1"))
  let module = TypeAloneModule()
  try Injection.addModule(module)
  defer { try? Injection.removeModule(module) }
  let child = try Injection.childInjector { lets in try lets.inject(Int8.self).value(1) }
  defer { child.end() }
  try Injection.inject(RemovedValue.self).value(RemovedValue(text: "app2"))
  try child.run { try Injection.removeModule(module) }
  // Struct and static properties read what the process holds now, as class properties do (before, the
  // struct read nothing: the child set "nothing" for the type in its own layer).
  #expect(child.run { RemovedValueStruct().value?.text } == "app2")
  #expect(child.run { RemovedValueClass().value?.text } == "app2")
}

private final class ReloadedValue: Sendable {
  let text: String
  init(_ text: String) { self.text = text }
}
private final class ReloadedHost {
  @Inject var reloaded: ReloadedValue?
}
private final class ReloadedModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(ReloadedValue?.self).declared(in: ReloadedHost.self).value(ReloadedValue("module"))
  }
}

@Test func aChildRemovingAModuleTheProcessReloadedTakesBackItsRules() throws {
  try Injection.inject(ReloadedValue?.self).declared(in: ReloadedHost.self).value(ReloadedValue("app"))
  let module = ReloadedModule()
  try Injection.addModule(module)
  let child = try Injection.childInjector { lets in try lets.inject(Int16.self).value(1) }
  defer { child.end() }
  try Injection.removeModule(module)
  try Injection.addModule(module)
  defer { try? Injection.removeModule(module) }
  try child.run { try Injection.removeModule(module) }
  #expect(child.run { ReloadedHost().reloaded?.text } == "app")
  #expect(ReloadedHost().reloaded?.text == "module")  // the process keeps its module
}

private struct OlderModuleValue: Sendable { let text: String }
private struct OlderModuleStruct {
  @Inject var value: OlderModuleValue?
}
private final class OlderModuleClass {
  @Inject var value: OlderModuleValue?
}
private final class OlderValueModule: InjectionModule {
  let text: String
  init(_ text: String) { self.text = text }
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(OlderModuleValue.self).value(OlderModuleValue(text: text))
  }
}

@Test func aChildRemovingAModuleAfterTheProcessRemovedAnOlderOneSeesTheAppsValue() throws {
  // The child's copy knew the older module's rule, which the process let go of when it removed that module:
  // taking it for a rule the process replaced showed the process's structs' value — the module the child
  // had just removed (review H81).
  try Injection.inject(OlderModuleValue.self).value(OlderModuleValue(text: "app"))
  let older = OlderValueModule("older")
  let newer = OlderValueModule("newer")
  try Injection.addModule(older)
  try Injection.addModule(newer)
  defer { try? Injection.removeModule(newer) }
  let child = try Injection.childInjector { lets in try lets.inject(Int32.self).value(1) }
  defer { child.end() }
  try Injection.removeModule(older)
  try child.run { try Injection.removeModule(newer) }
  #expect(child.run { OlderModuleStruct().value?.text } == "app")
  #expect(child.run { OlderModuleClass().value?.text } == "app")
}
