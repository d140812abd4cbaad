import BenchHosts
import ForcePlugin

/// ForcePlugin: filling an existing object's five stored properties by name (a service box) or by a
/// decision closure (a force injector), beside assigning the same five by hand. The hosts exist already,
/// so the figures are the fill alone; every write retains the new value and releases the old one.
func fillBenchmarks(service: Service) throws -> [Benchmark] {
  let names = ["first", "second", "third", "fourth", "fifth"]
  let box = ServiceBox()
  for name in names { box.register(service, as: name) }
  let injector = ForceInjector()
  try injector.forceInject(in: FillHost.self) { _ in .value(service) }
  let hosts = (0..<16).map { _ in FillHost() }
  box.fill(hosts[0])  // the box's first fill also fills its registered services from each other
  try injector.fill(hosts[0])
  precondition(hosts[0].fifth === service, "the fill did not write")
  let byHand = "5 properties assigned by hand"
  return [
    Benchmark(.fill, byHand) { n in
      for index in 0..<n {
        let host = hosts[index & 15]
        host.first = service
        host.second = service
        host.third = service
        host.fourth = service
        host.fifth = service
      }
      return n
    },
    Benchmark(.fill, "ServiceBox.fill, 5 properties by name", vs: byHand, divisor: 20) { n in
      var written = 0
      for index in 0..<n { written &+= box.fill(hosts[index & 15]).injected.count }
      return written
    },
    Benchmark(.fill, "ForceInjector.fill, 5 properties decided", vs: byHand, divisor: 20) { n in
      var written = 0
      for index in 0..<n { written &+= (try? injector.fill(hosts[index & 15]).injected.count) ?? 0 }
      return written
    },
  ]
}
