import ForcePlugin
import ImperativePlugin
import MatrixSupport
import Testing

// ForcePlugin with ImperativePlugin: force rules take effect when the block commits, beside @Probe.

private final class Logger: Sendable {}

private final class LegacyController {
  var logger: Logger?
  var name = ""
  @Probe var probe: String?
}

private final class Other {
  var count = 0
  @Probe var probe: String?
}

@Suite struct ForceWithImperativeTests {
  @Test func forceRulesCommitWithTheBlock() throws {
    let logger = Logger()
    try Injection.imperative { lets in
      lets.skipChecks()
      try lets.forceInject(in: LegacyController.self) { property in
        property.name == "logger" ? .value(logger) : .skip
      }
      lets.probe("probed", in: LegacyController.self)
    }
    let controller = try Injection.fill(LegacyController())
    #expect(controller.logger === logger && controller.name == "" && controller.probe == "probed")

    try Injection.imperative { lets in
      lets.skipChecks()
      lets.forceReject { ObjectIdentifier($0.declaringClass) == ObjectIdentifier(LegacyController.self) }
    }
    #expect(try Injection.fill(LegacyController()).logger == nil)
    #expect(LegacyController().probe == "probed")
  }

  @Test func aMisfitValueFailsTheBlockAndNothingIsApplied() throws {
    #expect(throws: ForceError.self) {
      try Injection.imperative { lets in
        lets.skipChecks()
        lets.probe("never", in: Other.self)
        try lets.forceInject(in: Other.self) { _ in .value("not an Int") }
      }
    }
    let other = try Injection.fill(Other())
    #expect(other.count == 0 && other.probe == nil)
  }
}
