internal import InjectionReadSections

/// A batch of injections and rejections, committed atomically: DeluxeInjection's `DIImperative *lets`.
///
/// Plugins extend this type with their verbs (`lets.inject(Settings.self).value(settings)`,
/// `lets.injectLazy()`); the kernel only records the changes in order and commits them together.
///
/// ```swift
/// let rules = InjectionRules()
/// rules.add(PropertyInjection<Int>(read: .value(42), summary: "value 42"),
///           to: PropertySelection(plugin: TrackedPlugin.id).ofType(Int.self))
/// let result = try Injection.commit(rules)
/// ```
public final class InjectionRules {
  /// One recorded change.
  public enum Change {
    /// Install `injection` into every property the selection matches.
    case inject(PropertySelection, AnyPropertyInjection)
    /// Install, into each property the selection matches, the injection `builder` makes for it
    /// (`nil` leaves the property as it is). Also used for properties met after the commit.
    case injectEach(PropertySelection, InjectionBuilder)
    /// Remove the injection of every property the selection matches.
    case reject(PropertySelection)
    /// Remove every injection of a plugin.
    case rejectAll(PluginID)
    /// Take back the committed rule recorded for the same selection (see ``InjectionRules/retract(_:)``).
    case retract(PropertySelection)

    /// Whether this is a retraction: those take effect before the batch's other changes.
    var isRetraction: Bool {
      if case .retract = self { return true }
      return false
    }
  }

  /// The changes, in the order they were recorded; later ones win.
  public private(set) var changes: [Change] = []
  /// The intent of each change recorded with one, by its position in ``changes``.
  private(set) var intents: [Int: String] = [:]
  private var options: [ObjectIdentifier: Any] = [:]
  /// Whether the batch's rules exist to change what properties read (the rules of a `withOverrides`
  /// scope, a test's override), not also to bind types for a container: a rule by type alone that
  /// reaches no property while properties are declared with a type its values fit is then a mistake.
  var meantForProperties = false
  /// Plugin actions run when the batch commits, after the slots changed (see ``onCommit(_:)``).
  private(set) var commitActions: [() -> Void] = []
  /// Plugin actions run after the batch committed, outside the commit lock (see ``afterCommit(_:)``).
  private(set) var afterCommitActions: [() throws -> Void] = []

  /// An empty batch.
  public init() {}

  /// Whether the calling thread is recording a batch (see ``recording(_:)``).
  static var isRecordingOnThread: Bool { ik_recording_get() > 0 }

  /// Throws ``InjectionError/commitWhileRecording`` when the calling thread is recording a batch (see
  /// ``recording(_:)``). For a plugin's entry point that changes the plugin's state at once without a
  /// kernel commit (ForcePlugin's `Injection.forceInject`): written inside an imperative block, a module's
  /// `configure` or an override's rules where the batch's verb was meant, it would apply apart from the
  /// batch and stay even if the batch failed — the mistake a commit there reports.
  ///
  /// Inside ``Injection/withConsistentReads(_:)`` it throws ``InjectionError/commitInsideConsistentReads``
  /// instead: a change there would make the body run again for ever.
  public static func checkNotRecording() throws {
    if isRecordingOnThread { throw InjectionError.commitWhileRecording }
    if ik_consistent_reads_get() > 0 { throw InjectionError.commitInsideConsistentReads }
  }

  /// Throws ``InjectionError/overrideScopeEnded`` when the calling task outlived its override scope (a
  /// `Task { }` started inside `Injection.withOverrides` that runs on after it), as a commit there does:
  /// what a plugin's entry point changes at once, without a kernel commit (ForcePlugin's
  /// `Injection.forceInject`), would go to the ended scope and apply nowhere. What a scope's end itself
  /// runs in it (a module's `unload()`) may go on.
  public static func checkScopeNotEnded() throws {
    guard let scope = InjectionScope.forChanges, !scope.isActive, !InjectionScope.isTellingEnd else { return }
    throw InjectionError.overrideScopeEnded
  }

  /// Whether the batch's use is over: a commit applied it, or a dry run is done with it. What is recorded on
  /// it afterwards applies nowhere when the batch was handed to code that records on it
  /// (``recording(_:)``), which keeps no batch of its own to use again. (A batch its maker commits may be
  /// filled and committed again.)
  private var isEnded = false
  /// Whether ``recording(_:)`` handed the batch to code that records on it.
  private var wasHandedOut = false
  /// Whether rules recorded now would apply nowhere.
  private var isSealed: Bool { isEnded && wasHandedOut }

  /// Marks the batch's use over: what is recorded on it from now on applies nowhere, when it was handed to
  /// a block (see ``checkNotEnded()``). A commit that applies it calls this; a plugin's dry-run entry point
  /// calls it once its block has returned and the batch is planned (ImperativePlugin's
  /// `imperativeDryRun`). A plan alone does not end a batch: a block may plan its own batch and go on.
  public func markEnded() { isEnded = true }

  /// Throws ``InjectionError/batchEnded`` when the batch was handed to a block (an imperative block or dry
  /// run, a module's `configure`, an override's rules) and then committed, or its dry run is over: a verb called on
  /// it later (the block's `lets`, saved and used after the block returned) would record a rule that
  /// applies nowhere. A plugin's throwing verbs call it before recording; the kernel's own recording
  /// methods, which cannot throw, stop the program at that call with the same message.
  public func checkNotEnded() throws {
    if isSealed { throw InjectionError.batchEnded }
  }

  /// Stops the program when something is being recorded on a sealed batch: the rule would apply nowhere,
  /// and the property would stop later, far from this call (found by review H85: a warning on standard
  /// error, once per batch, and the call went on).
  private func noteRecording() {
    guard isSealed else { return }
    Injection.stop(InjectionError.batchEnded.description)
  }

  /// Runs `record` with this batch, as code that hands a batch to its user does (an imperative block, a
  /// module's `configure`, an override's rules). While it runs, a commit on the same thread throws
  /// ``InjectionError/commitWhileRecording``: `Injection.inject(…)` written where `lets.inject(…)` was
  /// meant would apply at once, apart from the batch, and stay even if the batch failed. Tasks and
  /// threads it starts commit freely (they run apart from the batch anyway), and so does code inside
  /// `Injection.outsideOverrides`.
  public func recording(_ record: (InjectionRules) throws -> Void) rethrows {
    wasHandedOut = true
    let depth = ik_recording_get()
    ik_recording_set(depth + 1)
    defer { ik_recording_set(depth) }
    try record(self)
  }

  /// Runs `body` as if no batch were being recorded on the calling thread (see ``recording(_:)``).
  static func notRecording<Result>(_ body: () throws -> Result) rethrows -> Result {
    let depth = ik_recording_get()
    ik_recording_set(0)
    defer { ik_recording_set(depth) }
    return try body()
  }

  /// Records an injection of the selected properties.
  public func add(_ injection: AnyPropertyInjection, to selection: PropertySelection) {
    noteRecording()
    changes.append(.inject(selection, injection))
  }

  /// Records an injection of the selected properties, as one step of `intent` (see
  /// ``add(to:intent:builder:)``).
  public func add(_ injection: AnyPropertyInjection, to selection: PropertySelection, intent: String) {
    intents[changes.count] = intent
    add(injection, to: selection)
  }

  /// Records a per-property injection as one step of `intent`: rules of a batch that share an intent
  /// agree on what a property gets (a factory registered for a type and every property turned on), so a
  /// property they both select counts once in ``InjectionPlan/Entry/ruleCount`` and is not reported as
  /// selected by several rules. The last rule still decides the injection.
  public func add(to selection: PropertySelection, intent: String, builder: @escaping InjectionBuilder) {
    intents[changes.count] = intent
    add(to: selection, builder: builder)
  }

  /// Records a per-property injection: `builder` is called for each selected property (at commit time,
  /// and later for properties the kernel meets afterwards, such as new generic specializations) and
  /// returns an injection whose value type is the property's, or `nil` to skip it. A builder that
  /// throws makes the commit throw, and nothing is applied (``InjectionError/rejected(property:reason:)``
  /// errors are collected over every property the rule selects first, and thrown as one that names them
  /// all); one that throws for a property met after
  /// the commit leaves it without this rule's injection (older rules decide), and a read that then finds
  /// nothing stops naming the error (``PropertyDescriptor/missingValueMessage``).
  ///
  /// Builders run while the commit lock is held: one must not plan or commit (`Injection.isInjected`,
  /// `injection(for:)`, `report()`, `plan(_:)`, a commit), which stops the program with the reason.
  ///
  /// Plugins whose markers are generic use this to build a `PropertyInjection<Value>` with the
  /// property's own `Value`, typically by opening the property's `markerType`.
  public func add(to selection: PropertySelection, builder: @escaping InjectionBuilder) {
    noteRecording()
    changes.append(.injectEach(selection, builder))
  }

  /// Records the rejection of the selected properties: they behave as if never injected — except that a
  /// rejection naming a subclass of the declaring class removes that subclass's own injections only, so
  /// the declaring class's shows through there (``turnOff(_:)`` empties the property in those classes).
  public func reject(_ selection: PropertySelection) {
    noteRecording()
    changes.append(.reject(selection))
  }

  /// Records the rejection of the selected properties for the instances of the classes it names, whether
  /// those classes declare them or inherit them: they behave as if never injected there, while the
  /// declaring class and its other subclasses keep their injections. (``reject(_:)`` naming a subclass
  /// of the declaring class instead removes that subclass's own injections, so the declaring class's
  /// shows through.) For a plugin's "turn off in these classes" verb (LazyPlugin's `rejectLazy(in:)`);
  /// without classes it is ``reject(_:)``.
  public func turnOff(_ selection: PropertySelection) {
    reject(selection.turningOffInherited())
  }

  /// Records the rejection of every property of `plugin`.
  public func rejectAll(plugin: PluginID) {
    noteRecording()
    changes.append(.rejectAll(plugin))
  }

  /// Takes back the committed rule recorded for this very selection (the rule a selection that
  /// ``PropertySelection/selectsTheSameProperties(as:)`` `selection` recorded last): the properties it
  /// selected get what the remaining rules decide, as if it had never been committed. A rejection, by
  /// contrast, is a rule of its own that hides the older ones — retract what a module or a plugin bundle
  /// added when it is removed, so that what it shadowed shows again.
  ///
  /// Retractions take effect before the batch's other changes, wherever they were recorded; retracting a
  /// rule that is not there changes nothing. A selection narrowed with ``PropertySelection/filter(_:)``
  /// takes back the rule of a selection filtered by the very same closures (that selection, or a copy):
  /// other predicates cannot be compared.
  public func retract(_ selection: PropertySelection) {
    noteRecording()
    changes.append(.retract(selection))
    hasRetractions = true
  }

  /// Whether ``changes`` holds a retraction, which a commit applies first.
  private(set) var hasRetractions = false

  /// The positions in ``changes`` in the order a commit applies them: retractions first, then the rest as
  /// recorded; `nil` when that is the recorded order (the batch retracts nothing), which costs nothing to
  /// follow.
  var commitOrder: [Int]? {
    guard hasRetractions else { return nil }
    let retractions = changes.indices.filter { changes[$0].isRetraction }
    return retractions + changes.indices.filter { !changes[$0].isRetraction }
  }

  /// The changes in the order a commit applies them (see ``commitOrder``).
  var changesInCommitOrder: [Change] {
    commitOrder.map { order in order.map { changes[$0] } } ?? changes
  }

  /// Records, with `record`, rules that restate rules in force (a plugin recording again what a newer rule of
  /// the batch would otherwise shadow, as InjectPlugin does for named bindings after a binding of their
  /// type alone): a property they select is not counted as selected by them in the plan
  /// (``InjectionPlan/Entry/ruleCount``, an imperative block's properties "selected by several rules"),
  /// since nobody wrote them again.
  public func restating(_ record: (InjectionRules) -> Void) {
    let start = changes.count
    record(self)
    for position in start..<changes.count where intents[position] == nil {
      intents[position] = Self.restatingIntent
    }
  }

  /// The intent of changes recorded by ``restating(_:)``: planning counts no rule for them.
  static let restatingIntent = "kernel.restating"

  /// Records, at this place among the batch's changes, what `record` records when the batch is planned or
  /// committed, under the commit lock: for rules worked out from a plugin's own state, which other commits
  /// may change between the recording and this batch's commit (InjectPlugin's named bindings, recorded
  /// again after a binding of their type alone, and the bindings an unbinding takes back). Every commit's
  /// ``onCommit(_:)`` actions run under the same lock, so `record` reads the state exactly as this commit
  /// finds it — before this batch's own actions, which run once its rules are applied: a rule that depends
  /// on what the batch itself sets reads that from the batch (a ``RuleOptionKey`` value, which the batch
  /// it records on keeps). `record` may record changes and ``onCommit(_:)`` actions (and ask for more of
  /// this), nothing else: it must not plan, commit, read marked properties, or run user code.
  public func recordAtCommit(_ record: @escaping (InjectionRules) -> Void) {
    noteRecording()
    recordedAtCommit.append((changes.count, record))
  }

  /// What ``recordAtCommit(_:)`` asked for, with the position in ``changes`` each goes before.
  private(set) var recordedAtCommit: [(position: Int, record: (InjectionRules) -> Void)] = []

  /// The batch a commit or a plan applies (commit lock held): this one, or — when it asked for changes
  /// recorded at commit (``recordAtCommit(_:)``) — a copy with those recorded in their places. The
  /// copy's `onCommit` actions are this batch's, then those recorded at commit.
  func withChangesRecordedAtCommit() -> InjectionRules {
    guard !recordedAtCommit.isEmpty else { return self }
    let expanded = InjectionRules()
    expanded.options = options
    expanded.meantForProperties = meantForProperties
    expanded.validations = validations
    expanded.classesListingInheritedProperties = classesListingInheritedProperties
    expanded.commitActions = commitActions
    var pending = recordedAtCommit[...]
    for position in 0...changes.count {
      while let next = pending.first, next.position == position {
        pending.removeFirst()
        next.record(expanded)
      }
      guard position < changes.count else { break }
      if let intent = intents[position] { expanded.intents[expanded.changes.count] = intent }
      expanded.changes.append(changes[position])
      if changes[position].isRetraction { expanded.hasRetractions = true }
    }
    // What a `record` itself asked to record at commit (none of the kernel's users does).
    return expanded.withChangesRecordedAtCommit()
  }

  /// Runs `action` when the batch commits (under the commit lock, after the slots changed); nothing runs
  /// for a dry run or a batch that fails. Plugins keep state of their own in step with commits this way.
  public func onCommit(_ action: @escaping () -> Void) {
    noteRecording()
    commitActions.append(action)
  }

  /// Runs `action` after the batch committed, once the commit lock is released, on the committing task
  /// (so inside an override scope for a scope's commit): work that may read properties or resolve
  /// other values under the new rules, such as building an eager singleton. Nothing runs for a dry run
  /// or a batch that fails. Every action runs; the commit then throws ``BatchAppliedError`` with the
  /// first error one threw — the batch is applied by then.
  public func afterCommit(_ action: @escaping () throws -> Void) {
    noteRecording()
    afterCommitActions.append(action)
  }

  /// Adds a check that every commit of this batch runs with its plan, under the commit lock, before
  /// anything is applied — whatever commits it (``Injection/commit(_:)``, an imperative block, an override
  /// scope's or a test trait's rules, a module): one that throws fails the commit, and nothing is
  /// applied. Verbs that ask for a check use it (ImperativePlugin's `checkCompleteness`).
  ///
  /// `listingEmpty` is asked once per commit, before planning, which properties the check needs in
  /// ``InjectionPlan/emptyProperties`` (`nil`: none); the plan lists at least those (the union of every
  /// check's and the entry point's), so a check filters the list to its own. Dry runs
  /// (``Injection/plan(_:)``) run no check. The batch keeps its checks: one that captures the batch keeps
  /// it alive — capture what the check needs instead.
  ///
  /// ```swift
  /// rules.validate(listingEmpty: { { $0.className.hasPrefix("MyApp.") } }) { plan in
  ///   if let empty = plan.emptyProperties.first { throw MyCheckError.empty(empty.description) }
  /// }
  /// ```
  public func validate(
    listingEmpty: @escaping () -> ((PropertyDescriptor) -> Bool)?, _ check: @escaping (InjectionPlan) throws -> Void
  ) {
    noteRecording()
    validations.append((listingEmpty, check))
  }

  /// Makes this batch's plans look at `classes`' own views of the properties they inherit: when a view
  /// is empty and a check's (or the entry point's) `listingEmpty` accepts it, it is listed in
  /// ``InjectionPlan/emptyProperties`` beside the declared properties, as
  /// `Module.Sub.property: Type (inherited from Module.Base)`. A subclass's instances read what its
  /// view has (a rule naming the subclass injects it alone), so a check scoped to a subclass judges
  /// the view, not the declaring class's property (ImperativePlugin's `checkCompleteness(in:)`).
  ///
  /// ```swift
  /// rules.listInheritedProperties(of: [AuditService.self])
  /// rules.validate(listingEmpty: { { $0.isSubclassView && $0.viewingClass == AuditService.self } }) { plan in
  ///   if let empty = plan.emptyProperties.first { throw MyCheckError.empty(empty.description) }
  /// }
  /// ```
  public func listInheritedProperties(of classes: [AnyClass]) {
    for cls in classes where !classesListingInheritedProperties.contains(where: { $0 == cls }) {
      classesListingInheritedProperties.append(cls)
    }
  }

  /// The classes given to ``listInheritedProperties(of:)``, in order.
  private(set) var classesListingInheritedProperties: [AnyClass] = []

  /// The checks added with ``validate(listingEmpty:_:)``, in order.
  private(set) var validations:
    [(listingEmpty: () -> ((PropertyDescriptor) -> Bool)?, check: (InjectionPlan) throws -> Void)] =
      []

  /// A plugin's or entry point's own setting for this batch, keyed by type.
  public subscript<Key: RuleOptionKey>(_ key: Key.Type) -> Key.Value {
    get { options[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
    set { options[ObjectIdentifier(key)] = newValue }
  }
}

/// Makes the injection of one property (see ``InjectionRules/add(to:builder:)``).
public typealias InjectionBuilder = @Sendable (PropertyDescriptor) throws -> AnyPropertyInjection?

/// A typed key for a setting stored on an ``InjectionRules`` batch by a plugin or an entry point.
///
/// ```swift
/// enum SkipChecks: RuleOptionKey { static let defaultValue = false }
/// rules[SkipChecks.self] = true
/// ```
public protocol RuleOptionKey {
  /// The setting's type.
  associatedtype Value
  /// Its value when the batch does not set it.
  static var defaultValue: Value { get }
}
