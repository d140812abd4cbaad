import BenchHosts
import ImperativePlugin
import InjectPlugin

/// Set-up: committing injections.
func measureSetup(_ harness: Harness) throws {
  let iterations = max(harness.iterations / 20_000, 2)
  harness.measure("set-up", "Injection.inject commit of one value", iterations: iterations) { n in
    for index in 0..<n { _ = try? Injection.inject(Service.self).value(Service(value: index)) }
    return n
  }
  harness.measure("set-up", "imperative block injecting 150 properties", iterations: iterations) { n in
    for round in 0..<n {
      _ = try? Injection.imperative { lets in
        lets.checkCompleteness(in: setupHostClasses)
        for index in setupHostClasses.indices {
          let owner: AnyClass = setupHostClasses[index]
          for property in 0..<3 {
            try lets.inject(Int.self).declared(in: owner).named("p\(property)").value(round + index * 3 + property)
          }
        }
      }
    }
    return n
  }
  precondition(SetupHost7().p2 > 0, "the imperative block did not inject")
}
