public import InjectionKernel

/// A group of rules added and removed together (OCInject's and Gummi Injection's modules).
///
/// ```swift
/// final class GameModule: InjectionModule {
///   func configure(_ lets: InjectionRules) throws {
///     try lets.inject(GameModel.self).singleton(GameModel.self)
///     try lets.inject((any RemoteService).self).eagerSingleton(GameServer.self)
///   }
///   func unload() { /* close connections */ }
/// }
/// try Injection.addModule(GameModule())
/// try Injection.removeModules(ofType: GameModule.self)
/// ```
///
/// Record the rules on `lets` (a module's rules are the ones its `configure` records there). Removing a
/// module takes back exactly its `@Inject` rules where they are: every rule they shadowed (the app's or
/// another module's, by type, class or name) decides again as before, and what it alone bound is unbound. Rules it recorded for other plugins (`@Lazy`, `@Defaults`,
/// force rules) are not tracked per module and stay; turn them off in ``unload()``. Modules are kept per
/// override scope, like every rule.
public protocol InjectionModule: AnyObject, Sendable {
  /// Records the module's rules.
  func configure(_ lets: InjectionRules) throws

  /// Called when the module is removed: by `Injection.removeModule` before its rules are taken back (so
  /// it can resolve what it bound, to close it), by `rejectAll()` and by the end of the override scope
  /// that added it after they stopped applying. `Injection.restore` can bring a removed module back
  /// without calling ``configure(_:)`` (its rules come back with the snapshot), so a later removal calls
  /// this again: make it safe to repeat.
  func unload()
}

extension InjectionModule {
  /// Does nothing.
  public func unload() {}
}

extension Injection {
  /// Adds `module`: its rules commit as one batch (eager singletons are built then). Adding a module that
  /// is loaded already, or that another thread is adding meanwhile, does nothing: of several threads
  /// adding the same module at once, one configures it (the others return at once, possibly before its
  /// rules apply).
  ///
  /// In an override scope that has ended (a task that outlived its scope, code in an ended child
  /// injector), where commits apply nowhere, it does nothing either: `configure` is not called. A module
  /// whose scope ends while it is being added is unloaded at once (``InjectionModule/unload()`` may then
  /// run twice, as after a restore).
  ///
  /// - Throws: whatever `configure` or the commit throws, and ``ResolutionError/moduleRejectsAll(_:)`` for
  ///   a `configure` that calls `rejectAll()`; nothing is added then. An eager singleton
  ///   whose factory throws is built after the commit: the module is loaded by then and stays (removing
  ///   it takes its rules back), its binding builds on first use, and this throws `BatchAppliedError`
  ///   with the factory's error as its `underlying` error.
  @discardableResult
  public static func addModule(_ module: any InjectionModule) throws -> InjectionPlan {
    let rules = InjectionRules()
    // Claimed, not locked: no lock is held while `configure`, the commit and eager singletons run.
    guard loadedModule(module) == nil, !Injection.overrideScopeHasEnded, let claim = ModuleClaim(.adding, module) else {
      return try commit(rules)
    }
    defer { _ = claim.release() }
    // Checked again under the claim: another thread may have added it between the check and the claim.
    guard loadedModule(module) == nil else { return try commit(rules) }
    rules[ModuleBeingConfigured.self] = ObjectIdentifier(module)
    try rules.recording(module.configure)
    if rules[ModuleRejectsAll.self] { throw ResolutionError.moduleRejectsAll(Injection.typeName(type(of: module))) }
    let id = ObjectIdentifier(module)
    let scope = ContainerState.shared.value.removedInherited[id] ?? Injection.overrideScopeID
    rules.onCommit { ContainerState.shared.update { $0.modules.append((module, scope)) } }
    let plan = try commit(rules)
    // Ended meanwhile: its end may have come before the module was recorded in it, and unloaded nothing.
    if Injection.overrideScopeHasEnded { module.unload() }
    return plan
  }

  /// Calls `module`'s ``InjectionModule/unload()``, then removes its rules, bringing back what they
  /// shadowed. `unload()` runs while the rules still apply, so it can resolve what the module bound — a
  /// service to close, as Gummi Injection's modules do.
  ///
  /// Inside an override scope (a test's, a child injector's) that did not add the module itself, the
  /// removal takes the module's rules back for that scope only and does not call `unload()`: the module
  /// is still loaded where it was added.
  ///
  /// Of several threads removing the same module at once, one removes it (and calls `unload()` once); the
  /// others throw ``ResolutionError/moduleNotLoaded(_:)`` at once, as does a removal from inside its
  /// `unload()`. No lock is held while `unload()` runs.
  ///
  /// - Throws: ``ResolutionError/moduleNotLoaded(_:)`` when it is not loaded;
  ///   `InjectionError.commitWhileRecording` inside a batch being recorded (nothing is called then).
  public static func removeModule(_ module: any InjectionModule) throws {
    try InjectionRules.checkNotRecording()
    guard loadedModule(module) != nil, let claim = ModuleClaim(.removing, module) else {
      throw ResolutionError.moduleNotLoaded(Injection.typeName(type(of: module)))
    }
    // A `rejectAll` that found the module claimed, at any time until the claim is released, left its
    // unload to this removal: done on release if not done here.
    var unloaded = false
    defer { if claim.release(), !unloaded { module.unload() } }
    // Checked again under the claim: another removal, or `rejectAll`, may have removed it between the check
    // and the claim.
    guard let loaded = loadedModule(module) else {
      if claim.wasHandedOver { return }  // removed by `rejectAll`: this removal unloads it
      throw ResolutionError.moduleNotLoaded(Injection.typeName(type(of: module)))
    }
    let removedHere = loaded.addedIn == Injection.overrideScopeID
    if removedHere {
      module.unload()
      unloaded = true
    }
    // Removed meanwhile by `rejectAll()` (which leaves the unload to this removal): nothing left to do —
    // also when another thread has added the module again since: that loading is not this removal's, and
    // taking its rules back would leave it unloaded without its `unload()` (found by review H60).
    let isThisLoading = { !claim.wasHandedOver }
    guard isThisLoading(), loadedModule(module) != nil else { return }
    try removeLoadedModule(module, while: isThisLoading)
  }

  /// `module` as the calling task's container lists it, with the scope that added it.
  private static func loadedModule(_ module: any InjectionModule)
    -> (module: any InjectionModule, addedIn: ObjectIdentifier?)?
  {
    ContainerState.shared.value.modules.first { $0.module === module }
  }

  /// Removes `module`'s rules (for the calling scope alone if it did not add the module): the retractions of
  /// its rules and the replays of the rules that become the newest of their keys once they go, worked out
  /// when the batch commits, under the commit lock (``InjectionRules/recordAtCommit(_:)``), from the very
  /// state the commit changes. (Worked out before the commit, removing modules A and B at once could
  /// replay A's rule, which lay beneath B's, after A's own removal had committed, and bring A's binding
  /// back.) Nothing is removed when, by then, another commit removed the module (`rejectAll()`, a
  /// restored snapshot), or `isThisLoading` says that `rejectAll()` handed its unload to this removal
  /// (a loading of the module found then is another thread's, which this removal leaves alone); both
  /// are decided under the same lock.
  private static func removeLoadedModule(
    _ module: any InjectionModule, while isThisLoading: @escaping () -> Bool
  ) throws {
    let id = ObjectIdentifier(module)
    let scope = Injection.overrideScopeID
    let rules = InjectionRules()
    rules.recordAtCommit { batch in
      // A copy, dropped here: it shares every entry with the state, so dropping it releases nothing.
      var state = ContainerState.shared.value
      guard isThisLoading(), state.modules.contains(where: { $0.module === module }) else { return }
      for change in state.remove(module: id) { change(batch) }
    }
    rules.onCommit {
      guard isThisLoading() else { return }
      let released = ContainerState.shared.update { state -> Any? in
        guard let loaded = state.modules.first(where: { $0.module === module }) else { return nil }
        let entries = state.entries(ownedBy: id)
        let replays = state.remove(module: id)
        if loaded.addedIn != scope { state.removedInherited[id] = loaded.addedIn }
        return (entries, replays)
      }
      Injection.releaseAfterTheCommit(released as Any)
    }
    try commit(rules)
  }

  /// Removes every loaded module of type `type` (see ``removeModule(_:)``), newest first; one that another
  /// thread removes meanwhile is skipped.
  ///
  /// - Throws: ``ResolutionError/moduleNotLoaded(_:)`` when none is loaded (or others removed them all).
  public static func removeModules<Module: InjectionModule>(ofType type: Module.Type) throws {
    let matching = loadedModules.filter { Swift.type(of: $0) == type }
    var removedAny = false
    for module in matching.reversed() {
      do {
        try removeModule(module)
        removedAny = true
      } catch ResolutionError.moduleNotLoaded {
        continue  // removed meanwhile by another thread (found by review H60: the others stayed loaded)
      }
    }
    guard removedAny else { throw ResolutionError.moduleNotLoaded(Injection.typeName(type)) }
  }

  /// The loaded modules, oldest first (as the calling task sees them).
  public static var loadedModules: [any InjectionModule] { ContainerState.shared.value.modules.map(\.module) }
}
