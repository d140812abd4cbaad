import InjectionKernel
import MatrixSupport
import Testing

// The kernel alone, with a marker of this package's own: no first-party plugin is linked into this
// target's module.

private final class Gauge {
  @Probe var probe: String?
  @Probe var second: String?
}

@Suite struct KernelAloneTests {
  @Test func injectsAndRejectsAForeignMarker() throws {
    #expect(Gauge().probe == nil)
    try Injection.probe("kernel", in: Gauge.self)
    let gauge = Gauge()
    #expect(gauge.probe == "kernel" && gauge.second == "kernel")
    #expect(Injection.injectedPlugins(of: Gauge.self) == ["Probe"])
    try Injection.rejectProbe(in: Gauge.self)
    #expect(gauge.probe == nil)
    #expect(Injection.injectedPlugins(of: Gauge.self).isEmpty)
  }

  @Test func aSelectionThatMatchesNothingIsRefused() {
    final class Unmarked {}
    #expect(throws: InjectionError.self) { try Injection.probe("x", in: Unmarked.self) }
  }
}
