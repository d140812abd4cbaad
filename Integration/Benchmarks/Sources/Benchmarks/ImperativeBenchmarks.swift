import BenchHosts
import ImperativePlugin
import InjectPlugin

/// ImperativePlugin: one block injecting the 150 set-up properties, with its completeness check, in
/// one commit; compared with the same 150 injections as a plain kernel batch.
func imperativeBenchmarks() -> [Benchmark] {
  [
    Benchmark(
      .setup, "imperative block: 150 injections + completeness check",
      vs: "InjectionRules batch: 150 injections, one commit", divisor: 50_000
    ) { n in
      for round in 0..<n {
        _ = try? Injection.imperative { lets in
          lets.checkCompleteness(in: setupHostClasses)
          for (index, owner): (Int, AnyClass) in setupHostClasses.enumerated() {
            for property in 0..<3 {
              try lets.inject(Int.self).declared(in: owner).named("p\(property)").value(round + index * 3 + property)
            }
          }
        }
      }
      precondition(SetupHost49().p2 == n - 1 + 49 * 3 + 2, "the imperative block did not inject")
      return n
    }
  ]
}
