import Foundation
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

private final class ClosableService: Sendable {
  let closed = Counter()
  func close() { closed.increment() }
}

private final class ServiceModule: InjectionModule {
  let unloadSaw = LockedState<[String]>([])
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(ClosableService.self).eagerSingleton { _ in ClosableService() }
  }
  func unload() {
    // Gummi Injection's modules close what they bound from their unload.
    do {
      try Injection.resolve(ClosableService.self).close()
      unloadSaw.withLock { $0.append("resolved") }
    } catch {
      unloadSaw.withLock { $0.append("\(error)") }
    }
    do {
      try Injection.removeModule(self)
    } catch ResolutionError.moduleNotLoaded {
      unloadSaw.withLock { $0.append("not loaded") }
    } catch {}
  }
}

@Suite struct ModuleUnloadTests {
  @Test func unloadRunsWhileTheModulesRulesStillApplySoItCanCloseItsService() throws {
    try Injection.withIsolatedInjections {
      let module = ServiceModule()
      try Injection.addModule(module)
      let service = try Injection.resolve(ClosableService.self)
      try Injection.removeModule(module)
      #expect(service.closed.count == 1)
      // A removal from inside unload() finds the module being removed.
      #expect(module.unloadSaw.withLock { $0 } == ["resolved", "not loaded"])
      #expect(throws: ResolutionError.self) { try Injection.resolve(ClosableService.self) }
      #expect(!Injection.loadedModules.contains { $0 === module })
    }
  }
}

private struct HandedOverTool: Sendable { let source: String }
private struct WaitingTool: Sendable { let source: String }

private final class HandedOverModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(HandedOverTool.self).value(HandedOverTool(source: "handed over"))
  }
}

/// Its `configure` has another thread add another module and waits for it (a hop to another queue).
private final class WaitingModule: InjectionModule {
  let other = HandedOverModule()
  let waitedInVain = LockedState(false)
  func configure(_ lets: InjectionRules) throws {
    let added = DispatchSemaphore(value: 0)
    let other = other
    Thread {
      _ = try? Injection.addModule(other)
      added.signal()
    }.start()
    let timedOut = added.wait(timeout: .now() + 5) == .timedOut
    waitedInVain.withLock { $0 = timedOut }
    try lets.inject(WaitingTool.self).value(WaitingTool(source: "waiting"))
  }
}

@Suite struct ModuleWaitTests {
  /// Only the adds and removals of one module wait for each other (before, one process-wide lock held
  /// across `configure` made this wait forever; found by review H53).
  @Test func aModulesConfigureMayWaitForAnotherThreadAddingAnotherModule() throws {
    let module = WaitingModule()
    try Injection.addModule(module)
    #expect(module.waitedInVain.withLock { $0 } == false)
    #expect(try Injection.resolve(HandedOverTool.self).source == "handed over")
    #expect(try Injection.resolve(WaitingTool.self).source == "waiting")
    try Injection.removeModule(module.other)
    try Injection.removeModule(module)
  }
}

private struct WipedTool: Sendable { let source: String }

private final class RejectAllModule: InjectionModule {
  let unloads = Counter()
  func configure(_ lets: InjectionRules) throws { lets.rejectAll() }
  func unload() { unloads.increment() }
}

@Suite struct ModuleRejectAllTests {
  /// Before, the module wiped the app's rules and other modules, and removing it brought nothing back
  /// (review H55).
  @Test func aModuleWhoseConfigureRejectsAllIsRefusedAndNothingIsWiped() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(WipedTool.self).value(WipedTool(source: "app"))
      let module = RejectAllModule()
      #expect(throws: ResolutionError.moduleRejectsAll("InjectPluginTests.RejectAllModule")) {
        try Injection.addModule(module)
      }
      #expect(try Injection.resolve(WipedTool.self).source == "app")
      #expect(!Injection.loadedModules.contains { $0 === module })
      #expect(module.unloads.count == 0)
    }
  }
}
