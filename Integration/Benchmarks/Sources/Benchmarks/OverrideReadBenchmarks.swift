import BenchHosts
import Foundation
import InjectPlugin

/// Reads of `@Inject` while override scopes exist (the test overrides of InjectionTesting): with a scope
/// active that does not select the property (the fast path, unchanged), with the property overridden
/// in the reading task's scope, and with it overridden by another thread's scope (both slow paths).
func overrideReadBenchmarks(service: Service) -> [Benchmark] {
  let finals = (0..<16).map { _ in FinalHost() }
  let override = Service(value: 2)
  return [
    Benchmark(.read, "@Inject, final class, an override scope active", vs: Baseline.injectRead) { n in
      (try? Injection.withOverrides({ lets in
        try lets.inject(Service?.self).declared(in: UnreadOverrideHost.self).value(override)
      }) { readLoop(finals, n, Reads.final) }) ?? 0
    },
    Benchmark(.read, "@Inject, final class, overridden in the reading task", vs: Baseline.injectRead) { n in
      (try? Injection.withOverrides({ lets in
        try lets.inject(Service.self).declared(in: FinalHost.self).value(override)
      }) { readLoop(finals, n, Reads.final) }) ?? 0
    },
    Benchmark(.read, "@Inject, final class, overridden by another thread", vs: Baseline.injectRead) { n in
      whileAnotherThreadOverrides(FinalHost.self, with: override) { readLoop(finals, n, Reads.final) }
    },
  ]
}

/// Runs `body` while another thread holds an override scope giving `Service` properties of `host` the
/// value `override`.
private func whileAnotherThreadOverrides(_ host: AnyClass, with override: Service, _ body: () -> Int) -> Int {
  let entered = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)
  let left = DispatchSemaphore(value: 0)
  let thread = Thread {
    _ = try? Injection.withOverrides({ lets in try lets.inject(Service.self).declared(in: host).value(override) }) {
      entered.signal()
      release.wait()
    }
    left.signal()
  }
  thread.start()
  entered.wait()
  let result = body()
  release.signal()
  left.wait()
  return result
}
