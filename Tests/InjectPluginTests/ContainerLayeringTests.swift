import InjectPlugin
import Synchronization
import Testing

private protocol LayeredEngine: Sendable { var kind: String { get } }
private struct LayeredPetrol: LayeredEngine { let kind: String }
private struct LayeredElectric: LayeredEngine, Constructible { let kind = "electric" }
private struct LayeredBadge: Sendable { let text: String }
private struct LayeredTint: Sendable { let name: String }
private struct LayeredLater: Sendable { let tag: String }

/// A struct owner: it reads injections by type alone (type-keyed state, layered like the container's).
private struct LayeredStructHolder {
  @Inject var later: LayeredLater?
}

private final class LayeredModule: InjectionModule {
  let tint: String
  init(tint: String) { self.tint = tint }
  func configure(_ lets: InjectionRules) throws { try lets.inject(LayeredTint.self).value(LayeredTint(name: tint)) }
}

private let liveLayeredValues = Atomic<Int>(0)

private final class LayeredValue: Sendable {
  init() { liveLayeredValues.add(1, ordering: .relaxed) }
  deinit { liveLayeredValues.subtract(1, ordering: .relaxed) }
}

/// A child injector's (and an override scope's) container bookkeeping is its own changes on top of what
/// lies beneath it, not a copy made at its first change: the parent's later bindings and modules show
/// through. Each test's parent is an isolated scope of its own, so tests running in parallel do not meet.
@Suite struct ContainerLayeringTests {
  @Test func aChildsResolveAllListsBindingsItsParentMakesAfterTheChildBoundSomething() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject((any LayeredEngine).self, named: "first").value(LayeredPetrol(kind: "first"))
      let child = try Injection.childInjector { lets in
        try lets.inject((any LayeredEngine).self, named: "own").value(LayeredPetrol(kind: "own"))
      }
      try Injection.inject((any LayeredEngine).self, named: "later").value(LayeredPetrol(kind: "later"))
      #expect(try child.resolveAll((any LayeredEngine).self).map(\.kind).sorted() == ["first", "later", "own"])
      #expect(try Injection.resolveAll((any LayeredEngine).self).map(\.kind).sorted() == ["first", "later"])

      // A binding the parent takes back disappears from the child's list too.
      try Injection.inject((any LayeredEngine).self, named: "first").reject()
      #expect(try child.resolveAll((any LayeredEngine).self).map(\.kind).sorted() == ["later", "own"])
    }
  }

  @Test func aBindingByTypeAloneInAChildRecordsAgainTheNamesItsParentBindsNow() throws {
    try Injection.withIsolatedInjections {
      try Injection.inject((any LayeredEngine).self, named: "spare").value(LayeredPetrol(kind: "old spare"))
      let child = try Injection.childInjector { lets in
        try lets.inject(LayeredBadge.self).value(LayeredBadge(text: "child"))
      }
      try Injection.inject((any LayeredEngine).self, named: "spare").value(LayeredPetrol(kind: "new spare"))
      _ = try child.run { try Injection.inject((any LayeredEngine).self).to(LayeredElectric.self) }

      #expect(try child.resolve((any LayeredEngine).self).kind == "electric")
      // The name stays more specific than the child's binding by type alone, with the parent's newest rule.
      #expect(try child.resolve((any LayeredEngine).self, named: "spare").kind == "new spare")
    }
  }

  @Test func aChildSeesModulesItsParentAddsAndRemovesAfterItsOwnChange() throws {
    try Injection.withIsolatedInjections {
      let child = try Injection.childInjector { lets in
        try lets.inject(LayeredBadge.self).value(LayeredBadge(text: "child"))
      }
      let module = LayeredModule(tint: "module")
      try Injection.addModule(module)
      #expect(child.run { Injection.loadedModules.contains { $0 === module } })
      #expect(try child.resolve(LayeredTint.self).name == "module")

      // Removed for the child alone: the parent keeps it.
      try child.run { try Injection.removeModule(module) }
      #expect(!child.run { Injection.loadedModules.contains { $0 === module } })
      #expect(throws: ResolutionError.self) { try child.resolve(LayeredTint.self) }
      #expect(Injection.loadedModules.contains { $0 === module })
      #expect(try Injection.resolve(LayeredTint.self).name == "module")

      try Injection.removeModule(module)
      #expect(!Injection.loadedModules.contains { $0 === module })
    }
  }

  @Test func aModuleTheParentRemovesIsNoLongerListedInTheChild() throws {
    try Injection.withIsolatedInjections {
      let module = LayeredModule(tint: "module")
      try Injection.addModule(module)
      let child = try Injection.childInjector { lets in
        try lets.inject(LayeredBadge.self).value(LayeredBadge(text: "child"))
      }
      try Injection.removeModule(module)
      #expect(!child.run { Injection.loadedModules.contains { $0 === module } })
      #expect(throws: ResolutionError.self) { try child.run { try Injection.removeModule(module) } }
    }
  }

  @Test func aChildThatRebindsAgainAndAgainKeepsOnlyItsNewestValue() throws {
    try Injection.withIsolatedInjections {
      let child = try Injection.childInjector { _ in }
      try child.run {
        for _ in 0..<50 {
          let value = LayeredValue()
          try Injection.inject(LayeredValue.self).value(value)
        }
      }
      // The parent's changes make the child's bookkeeping replay its own: replaced rules are not kept.
      try Injection.inject(LayeredBadge.self).value(LayeredBadge(text: "parent"))
      _ = try child.resolveAll(LayeredValue.self)
      #expect(liveLayeredValues.load(ordering: .relaxed) == 1)
      child.end()
      #expect(liveLayeredValues.load(ordering: .relaxed) == 0)
    }
  }

  @Test func aDeepChainOfChildrenSeesAChangeAtItsRoot() throws {
    try Injection.withIsolatedInjections {
      var chain = [try Injection.childInjector { try $0.inject(LayeredBadge.self).value(LayeredBadge(text: "0")) }]
      for level in 1..<200 {
        chain.append(
          try chain[level - 1].childInjector { try $0.inject(LayeredBadge.self).value(LayeredBadge(text: "\(level)")) })
      }
      try Injection.inject((any LayeredEngine).self, named: "root").value(LayeredPetrol(kind: "root"))
      #expect(try chain[199].resolveAll((any LayeredEngine).self).map(\.kind) == ["root"])
      #expect(try chain[199].resolve(LayeredBadge.self).text == "199")
    }
  }

  @Test func aStructReadInAChildSeesTypesItsParentBindsAfterTheChildBoundOneByTypeAlone() throws {
    try Injection.withIsolatedInjections {
      let child = try Injection.childInjector { lets in
        try lets.inject(LayeredBadge.self).value(LayeredBadge(text: "child"))
      }
      try Injection.inject(LayeredLater.self).value(LayeredLater(tag: "parent"))
      #expect(child.run { LayeredStructHolder().later?.tag } == "parent")
    }
  }
}
