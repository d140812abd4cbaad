import BenchHosts
import LazyPlugin

/// LazyPlugin: a `@Lazy` read after the value was created, beside Swift's `lazy var`.
func lazyBenchmarks() throws -> [Benchmark] {
  try Injection.injectLazy(in: LazyHost.self)
  let hosts = (0..<16).map { _ in LazyHost() }
  _ = readLoop(hosts, 16, Reads.lazy)  // created: the figure is a read after creation
  return [
    Benchmark(.read, "@Lazy after creation", vs: Baseline.plainRead, "Swift lazy var after creation") { n in
      readLoop(hosts, n, Reads.lazy)
    }
  ]
}
