import BenchHosts
import InjectPlugin

/// Set-up: an `Injection.inject` commit of one value, and one kernel batch (`InjectionRules` +
/// `Injection.commit`) of 150 injections, each selecting one property by declaring class and name among
/// the 150 `@Inject` properties of `SetupHosts.swift`.
func setupBenchmarks(service: Service) -> [Benchmark] {
  [
    Benchmark(.setup, "Injection.inject commit of one value", divisor: 2_000) { n in
      for _ in 0..<n { _ = try? Injection.inject(Service.self).value(service) }
      return n
    },
    Benchmark(.setup, "InjectionRules batch: 150 injections, one commit", divisor: 50_000) { n in
      for round in 0..<n { _ = try? Injection.commit(setupRules(round: round)) }
      precondition(SetupHost49().p2 == n - 1 + 49 * 3 + 2, "the batch did not inject")
      return n
    },
  ]
}

/// One injection of a distinct value into each of the 150 set-up properties.
private func setupRules(round: Int) -> InjectionRules {
  let rules = InjectionRules()
  for (index, owner): (Int, AnyClass) in setupHostClasses.enumerated() {
    for property in 0..<3 {
      let value = round + index * 3 + property
      rules.add(
        PropertyInjection<Int>(read: .value(value), summary: "value \(value)"),
        to: PropertySelection(plugin: InjectPlugin.id).declared(in: owner).named("p\(property)"))
    }
  }
  return rules
}
