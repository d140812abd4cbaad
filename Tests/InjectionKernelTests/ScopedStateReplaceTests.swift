import InjectionKernel
import Testing

// A plugin's setting replaced in an `onCommit` action with `ScopedState.replace(with:)`: the old value is
// released after the commit lock, so its deinit may commit (with `update { $0 = new }` it ran under the
// lock, and the commit stopped the program).

private final class CommittedByReplacedSetting {
  @Tracked var label: String
}

/// Commits in its deinit.
private final class Setting: Sendable {
  deinit {
    let rules = InjectionRules()
    TrackedPlugin.inject("from deinit", into: CommittedByReplacedSetting.self, rules: rules)
    _ = try? Injection.commit(rules)
  }
}

@Test func aSettingReplacedInACommitIsReleasedAfterTheCommitLock() async {
  await #expect(processExitsWith: .success) {
    let setting = ScopedState<Setting?>(nil)
    func apply(_ value: Setting?) throws {
      let rules = InjectionRules()
      rules.onCommit { setting.replace(with: value) }
      try Injection.commit(rules)
    }
    try apply(Setting())
    try apply(nil)  // releases the first setting, whose deinit commits
    precondition(Injection.isInjected(CommittedByReplacedSetting.self, "label"), "the deinit did not commit")
  }
}
