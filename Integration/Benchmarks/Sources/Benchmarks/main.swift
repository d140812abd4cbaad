import Foundation

// Usage: Benchmarks [--smoke] [--cold] [--pass-only] [--json PATH] [FIXTURE.so ...]
//   --smoke  tiny iteration counts (CI keeps the benchmarks compiling and running)
//   --cold   time each fixture's pass right after dlopen, first-touch page faults included
//   --pass-only  only the pass figures (Scripts/bench.sh runs each fixture in its own process)
//   FIXTURE  catalog fixtures from Scripts/generate-catalog-fixture.py, smallest first

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

let harness = Harness(smoke: smoke)
do {
  if !passOnly {
    try measureReads(harness)
    try measureSetup(harness)
  }
  let passes = try measurePasses(harness, fixtures: arguments, cold: cold)
  Report.printTable(harness.figures)
  try Report.writeJSON(harness.figures, passes: passes, smoke: smoke, to: jsonPath)
  print("\nJSON: \(jsonPath)")
} catch {
  print("benchmark failed: \(error)")
  exit(1)
}
