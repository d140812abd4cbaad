import InjectionKernel

/// The container's bookkeeping beside the rules, a ``ScopedState`` so that override scopes, child
/// injectors and isolated tests each keep their own: the registration order of bindings (for
/// `resolveAll`), the rules each key has received from the app and from each module (so removing a
/// module brings back what it shadowed), the loaded modules, and whether unbound types are built.
struct ContainerState: Sendable {
  /// When a scope ends (a test's, a child injector's), the modules it added are unloaded: their rules
  /// ended with it.
  ///
  /// A scope's copy holds the rules it inherits weakly (``holdingInheritedRulesWeakly()``): a rule the
  /// process replaces while another task's scope is open is released when the process lets go of it.
  static let shared = ScopedState(ContainerState(), scopeCopy: { $0.holdingInheritedRulesWeakly() }) {
    state, scope in
    for (module, addedIn) in state.modules where addedIn == scope { module.unload() }
  }

  /// This state as an override scope's copy starts: every rule it holds is held weakly, so that what a
  /// rule captured (a value, a shared value's holder, a factory) lives as long as the state that recorded
  /// the rule keeps it, not as long as the scope. A rule dropped beneath the scope since is not recorded
  /// again there (what the process holds now shows through in the scope instead); it can still be taken
  /// back, since its `undo` captures its selection only.
  func holdingInheritedRulesWeakly() -> ContainerState {
    var copy = self
    copy.rules = rules.mapValues { $0.map { $0.heldWeakly() } }
    copy.unkeyed = unkeyed.map { $0.heldWeakly() }
    return copy
  }

  /// Whether ``InjectionRules/constructUnboundTypes()`` is on.
  var constructsUnboundTypes = false
  /// Binding names per value type in registration order (`""`: unnamed).
  private(set) var names: [ObjectIdentifier: [String]] = [:]
  /// The rules each key received, oldest first; at most one per owner (the app, each module).
  private(set) var rules: [RuleKey: [RuleEntry]] = [:]
  /// Rules without a key (filtered selections) that modules made, to reject when they are removed.
  private(set) var unkeyed: [RuleEntry] = []
  /// The loaded modules, in the order they were added, each with the override scope that added it
  /// (`Injection.overrideScopeID`; `nil`: the process).
  var modules: [(module: any InjectionModule, addedIn: ObjectIdentifier?)] = []
  /// Modules added outside the override scope this state belongs to and removed inside it, with the
  /// scope that added them: one added again inside keeps that origin, so its removal there does not call
  /// `unload()` on a module still loaded outside.
  var removedInherited: [ObjectIdentifier: ObjectIdentifier?] = [:]

  /// The binding names of each bound type (`""`: the binding by type alone).
  var bindingNamesByType: [ObjectIdentifier: Set<String>] { names.mapValues(Set.init) }

  /// The binding names of `type`, in registration order.
  func bindingNames(of type: Any.Type) -> [String] { names[ObjectIdentifier(type)] ?? [] }

  /// The newest rule of each named binding of `type`, to record again after a rule for the type alone:
  /// a name stays more specific than the type alone, whichever was committed last. With each, its key
  /// and owner, to mark it recorded anew (``touch(_:owner:)``).
  func namedBindingRules(of type: Any.Type)
    -> [(name: String, key: RuleKey, owner: ObjectIdentifier?, replay: @Sendable (InjectionRules) -> Void)]
  {
    let id = ObjectIdentifier(type)
    // A name whose binding was rejected gets the type's binding again: its rejection is not recorded anew.
    return rules.filter { key, stack in
      key.valueType == id && key.isNamedBinding && stack.last?.binding != nil && stack.last?.rejects == false
    }.compactMap { key, stack in
      stack.last.flatMap { entry in entry.replay.map { (key.names[0], key, entry.owner, $0) } }
    }
  }

  /// The modules that hold a rule for `key`.
  func owners(of key: RuleKey) -> [ObjectIdentifier] { rules[key]?.compactMap(\.owner) ?? [] }

  /// Notes that the rule `owner` holds for `key` was recorded again, as the newest rule.
  mutating func touch(_ key: RuleKey, owner: ObjectIdentifier?) {
    guard let index = rules[key]?.lastIndex(where: { $0.owner == owner }) else { return }
    nextSequence += 1
    rules[key]?[index].sequence = nextSequence
  }

  /// Counts recorded rules: an entry's `sequence` is its place in the commit order of the kernel's log.
  private var nextSequence = 0

  /// Records a committed rule; returns the entry it replaces, if any (to release after the commit:
  /// see `Injection.releaseAfterTheCommit(_:)`).
  mutating func record(_ entry: RuleEntry, for key: RuleKey?) -> [RuleEntry] {
    var entry = entry
    nextSequence += 1
    entry.sequence = nextSequence
    var replaced: [RuleEntry] = []
    if let key {
      replaced = Self.push(entry, onto: &rules[key, default: []])  // one lookup, the stack changed in place
    } else if entry.owner != nil {
      unkeyed.append(entry)
    }
    if let binding = entry.binding { setRegistered(binding, !entry.rejects) }
    return replaced
  }

  /// Puts `entry` on top of its key's stack, in place of its owner's older rule, which it returns.
  private static func push(_ entry: RuleEntry, onto stack: inout [RuleEntry]) -> [RuleEntry] {
    let replaced = stack.filter { $0.owner == entry.owner }
    if !replaced.isEmpty { stack.removeAll { $0.owner == entry.owner } }
    stack.append(entry)
    return replaced
  }

  /// The entries of `module`'s rules (what removing it releases).
  func entries(ownedBy module: ObjectIdentifier) -> [RuleEntry] {
    rules.values.flatMap { $0.filter { $0.owner == module } } + unkeyed.filter { $0.owner == module }
  }

  /// Forgets the rules of `module` and returns what to commit so that every property reads what the
  /// remaining rules decide: the module's rules are retracted where they are (they were recorded for the
  /// module, beside the app's and other modules' rules with the same selection, which keep their
  /// places), the type-keyed injection of a type whose newest rule was the module's is the newest
  /// remaining rule's again, and a name whose newest rule was the module's gets its remaining rule (see
  /// the end).
  mutating func remove(module: ObjectIdentifier) -> [@Sendable (InjectionRules) -> Void] {
    var retractions: [@Sendable (InjectionRules) -> Void] = []
    var typeKeyed: [@Sendable (InjectionRules) -> Void] = []
    var namedReplays: [@Sendable (InjectionRules) -> Void] = []
    let removedNames = rules.filter { $0.key.isNamedBinding && $0.value.last?.owner == module }.map(\.key)
    for (key, stack) in rules where stack.contains(where: { $0.owner == module }) {
      let remaining = stack.filter { $0.owner != module }
      rules[key] = remaining.isEmpty ? nil : remaining
      retractions += stack.filter { $0.owner == module }.map(\.undo)
      guard let removedTop = stack.last, removedTop.owner == module else { continue }
      // Structs and statics read the type-keyed injection of the newest remaining rule for the type alone,
      // whichever of its two keys (with optionals or not) holds it: a getter is recorded without optionals,
      // a value with them (before, removing a module's getter left them with nothing, found by review H65).
      if removedTop.isByTypeAlone, let type = key.valueType {
        typeKeyed.append(typeKeyedReplay(forTypeWithID: type, without: module))
      }
      if let top = remaining.last {
        if let binding = top.binding { setRegistered(binding, !top.rejects) }
      } else if let binding = removedTop.binding {
        setRegistered(binding, false)
      }
    }
    // A name whose newest rule was the module's: its remaining rule decides again. It may be older than a
    // rule for the type alone (which recorded the module's rule after itself, names being more specific):
    // it is recorded again as the newest, unless a newer rule that names a class or a property could
    // select the name's properties (it must keep deciding).
    for key in removedNames {
      guard let top = rules[key]?.last, !top.rejects, let replay = top.replay,
        !isShadowedByANarrowerRule(than: top, name: key.names[0], of: key)
      else { continue }
      namedReplays.append(replay)
      touch(key, owner: top.owner)
    }
    retractions += unkeyed.filter { $0.owner == module }.map(\.undo)
    unkeyed.removeAll { $0.owner == module }
    modules.removeAll { ObjectIdentifier($0.module) == module }
    return retractions + typeKeyed + namedReplays
  }

  /// Records what structs and statics read for the type `type` once `module`'s rules are gone: what the
  /// newest remaining rule for the type alone gives (with or without optionals), or nothing when none is
  /// left. In an override scope's copy, a remaining rule the state beneath let go of is passed over when a
  /// module made it (the module was removed there: the next rule decides), and gives way to what lies
  /// beneath when the app made it (the app re-injected or rejected the type there since, which is newer
  /// than anything the copy knows): the scope's own setting for the type is forgotten.
  private func typeKeyedReplay(forTypeWithID type: ObjectIdentifier, without module: ObjectIdentifier)
    -> @Sendable (InjectionRules) -> Void
  {
    let remaining = rules.filter { $0.key.valueType == type }.values.joined()
      .filter { $0.owner != module && $0.isByTypeAlone }
      .sorted { $0.sequence > $1.sequence }
    for entry in remaining {
      if let replay = entry.typeKeyedReplay { return replay }
      if entry.owner == nil { return TypeKeyedInjections.showingBeneath(forTypeWithID: type) }
    }
    return TypeKeyedInjections.setting(nil, forTypeWithID: type)
  }

  /// Whether a rule committed after `entry` names a class or a property and could select the properties
  /// named `name` of the binding's type (rules by type alone do not count: names beat them).
  private func isShadowedByANarrowerRule(than entry: RuleEntry, name: String, of named: RuleKey) -> Bool {
    rules.contains { key, stack in
      guard key != named, key.valueType == nil || key.valueType == named.valueType else { return false }
      guard !key.classes.isEmpty || !key.names.isEmpty else { return false }  // the type alone
      guard key.names.isEmpty || key.names.contains(name) else { return false }
      return stack.contains { $0.sequence > entry.sequence }
    }
  }

  /// Forgets every rule and every loaded module (after `rejectAll`); returns the modules that `scope`
  /// (``Injection/overrideScopeID``) added, to unload, and the forgotten entries, to release after the
  /// commit. Modules added elsewhere are remembered as removed here (see ``removedInherited``).
  mutating func removeAllRules(removingModulesIn scope: ObjectIdentifier?)
    -> (unloaded: [any InjectionModule], released: Any)
  {
    let released: Any = (rules, unkeyed)
    names = [:]
    rules = [:]
    unkeyed = []
    constructsUnboundTypes = false
    for (module, addedIn) in modules where addedIn != scope { removedInherited[ObjectIdentifier(module)] = addedIn }
    defer { modules = [] }
    return (modules.filter { $0.addedIn == scope }.map(\.module), released)
  }

  private mutating func setRegistered(_ binding: BindingKey, _ registered: Bool) {
    var list = names[binding.type] ?? []
    if registered {
      if !list.contains(binding.name) { list.append(binding.name) }
    } else {
      list.removeAll { $0 == binding.name }
    }
    names[binding.type] = list.isEmpty ? nil : list
  }
}

/// What a rule selects by, as the kernel keys rules (a newer rule with the same key replaces an older
/// one): value type, classes, names, and whether optionals are included. Filtered selections have none.
struct RuleKey: Hashable, Sendable {
  // Sorted arrays without duplicates rather than sets: hashing a set hashes each element on its own,
  // and the container looks a key up on every committed rule.
  let valueType: ObjectIdentifier?
  /// The named classes, sorted, each once.
  private(set) var classes: [ObjectIdentifier] = []
  /// The named properties, sorted, each once.
  private(set) var names: [String]
  var includesOptionals = false

  init(valueType: Any.Type?, names: [String]) {
    self.valueType = valueType.map(ObjectIdentifier.init)
    self.names = Self.sortedUnique(names)
  }

  func adding(classes added: [AnyClass]) -> RuleKey {
    var copy = self
    copy.classes = Self.sortedUnique(classes + added.map(ObjectIdentifier.init))
    return copy
  }

  func adding(names added: [String]) -> RuleKey {
    var copy = self
    copy.names = Self.sortedUnique(names + added)
    return copy
  }

  /// Whether the key is a named binding's: a value type and one property name, no class.
  var isNamedBinding: Bool { valueType != nil && classes.isEmpty && names.count == 1 }

  func including(optionals: Bool) -> RuleKey {
    var copy = self
    copy.includesOptionals = optionals
    return copy
  }

  private static func sortedUnique<Element: Comparable>(_ elements: [Element]) -> [Element] {
    guard elements.count > 1 else { return elements }
    var unique: [Element] = []
    for element in elements.sorted() where unique.last != element { unique.append(element) }
    return unique
  }
}

/// A binding's type and name (`""`: unnamed).
struct BindingKey: Hashable, Sendable {
  let type: ObjectIdentifier
  let name: String

  init(type: Any.Type, name: String) {
    self.type = ObjectIdentifier(type)
    self.name = name
  }
}

/// One committed rule as the container remembers it: who made it, how to record it again and how to
/// take it back.
struct RuleEntry: Sendable {
  /// The module that made it; `nil` for the app.
  let owner: ObjectIdentifier?
  /// Whether the rule is a rejection.
  let rejects: Bool
  /// The binding it makes, for a selection by type (and name) alone.
  let binding: BindingKey?
  /// Whether the rule is by type alone (it sets the type-keyed injection of structs and statics).
  let isByTypeAlone: Bool
  /// Its place in the commit order of the kernel's log, set by ``ContainerState`` when it records or
  /// touches the entry.
  var sequence = 0
  /// Records its retraction into a batch: what it shadowed shows again. It captures the rule's selection
  /// only, so every copy holds it: a scope removing a module takes back the module's rules even after the
  /// state beneath let go of the entries it inherited (the module removed and added again there).
  let undo: @Sendable (InjectionRules) -> Void
  /// The rule's other actions, which capture what it injects: held by the state that recorded the rule,
  /// and weakly by an override scope's copy of that state (see ``heldWeakly()``).
  private var actions: ScopeHeld<RuleActions>

  init(
    owner: ObjectIdentifier?, replay: @escaping @Sendable (InjectionRules) -> Void,
    undo: @escaping @Sendable (InjectionRules) -> Void, typeKeyedReplay: (@Sendable (InjectionRules) -> Void)?,
    rejects: Bool, binding: BindingKey?
  ) {
    self.owner = owner
    self.rejects = rejects
    self.binding = binding
    isByTypeAlone = typeKeyedReplay != nil
    self.undo = undo
    actions = ScopeHeld(RuleActions(replay: replay, typeKeyedReplay: typeKeyedReplay))
  }

  /// Records the rule into a batch again; `nil` once the state that recorded it let it go (in a scope's
  /// copy).
  var replay: (@Sendable (InjectionRules) -> Void)? { actions.value?.replay }
  /// For a rule by type alone, records what it did to the type-keyed injection of structs and statics
  /// (set its own, or remove it) into a batch again (`nil` as for ``replay``, and for other rules).
  var typeKeyedReplay: (@Sendable (InjectionRules) -> Void)? { actions.value?.typeKeyedReplay }

  /// The same entry holding its actions weakly, for an override scope's copy of the state.
  func heldWeakly() -> RuleEntry {
    var copy = self
    copy.actions = actions.weakly()
    return copy
  }
}

/// How to record a rule again: the closures capture the rule's injection.
private struct RuleActions: Sendable {
  let replay: @Sendable (InjectionRules) -> Void
  let typeKeyedReplay: (@Sendable (InjectionRules) -> Void)?
}

/// The named bindings recorded into one batch so far, per value type and name (the newest), so that a
/// rule for the type alone later in the same batch records them again after itself: a name stays more
/// specific than the type alone within a batch too.
///
/// `@unchecked Sendable`: filled while the batch is built, on one thread, and read there.
final class BatchNamedBindings: @unchecked Sendable {
  /// Per value type and name, the newest rule the batch made: a binding's, or `nil` for a rejection.
  private var replays: [ObjectIdentifier: [String: (@Sendable (InjectionRules) -> Void)?]] = [:]

  /// Notes a named binding's rule, or (`nil`) that the name was rejected in the batch.
  func note(_ replay: (@Sendable (InjectionRules) -> Void)?, for type: Any.Type, name: String) {
    replays[ObjectIdentifier(type), default: [:]][name] = .some(replay)
  }

  /// Per value type and name, how many unbindings of the name the batch recorded so far.
  private var unbindings: [ObjectIdentifier: [String: Int]] = [:]

  /// Notes an unbinding of `name` (``Injection/inject(_:named:)`` then `reject()`): the batch's own
  /// bindings of the name recorded before it are withdrawn (see ``record(_:in:unlessUnbinding:named:)``).
  func noteUnbinding(of type: Any.Type, named name: String) {
    unbindings[ObjectIdentifier(type), default: [:]][name, default: 0] += 1
  }

  /// Records `record` into `batch` when it commits (at this place among its changes) unless the batch
  /// unbinds `name` after this: a binding of the name made earlier in the batch, or recorded again after a
  /// binding of the type alone, is withdrawn by a later unbinding, which otherwise — a retraction, applied
  /// before the batch's other changes — could not take it back, and the name would read the batch's
  /// binding (or, when the unbinding was recorded as a rejection, nothing) instead of the type's (found by
  /// review H69).
  func record(
    _ record: @escaping (InjectionRules) -> Void, in batch: InjectionRules, unlessUnbinding type: Any.Type,
    named name: String
  ) {
    let id = ObjectIdentifier(type)
    let unbindingsSoFar = unbindings[id]?[name] ?? 0
    batch.recordAtCommit { [self] batch in
      if (unbindings[id]?[name] ?? 0) == unbindingsSoFar { record(batch) }
    }
  }

  /// The names of `type` the batch bound or rejected.
  func notedNames(of type: Any.Type) -> Set<String> {
    Set((replays[ObjectIdentifier(type)] ?? [:]).keys)
  }

  /// The named bindings of `type` the batch made (not those it unbound), by name.
  func replays(of type: Any.Type) -> [(name: String, replay: @Sendable (InjectionRules) -> Void)] {
    (replays[ObjectIdentifier(type)] ?? [:]).sorted { $0.key < $1.key }.compactMap { name, replay in
      replay.map { (name, $0) }
    }
  }
}

/// The batch's ``BatchNamedBindings``, made on first use.
enum BatchNamedBindingsKey: RuleOptionKey {
  static var defaultValue: BatchNamedBindings? { nil }
}

extension InjectionRules {
  /// The named bindings recorded into this batch so far.
  var namedBindings: BatchNamedBindings {
    if let known = self[BatchNamedBindingsKey.self] { return known }
    let made = BatchNamedBindings()
    self[BatchNamedBindingsKey.self] = made
    return made
  }
}

/// The module whose `configure` is recording into a batch (set by ``Injection/addModule(_:)``).
enum ModuleBeingConfigured: RuleOptionKey {
  static let defaultValue: ObjectIdentifier? = nil
}

/// Whether a module's `configure` called `rejectAll()` (``Injection/addModule(_:)`` refuses it).
enum ModuleRejectsAll: RuleOptionKey {
  static let defaultValue = false
}
