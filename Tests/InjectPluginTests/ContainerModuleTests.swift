import Foundation
import InjectPlugin
import InjectionKernel
import Synchronization
import TestSupport
import Testing

// Modules, child injectors, providers per instance, and resolving from many threads. Each test has its
// own fixture types.

private struct Level: Sendable, Equatable { let value: Int }
private protocol RemoteService: AnyObject, Sendable { var name: String { get } }
private final class GameServer: RemoteService, Constructible, Sendable {
  let name = "game"
  init() {}
}
private final class GameModel: Constructible, Sendable { init() {} }

/// Records its unloads.
private final class GameModule: InjectionModule {
  let unloads = Atomic<Int>(0)
  let level: Int
  init(level: Int) { self.level = level }
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(Level.self).value(Level(value: level))
    try lets.inject(GameModel.self).singleton(GameModel.self)
    try lets.inject((any RemoteService).self).eagerSingleton(GameServer.self)
  }
  func unload() { unloads.add(1, ordering: .relaxed) }
}

private final class LevelHost {
  @Inject var level: Level
}

private final class OtherModule: InjectionModule {
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(Level.self).value(Level(value: 99))
  }
}

private protocol ChildEngine: Sendable { var kind: String { get } }
private struct ChildBadge: Sendable { let text: String }

private struct PetrolEngine: ChildEngine, Constructible { let kind = "petrol"; init() {} }
private struct ElectricEngine: ChildEngine, Constructible { let kind = "electric"; init() {} }
private final class ChildWheel: Sendable {}

private final class Ticket: Sendable {}
private final class TicketHost: @unchecked Sendable {  // marked properties only
  @Inject var ticket: Ticket
}

private final class ThreadedSingleton: Sendable {
  static let births = Atomic<Int>(0)
  init() { Self.births.add(1, ordering: .relaxed) }
}
private final class ThreadedProvided: Sendable {}

/// Bound only in the children of one test, never in the process.
private final class EndRaceBadge: Sendable {
  let round: Int
  init(_ round: Int) { self.round = round }
}

/// The distinct object identities threads saw.
private final class Identities: Sendable {
  private let seen = LockedState<Set<ObjectIdentifier>>([])
  func record(_ object: AnyObject) { seen.withLock { _ = $0.insert(ObjectIdentifier(object)) } }
  var count: Int { seen.withLock { $0.count } }
}

private struct Shade: Sendable, Equatable { let name: String }
private final class ShadedHost {
  @Inject var shade: Shade
}
private final class OtherShadedHost {
  @Inject var shade: Shade
}
/// A module whose rules name `ShadedHost` (or, with `byTypeAlone`, the type alone, or reject it).
private final class ShadingModule: InjectionModule {
  enum Kind { case namingTheClass, byTypeAlone, rejectingTheClass }
  let kind: Kind
  init(_ kind: Kind) { self.kind = kind }
  func configure(_ lets: InjectionRules) throws {
    switch kind {
    case .namingTheClass: try lets.inject(Shade.self).declared(in: ShadedHost.self).value(Shade(name: "module"))
    case .byTypeAlone: try lets.inject(Shade.self).value(Shade(name: "module"))
    case .rejectingTheClass: try lets.inject(Shade.self).declared(in: ShadedHost.self).reject()
    }
  }
}

private struct Badge: Sendable { let text: String }
private final class ReAddedHost {
  @Inject var token: Token?
}

private final class BadgeHost {
  @Inject var badge: Badge?
}
private final class BadgeModule: InjectionModule {
  let unloads = Atomic<Int>(0)
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(Badge?.self).declared(in: BadgeHost.self).value(Badge(text: "module"))
  }
  func unload() { unloads.add(1, ordering: .relaxed) }
}

private struct Token: Sendable { let text: String }
private final class TokenHost {
  @Inject var token: Token?
}
/// Injects `TokenHost.token` and counts its unloads.
private func tokenModule() -> ClosureModule {
  ClosureModule { try $0.inject(Token?.self).declared(in: TokenHost.self).value(Token(text: "module")) }
}

private final class CleanedHost {
  @Inject var note: Token?
}
/// Commits in its unload(), as a module turning off its other plugins' rules would.
private func cleaningModule() -> ClosureModule {
  ClosureModule({ _ in }) {
    _ = try? Injection.inject(Token?.self).declared(in: CleanedHost.self).value(Token(text: "unload"))
  }
}

/// A module that records what its closure records, runs `onUnload` when unloaded and counts its unloads.
private final class ClosureModule: InjectionModule {
  let body: @Sendable (InjectionRules) throws -> Void
  let onUnload: @Sendable () -> Void
  let unloads = Atomic<Int>(0)
  init(
    _ body: @escaping @Sendable (InjectionRules) throws -> Void, onUnload: @escaping @Sendable () -> Void = {}
  ) {
    self.body = body
    self.onUnload = onUnload
  }
  func configure(_ lets: InjectionRules) throws { try body(lets) }
  func unload() {
    unloads.add(1, ordering: .relaxed)
    onUnload()
  }
}

private struct Layer: Sendable, Equatable { let name: String }
private final class LayerHost {
  @Inject var layer: Layer
}
private final class LayerBox<Element> {
  @Inject var layer: Layer
}
private struct LayerStructHost {
  @Inject var layer: Layer
}

private struct Tag: Sendable, Equatable { let name: String }
private final class TagHost {
  @Inject var primary: Tag
}

private struct Mark: Sendable, Equatable { let name: String }
private final class MarkHost {
  @Inject var primary: Mark
}

private struct Stamp: Sendable, Equatable { let name: String }
private final class StampHost {
  @Inject var primary: Stamp
}
private struct Seal: Sendable, Equatable { let name: String }
private final class SealHost {
  @Inject var primary: Seal
}

private struct Glaze: Sendable, Equatable { let name: String }
private final class GlazeHost {
  @Inject var glaze: Glaze
}
private struct Varnish: Sendable, Equatable { let name: String }

private struct Tint: Sendable, Equatable { let name: String }
private final class TintHost {
  @Inject var tint: Tint
}

@Suite struct ContainerModuleTests {
  @Test func modulesAreAddedAndRemovedByInstanceAndByTypeAndToldWhenUnloaded() throws {
    // This test's modules only: tests running beside it add modules of their own to the process, which
    // the scope starts from.
    func ownModules() -> [any InjectionModule] {
      Injection.loadedModules.filter { $0 is GameModule || $0 is OtherModule }
    }
    try Injection.withIsolatedInjections {
      try Injection.inject(Level.self).value(Level(value: 1))
      let module = GameModule(level: 2)
      try Injection.addModule(module)
      #expect(LevelHost().level.value == 2)
      #expect(try Injection.resolve(Level.self).value == 2)
      #expect(try Injection.resolve((any RemoteService).self).name == "game")
      #expect(ownModules().count == 1)

      try Injection.removeModule(module)
      #expect(module.unloads.load(ordering: .relaxed) == 1)
      #expect(LevelHost().level.value == 1)  // what the module shadowed is back
      #expect(try Injection.resolve(Level.self).value == 1)
      #expect(throws: ResolutionError.self) { try Injection.resolve((any RemoteService).self) }  // only it bound this
      #expect(throws: ResolutionError.self) { try Injection.resolve(GameModel.self) }
      #expect(throws: ResolutionError.moduleNotLoaded("InjectPluginTests.GameModule")) {
        try Injection.removeModule(module)
      }

      let first = GameModule(level: 3)
      let second = GameModule(level: 4)
      try Injection.addModule(first)
      try Injection.addModule(OtherModule())
      try Injection.addModule(second)
      #expect(try Injection.resolve(Level.self).value == 4)
      try Injection.removeModules(ofType: GameModule.self)
      #expect(first.unloads.load(ordering: .relaxed) == 1)
      #expect(second.unloads.load(ordering: .relaxed) == 1)
      #expect(try Injection.resolve(Level.self).value == 99)  // the remaining module's
      try Injection.removeModules(ofType: OtherModule.self)
      #expect(try Injection.resolve(Level.self).value == 1)
      #expect(ownModules().isEmpty)
    }
  }

  @Test func aRuleCommittedAfterAModuleOutlivesItsRemoval() throws {
    try Injection.withIsolatedInjections {
      let module = GameModule(level: 5)
      try Injection.addModule(module)
      try Injection.inject(Level.self).value(Level(value: 6))
      try Injection.removeModule(module)
      #expect(try Injection.resolve(Level.self).value == 6)
    }
  }

  @Test(arguments: [false, true])
  func removingAModuleBringsBackTheRulesItsRulesShadowed(inScope: Bool) throws {
    // The process's rules are this test's own classes' (ShadedHost, OtherShadedHost): no other test uses
    // them; the scope variant runs the same steps inside an isolated scope.
    func steps() throws {
      // The app injects by type; the module names the class. Before, removal rejected the class's
      // property: `isInjected` was false and the next read stopped the program.
      try Injection.inject(Shade.self).value(Shade(name: "app"))
      try Injection.addModule(ShadingModule(.namingTheClass))
      #expect(ShadedHost().shade.name == "module")
      try Injection.removeModules(ofType: ShadingModule.self)
      #expect(Injection.isInjected(ShadedHost.self, "shade"))
      #expect(ShadedHost().shade.name == "app")
      #expect(try Injection.resolve(Shade.self).name == "app")

      // The app names the class; the module's rule by type alone is newer and wins until removed.
      try Injection.inject(Shade.self).declared(in: ShadedHost.self).value(Shade(name: "app's class rule"))
      try Injection.addModule(ShadingModule(.byTypeAlone))
      #expect(ShadedHost().shade.name == "module")
      try Injection.removeModules(ofType: ShadingModule.self)
      #expect(ShadedHost().shade.name == "app's class rule")
      #expect(OtherShadedHost().shade.name == "app")

      // A module's rejection hides the app's rules until it is removed.
      try Injection.addModule(ShadingModule(.rejectingTheClass))
      #expect(!Injection.isInjected(ShadedHost.self, "shade"))
      try Injection.removeModules(ofType: ShadingModule.self)
      #expect(ShadedHost().shade.name == "app's class rule")
    }
    if inScope {
      try Injection.withIsolatedInjections { try steps() }
    } else {
      try steps()
    }
  }

  @Test func aScopeRemovingAModuleItDidNotAddDoesNotUnloadIt() throws {
    let module = BadgeModule()
    try Injection.addModule(module)
    try Injection.withIsolatedInjections {
      try Injection.removeModule(module)
      #expect(BadgeHost().badge == nil)  // the module's rules are gone for the scope
      #expect(module.unloads.load(ordering: .relaxed) == 0)  // it is still loaded in the process
      // A module the scope adds and removes is unloaded there.
      let own = BadgeModule()
      try Injection.addModule(own)
      try Injection.removeModule(own)
      #expect(own.unloads.load(ordering: .relaxed) == 1)
    }
    #expect(BadgeHost().badge?.text == "module")
    try Injection.removeModule(module)
    #expect(module.unloads.load(ordering: .relaxed) == 1)
  }

  @Test func aScopeRemovingModulesAddedOutsideItReadsWhatIsLeftEverywhere() throws {
    // Two modules added by the process, removed inside a scope one after the other: every way of reading
    // (an instance, a generic specialization used for the first time, a struct, resolve, a child injector)
    // gets the app's rule. Before, the second removal left the first module's value on instances and
    // resolve answered the second's.
    try Injection.inject(Layer.self).value(Layer(name: "app"))
    let first = ClosureModule { try $0.inject(Layer.self).value(Layer(name: "first")) }
    let second = ClosureModule { try $0.inject(Layer.self).value(Layer(name: "second")) }
    try Injection.addModule(first)
    try Injection.addModule(second)
    try Injection.withIsolatedInjections {
      try Injection.removeModule(second)
      #expect(LayerHost().layer.name == "first")
      try Injection.removeModule(first)
      #expect(Injection.loadedModules.allSatisfy { $0 !== first && $0 !== second })
      #expect(LayerHost().layer.name == "app")
      #expect(LayerBox<Double>().layer.name == "app")  // a specialization met after the removal
      #expect(LayerStructHost().layer.name == "app")
      #expect(try Injection.resolve(Layer.self).name == "app")
      #expect(try Injection.resolve(Layer?.self)?.name == "app")
    }
    #expect(LayerHost().layer.name == "second")  // the process keeps its modules
    let child = try Injection.childInjector { _ in }
    try child.run { try Injection.removeModule(second) }
    #expect(try child.resolve(Layer.self).name == "first")
    #expect(child.run { LayerBox<Int8>().layer.name } == "first")
    try Injection.removeModule(second)
    try Injection.removeModule(first)
    #expect(LayerHost().layer.name == "app")
  }

  @Test func aNamedBindingBeatsTheTypeAloneAgainAfterAModuleNamingItIsRemoved() throws {
    try Injection.inject(Tag.self).value(Tag(name: "type"))
    try Injection.inject(Tag.self, named: "primary").value(Tag(name: "app's primary"))
    let module = ClosureModule { try $0.inject(Tag.self, named: "primary").value(Tag(name: "module's primary")) }
    try Injection.addModule(module)
    try Injection.inject(Tag.self).value(Tag(name: "type, later"))
    #expect(TagHost().primary.name == "module's primary")
    try Injection.removeModule(module)
    #expect(TagHost().primary.name == "app's primary")
    #expect(try Injection.resolve(Tag.self, named: "primary").name == "app's primary")
    #expect(try Injection.resolve(Tag.self).name == "type, later")
  }

  @Test func aScopesViewOfRulesAModuleRemovalReachesIsTheOneTakenAtTheRemoval() throws {
    try Injection.inject(Glaze.self).value(Glaze(name: "app"))
    let module = ClosureModule { try $0.inject(Glaze.self).value(Glaze(name: "module")) }
    let other = ClosureModule { try $0.inject(Varnish.self).value(Varnish(name: "other module")) }
    try Injection.addModule(module)
    try Injection.addModule(other)
    try Injection.withIsolatedInjections {
      try Injection.removeModule(module)
      try Injection.outsideOverrides { try Injection.inject(Glaze.self).value(Glaze(name: "process, later")) }
      #expect(GlazeHost().glaze.name == "app")
      // An unrelated commit into the scope does not refresh the copy (before, it did), nor does the removal
      // of a module with other rules.
      try Injection.inject(Varnish.self).value(Varnish(name: "scope"))
      #expect(GlazeHost().glaze.name == "app")
      try Injection.removeModule(other)
      #expect(GlazeHost().glaze.name == "app")
    }
    #expect(GlazeHost().glaze.name == "process, later")
    try Injection.removeModule(other)
    try Injection.removeModule(module)
  }

  @Test func removingAModuleNamingABindingLeavesANewerClassRuleDeciding() throws {
    try Injection.inject(Mark.self, named: "primary").value(Mark(name: "app's primary"))
    let module = ClosureModule { try $0.inject(Mark.self, named: "primary").value(Mark(name: "module's primary")) }
    try Injection.addModule(module)
    try Injection.inject(Mark.self).declared(in: MarkHost.self).value(Mark(name: "class rule"))
    #expect(MarkHost().primary.name == "class rule")
    try Injection.removeModule(module)
    #expect(MarkHost().primary.name == "class rule")  // the newest rule still decides
    #expect(try Injection.resolve(Mark.self, named: "primary").name == "app's primary")
  }

  @Test func removingAModuleThatRejectedANameBringsBackTheAppsBindingOfIt() throws {
    try Injection.inject(Stamp.self, named: "primary").value(Stamp(name: "app's primary"))
    let module = ClosureModule { try $0.inject(Stamp.self, named: "primary").reject() }
    try Injection.addModule(module)
    try Injection.inject(Stamp.self).value(Stamp(name: "type"))
    try Injection.removeModule(module)
    #expect(StampHost().primary.name == "app's primary")
    #expect(try Injection.resolve(Stamp.self, named: "primary").name == "app's primary")
    #expect(try Injection.resolveAll(Stamp.self).map(\.name).sorted() == ["app's primary", "type"])
  }

  @Test func aRejectionOfANameKeepsItsPlaceWhenANewerModuleBindingItIsRemoved() throws {
    try Injection.inject(Seal.self, named: "primary").value(Seal(name: "app's primary"))
    let rejecting = ClosureModule { try $0.inject(Seal.self, named: "primary").reject() }
    let binding = ClosureModule { try $0.inject(Seal.self, named: "primary").value(Seal(name: "module's")) }
    try Injection.addModule(rejecting)
    try Injection.addModule(binding)
    try Injection.inject(Seal.self).value(Seal(name: "type"))
    try Injection.removeModule(binding)
    // As without the second module: the name is rejected, so the type alone decides.
    #expect(SealHost().primary.name == "type")
    try Injection.removeModule(rejecting)
  }

  @Test func rejectingEveryInjectionRemovesTheLoadedModulesSoAddingOneAgainConfiguresIt() throws {
    let module = BadgeModule()
    try Injection.withIsolatedInjections {
      try Injection.addModule(module)
      #expect(BadgeHost().badge?.text == "module")
      try Injection.rejectAllInjections()
      #expect(BadgeHost().badge == nil)
      // Before, the module stayed listed as loaded, and adding it again did nothing: its rules never came back.
      #expect(!Injection.loadedModules.contains { $0 === module })
      #expect(module.unloads.load(ordering: .relaxed) == 1)
      try Injection.addModule(module)
      #expect(BadgeHost().badge?.text == "module")
    }
  }

  @Test func rejectingEveryInjectionInAScopeRemovesAProcessModuleForTheScopeAloneWithoutUnloadingIt() throws {
    let module = tokenModule()
    try Injection.addModule(module)
    defer { try? Injection.removeModule(module) }
    try Injection.withIsolatedInjections {
      try Injection.rejectAllInjections()
      #expect(!Injection.loadedModules.contains { $0 === module })
      #expect(TokenHost().token == nil)
    }
    #expect(module.unloads.load(ordering: .relaxed) == 0)  // still loaded in the process
    #expect(Injection.loadedModules.contains { $0 === module })
    #expect(TokenHost().token?.text == "module")
  }

  @Test func whatAModulesUnloadCommitsWhenItsScopeEndsAppliesNowhere() throws {
    // unload() runs inside the ended scope: before, its commit reached the process.
    try Injection.withIsolatedInjections { _ = try Injection.addModule(cleaningModule()) }
    #expect(!Injection.isInjected(CleanedHost.self, "note"))
    let child = try Injection.childInjector { _ in }
    try child.run { _ = try Injection.addModule(cleaningModule()) }
    child.end()
    #expect(!Injection.isInjected(CleanedHost.self, "note"))
  }

  @Test func aModuleAScopeAddedIsUnloadedWhenTheScopeEnds() throws {
    // Before, the module's rules ended with the scope and unload() was never called.
    let isolated = tokenModule()
    try Injection.withIsolatedInjections { _ = try Injection.addModule(isolated) }
    #expect(isolated.unloads.load(ordering: .relaxed) == 1)
    let inChild = tokenModule()
    let child = try Injection.childInjector { _ in }
    try child.run { _ = try Injection.addModule(inChild) }
    #expect(inChild.unloads.load(ordering: .relaxed) == 0)
    child.end()
    #expect(inChild.unloads.load(ordering: .relaxed) == 1)
    // A process module that a scope saw is not the scope's to unload.
    let processModule = tokenModule()
    try Injection.addModule(processModule)
    defer { try? Injection.removeModule(processModule) }
    try Injection.withIsolatedInjections {
      try Injection.addModule(tokenModule())  // the scope's own copy of the state holds both
      #expect(Injection.loadedModules.contains { $0 === processModule })
    }
    #expect(processModule.unloads.load(ordering: .relaxed) == 0)
  }

  @Test func addingAModuleInAnEndedScopeConfiguresNothing() throws {
    // Before, configure ran, the rules applied nowhere and no scope end ever called unload(); then the
    // module was silently not added; now the addition throws (review H71).
    let configured = Counter()
    let module = ClosureModule { _ in configured.increment() }
    let child = try Injection.childInjector { _ in }
    child.run {
      child.end()  // what another thread may do while run's body goes on
      #expect(throws: InjectionError.overrideScopeEnded) { try Injection.addModule(module) }
      #expect(!Injection.loadedModules.contains { $0 === module })
    }
    #expect(configured.count == 0)
    #expect(module.unloads.load(ordering: .relaxed) == 0)
    #expect(!Injection.loadedModules.contains { $0 === module })
  }

  @Test func aScopeReAddingAndRemovingAProcessModuleDoesNotUnloadIt() throws {
    // A module of its own: one that another test's process module also injects would race with it (it
    // made aScopeRemovingAModuleItDidNotAddDoesNotUnloadIt read this test's badge now and then).
    let module = ClosureModule {
      try $0.inject(Token?.self).declared(in: ReAddedHost.self).value(Token(text: "re-added"))
    }
    try Injection.addModule(module)
    try Injection.withIsolatedInjections {
      try Injection.removeModule(module)
      try Injection.addModule(module)
      try Injection.removeModule(module)
    }
    #expect(module.unloads.load(ordering: .relaxed) == 0)  // still loaded in the process
    try Injection.removeModule(module)
    #expect(module.unloads.load(ordering: .relaxed) == 1)
  }

  @Test func aModuleMayMakeAChildInjectorInConfigure() throws {
    // The child's rules commit into its own scope, not beside the module's batch: no leak to refuse.
    nonisolated(unsafe) var child: ChildInjector?
    let module = ClosureModule { _ in
      child = try Injection.childInjector { try $0.inject(Tint.self).value(Tint(name: "child")) }
    }
    try Injection.addModule(module)
    #expect(try child?.resolve(Tint.self).name == "child")
    try Injection.removeModule(module)
  }

  @Test func removingAModuleWhoseRuleIsFilteredBringsBackWhatItShadowed() throws {
    try Injection.inject(Tint.self).value(Tint(name: "app"))
    let module = ClosureModule { try $0.inject(Tint.self).filter { $0.name == "tint" }.value(Tint(name: "module")) }
    try Injection.addModule(module)
    #expect(TintHost().tint.name == "module")
    try Injection.removeModule(module)
    #expect(Injection.isInjected(TintHost.self, "tint"))  // before: rejected, and the read stopped
    #expect(TintHost().tint.name == "app")
  }

  @Test func aChildInjectorFallsBackToItsParentAndShadowsIt() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject((any ChildEngine).self).to(PetrolEngine.self)
      try Injection.inject(ChildWheel.self).singleton { _ in ChildWheel() }
      let child = try Injection.childInjector { lets in
        try lets.inject((any ChildEngine).self).to(ElectricEngine.self)
      }
      #expect(try child.resolve((any ChildEngine).self).kind == "electric")
      #expect(try child.resolve(ChildWheel.self) === Injection.resolve(ChildWheel.self))  // falls back
      #expect(try Injection.resolve((any ChildEngine).self).kind == "petrol")  // the parent never sees it

      let grandchild = try child.childInjector { lets in
        try lets.inject(ChildWheel.self).singleton { _ in ChildWheel() }
      }
      #expect(try grandchild.resolve((any ChildEngine).self).kind == "electric")
      #expect(try grandchild.resolve(ChildWheel.self) !== child.resolve(ChildWheel.self))
      #expect(try grandchild.resolve(ChildWheel.self) === grandchild.resolve(ChildWheel.self))
      child.end()
      // Ended: using it is an error (before, resolve silently answered the parent's binding).
      #expect(!child.isActive)
      #expect(throws: ResolutionError.childInjectorEnded) { try child.resolve((any ChildEngine).self) }
      #expect(throws: ResolutionError.childInjectorEnded) { try child.resolveAll((any ChildEngine).self) }
      #expect(throws: ResolutionError.childInjectorEnded) { try child.childInjector { _ in } }
      // Its child ends with it (before, it went on answering the process's bindings).
      #expect(!grandchild.isActive)
      #expect(throws: ResolutionError.childInjectorEnded) { try grandchild.resolve((any ChildEngine).self) }
    }
  }

  @Test func endingAChildEndsTheRulesOfItsChildrenEvenInsideTheirRun() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject((any ChildEngine).self).to(PetrolEngine.self)
      let parent = try Injection.childInjector { lets in
        try lets.inject((any ChildEngine).self).to(ElectricEngine.self)
      }
      let grandchild = try parent.childInjector { lets in
        try lets.inject(ChildBadge.self).value(ChildBadge(text: "grandchild"))
      }
      try grandchild.run { () throws in
        parent.end()
        // Before, the grandchild's own rules went on applying over the process's.
        #expect(!grandchild.isActive)
        #expect(try Injection.resolve((any ChildEngine).self).kind == "petrol")
        #expect(throws: ResolutionError.self) { try Injection.resolve(ChildBadge.self) }
      }
    }
  }

  @Test func makingAChildWhileAnotherThreadEndsTheParentThrowsOrSucceedsButNeverStops() async {
    // Before, the parent's end() between the check and the creation stopped the program.
    await #expect(processExitsWith: .success) {
      for _ in 0..<2000 {
        let parent = try Injection.childInjector { _ in }
        let ender = Thread { parent.end() }
        ender.start()
        var made: [ChildInjector] = []
        for _ in 0..<20 { if let child = try? parent.childInjector({ _ in }) { made.append(child) } }
        while !ender.isFinished { usleep(50) }
        precondition(made.allSatisfy { !$0.isActive }, "a child outlived its ended parent")
      }
    }
  }

  @Test func resolvingWhileAnotherThreadEndsTheChildGivesItsValueOrSaysItEnded() throws {
    // Before, a resolve that the end overtook said "Nothing is bound to …" now and then: the child's rules
    // had stopped applying half-way through it.
    let wrong = Counter()
    for round in 0..<3000 {
      let child = try Injection.childInjector { lets in try lets.inject(EndRaceBadge.self).value(EndRaceBadge(round)) }
      let ender = Thread { child.end() }
      ender.start()
      do {
        if try child.resolve(EndRaceBadge.self).round != round { wrong.increment() }
      } catch ResolutionError.childInjectorEnded {
      } catch {
        wrong.increment()
      }
      while !ender.isFinished { usleep(20) }
    }
    #expect(wrong.count == 0)
  }

  @Test func endingADeepChainOfChildrenNeedsNoDeepStack() async {
    // Before, end() recursed once per level: 2,700 levels overflowed a 512 KB thread stack.
    await #expect(processExitsWith: .success) {
      let ended = Atomic<Bool>(false)
      let thread = Thread {
        var chain = [try! Injection.childInjector { _ in }]
        for _ in 1..<3000 { chain.append(try! chain.last!.childInjector { _ in }) }
        chain[0].end()
        precondition(chain.allSatisfy { !$0.isActive }, "a descendant stayed active")
        ended.store(true, ordering: .releasing)
      }
      thread.stackSize = 256 * 1024
      thread.start()
      while !thread.isFinished { usleep(1000) }
      precondition(ended.load(ordering: .acquiring))
    }
  }

  @Test func aChildInjectorKeepsTheChildItWasMadeInAlive() async throws {
    try await Injection.withIsolatedInjections {
      try Injection.inject((any ChildEngine).self).to(PetrolEngine.self)
      var child: ChildInjector? = try Injection.childInjector { lets in
        try lets.inject((any ChildEngine).self).to(ElectricEngine.self)
      }
      let grandchild = try child!.childInjector { _ in }
      child = nil
      // Before, releasing the child ended it, and the grandchild answered the process's binding.
      #expect(grandchild.isActive)
      #expect(try grandchild.resolve((any ChildEngine).self).kind == "electric")
      // The async form runs under the child's rules across suspension points.
      let kind = try await grandchild.run {
        await Task.yield()
        return try Injection.resolve((any ChildEngine).self).kind
      }
      #expect(kind == "electric")
    }
  }

  @Test func runningInAnEndedChildInjectorStopsSayingSo() async {
    // Before, the body ran under rules that no longer applied, and its commits were lost.
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let child = try Injection.childInjector { _ in }
      child.end()
      child.run { _ = 1 }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("The child injector was used after end() (its own, or that of the child injector"))
  }

  @Test func aProviderBuildsForEveryResolveAndOncePerInstance() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject(Ticket.self).provider { _ in Ticket() }
      #expect(try Injection.resolve(Ticket.self) !== Injection.resolve(Ticket.self))
      let host = TicketHost()
      #expect(host.ticket === host.ticket)  // the instance keeps the value of its first read
      #expect(TicketHost().ticket !== host.ticket)
    }
  }

  /// Threads do not see task-local scopes, so this test binds its own types in the process.
  @Test func resolvingFromEightThreadsBuildsASingletonOnce() throws {
    try Injection.inject(ThreadedSingleton.self).singleton { _ in ThreadedSingleton() }
    try Injection.inject(ThreadedProvided.self).provider { _ in ThreadedProvided() }
    let singletons = Identities()
    let provided = Identities()
    let failures = Counter()
    concurrently(threads: 8) { _ in
      for _ in 0..<200 {
        do {
          singletons.record(try Injection.resolve(ThreadedSingleton.self))
          provided.record(try Injection.resolve(ThreadedProvided.self))
        } catch {
          failures.increment()
        }
      }
    }
    #expect(failures.count == 0)
    #expect(singletons.count == 1)
    #expect(ThreadedSingleton.births.load(ordering: .relaxed) == 1)
    #expect(provided.count > 1)
  }
}
