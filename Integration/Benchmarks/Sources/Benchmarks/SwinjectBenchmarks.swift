import BenchHosts
import Swinject

/// Swinject 2.10 resolving the same dependency the read figures read, in its container scope (one
/// shared instance, as an injected value is) and in the scopes that create an instance per resolve.
/// Each is compared with a plain read and with the `@Inject` read ("100x" = 100 times slower).
func swinjectBenchmarks(service: Service) -> [Benchmark] {
  let shared = Container()
  shared.register(Service.self) { _ in service }.inObjectScope(.container)
  let graph = Container()  // `.graph`, Swinject's default: a new instance per top-level resolve
  graph.register(Service.self) { _ in Service(value: 1) }.inObjectScope(.graph)
  let transient = Container()
  transient.register(Service.self) { _ in Service(value: 1) }.inObjectScope(.transient)

  func resolving(_ container: Container) -> (Int) -> Int {
    { n in (0..<n).reduce(0) { sum, _ in sum &+ container.resolve(Service.self)!.value } }
  }
  let vs = [Baseline.plainRead, Baseline.injectRead]
  return [
    Benchmark(.read, "Swinject resolve, .container scope", vs: vs[0], vs[1], divisor: 20, resolving(shared)),
    Benchmark(.read, "Swinject resolve, .graph (transient)", vs: vs[0], vs[1], divisor: 20, resolving(graph)),
    Benchmark(.read, "Swinject resolve, .transient", vs: vs[0], vs[1], divisor: 20, resolving(transient)),
  ]
}
