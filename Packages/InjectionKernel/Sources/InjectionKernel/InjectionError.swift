/// A typed error from the kernel or a plugin; every case names the class, property and types involved.
public enum InjectionError: Error, Equatable, CustomStringConvertible {
  /// An injection's value type does not fit the selected property.
  case typeMismatch(property: String, expected: String, given: String)
  /// A selection named a property that no class declares.
  case unknownProperty(className: String, name: String)
  /// An operation was refused, with the reason (for example a plugin that cannot build a value).
  case rejected(property: String, reason: String)
  /// A selection that names a class or a property name matched no property. `nearMisses` lists the
  /// properties that almost matched, each with what differs and how to select it
  /// (`Module.Owner.retries: Swift.Optional<Swift.Int> — its type is Int?, not Int: select Int?.self`).
  /// A rule meant for classes loaded later says so with ``PropertySelection/mayMatchLater()``.
  case selectionMatchesNothing(selection: String, nearMisses: [String])
  /// An imperative block left marked properties without an injection (`Module.Owner.property: Type (plugin)`).
  case missingInjections([String])
  /// A commit was made while the same task was recording a batch (``InjectionRules/recording(_:)``):
  /// `Injection.inject(…)` inside an imperative block, a module's `configure` or an override's rules,
  /// where `lets.inject(…)` was meant. It would have applied at once, apart from the batch, and stayed
  /// even if the batch failed.
  case commitWhileRecording
  /// A commit was made inside ``Injection/withConsistentReads(_:)`` (in its body, or in a getter or a
  /// factory a read there ran): the body runs until no commit lands while it reads, so its own commit
  /// would make it run again for ever.
  case commitInsideConsistentReads
  /// A commit was made by code the kernel runs while it commits — a selection's `filter`, a builder given
  /// to ``InjectionRules/add(to:builder:)``, an `onCommit` action, or a deinit they cause — which would
  /// wait for the commit in progress on its own thread forever. `running` names that code (`the filter of
  /// the rule (Inject: type Swift.String, in MyApp.Host, filtered)`) as well as the kernel can tell.
  case commitDuringCommit(running: String)
  /// A rule was recorded on a batch whose block has ended (``InjectionRules/checkNotEnded()``): the
  /// `lets` of an imperative block (or a dry run), of a module's `configure` or of an override's rules,
  /// kept and used after the block returned. The rule would apply nowhere.
  case batchEnded
  /// A commit was made by a task whose override scope (`Injection.withOverrides`, a test trait, a child
  /// injector's `run`) has ended — a `Task { }` that outlived it: the scope's rules no longer apply anywhere, and the commit
  /// must not reach the enclosing scope or the process, which other tasks share.
  case overrideScopeEnded

  /// A sentence for logs and test failures.
  public var description: String {
    switch self {
    case .typeMismatch(let property, let expected, let given):
      if expected == "Swift.Optional<\(given)>" {
        return "Cannot inject \(given) into \(property): the property holds \(expected), an optional of it. "
          + "Inject a value of the optional type, or select by the value type alone (InjectPlugin's "
          + "inject(_:) without a class or a name; includingOptionals() on a kernel PropertySelection), which "
          + "wraps a value in the optional (not a getter or a setter)."
      }
      return "Cannot inject \(given) into \(property): the property holds \(expected)."
    case .unknownProperty(let className, let name):
      return "No marked property '\(name)' is declared by \(className)."
    case .rejected(let property, let reason):
      return "Refused for \(property): \(reason)"
    case .selectionMatchesNothing(let selection, let nearMisses):
      guard !nearMisses.isEmpty else {
        return "No marked property matches \(selection), and none comes close. (A rule meant for classes "
          + "loaded later or generic specializations used later says so with mayMatchLater(). Static properties "
          + "and members of structs are not cataloged: only rules by type alone reach them.)"
      }
      return "No marked property matches \(selection). Near misses:\n"
        + nearMisses.map { "  \($0)" }.joined(separator: "\n")
    case .missingInjections(let list):
      return "These marked properties have no injection:\n" + list.map { "  \($0)" }.joined(separator: "\n")
    case .batchEnded:
      return "A rule was recorded on a batch whose block has ended (the lets of an Injection.imperative block or "
        + "dry run, a module's configure or an override's rules, kept and used after the block returned): it "
        + "applies nowhere. Record rules inside the block, or commit them with Injection.inject(…)."
    case .overrideScopeEnded:
      return "A commit was made by a task whose override scope (Injection.withOverrides, a test trait, a child "
        + "injector's run) has ended: "
        + "the task outlived it, and the commit would apply nowhere — not in the ended scope, not in the process "
        + "that other tests share. Await the task inside the scope, or commit from outside it."
    case .commitWhileRecording:
      return "A commit was made while a batch was being recorded (an Injection.imperative block, a module's "
        + "configure, an override's rules): it would apply at once, apart from the batch, and stay even if the "
        + "batch failed. Record the rule on the batch the block was given (lets.inject(…), not Injection.inject(…))."
    case .commitInsideConsistentReads:
      return "A commit was made inside Injection.withConsistentReads { … } (in its body, or in a getter or a factory "
        + "a read there ran): the body runs again until no commit lands while it reads, so its own commit would "
        + "make it run for ever. Commit before or after it."
    case .commitDuringCommit(let running):
      return "A commit was made by code that runs while the kernel commits (\(running)): it would wait for the "
        + "commit in progress on its own thread forever. Commit before or after that commit (a plugin: in an "
        + "afterCommit action)."
    }
  }
}
