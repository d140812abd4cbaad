/// A batch was applied, and then work scheduled to run after its commit failed
/// (``InjectionRules/afterCommit(_:)``, such as building an eager singleton).
///
/// Every other error of a commit means that nothing was applied; this one means the opposite, and says
/// so. Every after-commit action ran; ``underlying`` is the first error one threw.
///
/// ```swift
/// do {
///   try Injection.commit(rules)
/// } catch let error as BatchAppliedError {
///   log("applied, but: \(error.underlying)")
/// }
/// ```
public struct BatchAppliedError: Error, CustomStringConvertible {
  /// The first error an after-commit action threw.
  public let underlying: any Error
  /// What the batch applied.
  public let plan: InjectionPlan

  /// Creates the error for a batch that applied `plan` and whose after-commit work threw `underlying`.
  public init(underlying: any Error, plan: InjectionPlan) {
    self.underlying = underlying
    self.plan = plan
  }

  /// A sentence for logs and test failures.
  public var description: String {
    "The batch was applied, and then work run after its commit failed: \(underlying)"
  }
}
