import InjectPlugin
import TestSupport
import Testing

private struct RacedTool: Sendable { let source: String }

private final class RacedModule: InjectionModule {
  let configures = Counter()
  let unloads = Counter()
  func configure(_ lets: InjectionRules) throws {
    configures.increment()
    try lets.inject(RacedTool.self).value(RacedTool(source: "module"))
  }
  func unload() { unloads.increment() }
}

/// Adding and removing one module from several threads at once. Threads do not inherit override scopes,
/// so these run on the process's container, with a binding type no other test uses.
@Suite struct ModuleConcurrencyTests {
  @Test func threadsAddingAndRemovingOneModuleConfigureAndUnloadItOnce() throws {
    for _ in 0..<10 {
      let module = RacedModule()
      concurrently(threads: 8) { _ in _ = try? Injection.addModule(module) }
      #expect(module.configures.count == 1)
      #expect(Injection.loadedModules.filter { $0 === module }.count == 1)
      #expect(try Injection.resolve(RacedTool.self).source == "module")

      let removed = Counter()
      let notLoaded = Counter()
      concurrently(threads: 8) { _ in
        do {
          try Injection.removeModule(module)
          removed.increment()
        } catch ResolutionError.moduleNotLoaded {
          notLoaded.increment()
        } catch {}
      }
      #expect(removed.count == 1)
      #expect(notLoaded.count == 7)
      #expect(module.unloads.count == 1)
      #expect(!Injection.loadedModules.contains { $0 === module })
    }
  }
}
