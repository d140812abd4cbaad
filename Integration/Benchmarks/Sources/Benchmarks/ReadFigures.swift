import BenchHosts
import InjectPlugin
import LazyPlugin
import Swinject

/// Reads: a plain stored property is the baseline of every read figure.
func measureReads(_ harness: Harness) throws {
  let service = Service(value: 1)
  try Injection.inject(Service.self).value(service)
  try Injection.injectLazy(in: LazyHost.self)

  // 16 instances read in turn, so no figure can keep one value in a register.
  let plain = (0..<16).map { _ in PlainHost(service: service) }
  let finals = (0..<16).map { _ in FinalHost() }
  let subclasses: [BaseHost] = (0..<16).map { _ in SubclassHost() }
  let generics = (0..<16).map { _ in GenericHost<Int>() }
  let lazies = (0..<16).map { _ in LazyHost() }

  let base = "plain stored property"
  harness.measure("read", base) { n in (0..<n).reduce(0) { $0 &+ Reads.plain(plain[$1 & 15]) } }
  harness.measure("read", "@Inject, final class", baseline: base) { n in
    (0..<n).reduce(0) { $0 &+ Reads.final(finals[$1 & 15]) }
  }
  harness.measure("read", "@Inject, subclass", baseline: base) { n in
    (0..<n).reduce(0) { $0 &+ Reads.subclass(subclasses[$1 & 15]) }
  }
  harness.measure("read", "@Inject, generic class", baseline: base) { n in
    (0..<n).reduce(0) { $0 &+ Reads.generic(generics[$1 & 15]) }
  }
  harness.measure("read", "@Lazy after creation", baseline: base) { n in
    (0..<n).reduce(0) { $0 &+ Reads.lazy(lazies[$1 & 15]) }
  }
  harness.measure("read", "Swift lazy var after creation", baseline: base) { n in
    (0..<n).reduce(0) { $0 &+ Reads.swiftLazy(lazies[$1 & 15]) }
  }

  let container = Container()
  container.register(Service.self) { _ in service }.inObjectScope(.container)
  let transient = Container()
  transient.register(Service.self) { _ in Service(value: 1) }.inObjectScope(.transient)
  let fewer = max(harness.iterations / 20, 1)
  // Swinject's figures are compared with the @Inject read of the same dependency: "Nx" = N times slower.
  let inject = "@Inject, final class"
  harness.measure("read", "Swinject resolve, container scope", baseline: inject, iterations: fewer) { n in
    (0..<n).reduce(0) { sum, _ in sum &+ container.resolve(Service.self)!.value }
  }
  harness.measure("read", "Swinject resolve, transient", baseline: inject, iterations: fewer) { n in
    (0..<n).reduce(0) { sum, _ in sum &+ transient.resolve(Service.self)!.value }
  }
}
