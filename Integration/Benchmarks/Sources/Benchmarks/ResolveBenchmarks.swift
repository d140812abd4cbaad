import BenchHosts
import InjectPlugin

/// A type bound as a singleton, for the resolve figures only.
private final class ResolvedSingleton: Sendable {
  let value = 1
}

/// A type bound to a provider: a new instance per resolve.
private final class ResolvedProvided: Sendable {
  let value = 1
}

/// The container's `Injection.resolve`: the rules' injection for a detached `@Inject` property of the
/// type, then its value — compared with a plain read, with the `@Inject` read of the same dependency and
/// with Swinject 2.10's resolve in the matching scope.
func resolveBenchmarks() throws -> [Benchmark] {
  // `Service` is bound by value in `readBenchmarks`, as `@Inject` reads it.
  try Injection.inject(ResolvedSingleton.self).singleton { _ in ResolvedSingleton() }
  try Injection.inject(ResolvedProvided.self).provider { _ in ResolvedProvided() }

  func resolving<Value>(_ type: Value.Type, _ value: @escaping (Value) -> Int) -> (Int) -> Int {
    { n in (0..<n).reduce(0) { sum, _ in sum &+ ((try? Injection.resolve(type)).map(value) ?? 0) } }
  }
  let vs = [Baseline.plainRead, Baseline.injectRead]
  return [
    Benchmark(
      .read, "Injection.resolve, value binding", vs: vs[0], vs[1], "Swinject resolve, .container scope", divisor: 20,
      resolving(Service.self) { $0.value }),
    Benchmark(
      .read, "Injection.resolve, singleton", vs: vs[0], vs[1], "Swinject resolve, .container scope", divisor: 20,
      resolving(ResolvedSingleton.self) { $0.value }),
    Benchmark(
      .read, "Injection.resolve, provider", vs: vs[0], vs[1], "Swinject resolve, .transient", divisor: 20,
      resolving(ResolvedProvided.self) { $0.value }),
  ]
}
