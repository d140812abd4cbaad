/// The committed rules, kept so that properties the kernel meets later — a generic class's new
/// specialization, a class from an image opened after the commit — receive the same injections.
///
/// Its lock is the commit lock: commits and slot creation are ordered by it, so a slot is either
/// created before a commit (and the commit installs into it) or after (and reads the new rules).
final class RuleLog: @unchecked Sendable {  // `rules` and `generation` are guarded by `lock`
  static let shared = RuleLog()

  private struct Rule {
    let key: String?
    let selection: PropertySelection
    let injection: AnyPropertyInjection?  // nil: rejected
  }

  private let lock = KernelLock()
  private var rules: [Rule] = []
  /// The generation the last commit installed; slots start at 1.
  private(set) var generation: UInt = 1

  /// Runs `body` holding the commit lock.
  func withCommitLock<Result>(_ body: (RuleLog) throws -> Result) rethrows -> Result {
    try lock.withLock { try body(self) }
  }

  /// The injection the committed rules give `property` (commit lock held): the last matching rule wins.
  func injection(for property: PropertyDescriptor) -> AnyPropertyInjection? {
    for rule in rules.reversed() where rule.selection.matches(property) {
      guard let injection = rule.injection else { return nil }
      // A rule whose value type does not fit this property (a name or predicate selection meeting a
      // generic specialization) does not apply to it.
      return injection.valueType == property.valueType ? injection : nil
    }
    return nil
  }

  /// Records a committed change (commit lock held). A rule replaces older ones with the same structural
  /// selection, and `rejectAll` forgets every rule of its plugin, so repeated re-injection does not grow
  /// the log or keep replaced values alive.
  func record(_ change: InjectionRules.Change) {
    switch change {
    case .inject(let selection, let injection):
      append(Rule(key: selection.structuralKey, selection: selection, injection: injection))
    case .reject(let selection):
      append(Rule(key: selection.structuralKey, selection: selection, injection: nil))
    case .rejectAll(let plugin):
      rules.removeAll { $0.selection.plugin == plugin }
    }
  }

  /// Advances the generation for a commit (commit lock held).
  func nextGeneration() -> UInt {
    generation += 1
    return generation
  }

  private func append(_ rule: Rule) {
    if let key = rule.key { rules.removeAll { $0.key == key } }
    rules.append(rule)
  }
}
