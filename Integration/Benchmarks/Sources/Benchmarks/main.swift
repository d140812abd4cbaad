import BenchHosts
import Foundation

// Usage: Benchmarks [--smoke] [--cold] [--pass-only] [--json PATH] [FIXTURE.so ...]
//        Benchmarks --probe NAME COUNT   one per-instance probe COUNT times (for callgrind)
//        Benchmarks --headline FIXTURE.so [--shape rule-per-property|one-rule] [--json PATH]
//                     the headline's block, in a fresh process
//   --smoke      tiny iteration counts (CI keeps the benchmarks compiling and running)
//   --cold       time each fixture's pass right after dlopen, first-touch page faults included
//   --pass-only  only the catalog pass (Scripts/bench.sh repeats it in fresh processes)
//   FIXTURE      catalog fixtures from Scripts/generate-catalog-fixture.py, smallest first

var arguments = Array(CommandLine.arguments.dropFirst())
let smoke = arguments.contains("--smoke")
let cold = arguments.contains("--cold")
let passOnly = arguments.contains("--pass-only")
arguments.removeAll { $0 == "--smoke" || $0 == "--cold" || $0 == "--pass-only" }
var jsonPath = "results/latest.json"
if let index = arguments.firstIndex(of: "--json"), index + 1 < arguments.count {
  jsonPath = arguments[index + 1]
  arguments.removeSubrange(index...(index + 1))
}

if let index = arguments.firstIndex(of: "--probe"), index + 2 < arguments.count, let count = Int(arguments[index + 2]) {
  do {
    try runInstanceProbe(named: arguments[index + 1], count: count)
    exit(0)
  } catch {
    print("probe failed: \(error)")
    exit(1)
  }
}

if let index = arguments.firstIndex(of: "--headline"), index + 1 < arguments.count {
  do {
    var shape = HeadlineShape.rulePerProperty
    if let shapeIndex = arguments.firstIndex(of: "--shape"), shapeIndex + 1 < arguments.count {
      guard let chosen = HeadlineShape(rawValue: arguments[shapeIndex + 1]) else {
        print("unknown headline shape \(arguments[shapeIndex + 1]): \(HeadlineShape.allCases.map(\.rawValue))")
        exit(1)
      }
      shape = chosen
    }
    let figure = try measureHeadline(fixture: arguments[index + 1], shape: shape)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(figure).write(to: URL(fileURLWithPath: jsonPath))
    print(
      "\(figure.fixture): one imperative block injecting \(figure.injected) properties (\(shape.label)), pass over "
        + "\(figure.classes) classes / \(figure.fields) fields included: "
        + "\(Double(figure.nanoseconds) / 1_000_000) ms (passes \(Double(figure.passNanoseconds) / 1_000_000) ms, "
        + "their scans \(Double(figure.scanNanoseconds) / 1_000_000) ms); the same block again: "
        + "\(Double(figure.secondBlockNanoseconds) / 1_000_000) ms")
    exit(0)
  } catch {
    print("headline failed: \(error)")
    exit(1)
  }
}

do {
  let harness = Harness(smoke: smoke)
  var figures: [Figure] = []
  var instances: [InstanceFigure] = []
  if !passOnly {
    // The registry: every figure of the run, in table order. A plugin adds its list here.
    let service = Service(value: 1)
    let benchmarks =
      try readBenchmarks(service: service) + overrideReadBenchmarks(service: service) + lazyBenchmarks()
      + swinjectBenchmarks(service: service) + resolveBenchmarks()
      + setupBenchmarks(service: service) + imperativeBenchmarks() + fillBenchmarks(service: service)
      + defaultsBenchmarks() + associateBenchmarks(service: service)
    figures = harness.run(benchmarks)
    instances = try measureInstances(harness)
    AssociateChurnFigure.measure(owners: smoke ? 10_000 : 1_000_000, service: service).print()
  }
  // The catalog fixtures last, so the other figures are taken in an app-sized process.
  let passes = try measurePasses(fixtures: arguments, warm: !cold)
  let bars = Bar.evaluate(figures, passes: passes)
  Report.printFigures(figures)
  Report.printInstances(instances)
  Report.printPasses(passes)
  Report.printBars(bars)
  try Report.writeJSON(
    figures: figures, instances: instances, passes: passes, bars: bars, iterations: harness.iterations,
    rounds: harness.rounds,
    smoke: smoke, to: jsonPath)
  print("\nJSON: \(jsonPath)")
} catch {
  print("benchmark failed: \(error)")
  exit(1)
}
