import AssociatePlugin
import ImperativePlugin
import MatrixSupport
import Testing

// AssociatePlugin with ImperativePlugin: extension properties turned off and on by blocks, beside @Probe.

private final class Locker {
  @Probe var label: String
}

extension Locker {
  final class Code: Associated<Locker, String> {}
  var code: String? {
    get { Code[self] }
    set { Code[self] = newValue }
  }
}

private final class Unlabeled {
  @Probe var label: String
}

@Suite struct AssociateWithImperativeTests {
  @Test func oneBlockTurnsBothPluginsOn() throws {
    try Injection.imperative { lets in
      lets.checkCompleteness(in: Locker.self)
      lets.injectAssociate(in: Locker.self)
      lets.probe("locker", in: Locker.self)
    }
    let locker = Locker()
    locker.code = "0451"
    #expect(locker.code == "0451" && locker.label == "locker" && Locker().code == nil)
  }

  @Test func aForgottenProbeFailsTheBlockBeforeAnythingApplies() async {
    #expect(throws: InjectionError.self) {
      try Injection.imperative { lets in
        lets.checkCompleteness(in: Unlabeled.self)
        lets.injectAssociate(in: Locker.self)
      }
    }
    await #expect(processExitsWith: .failure) {
      try Injection.imperative { lets in
        lets.skipChecks()
        lets.rejectAssociate(in: Locker.self)
      }
      _ = Locker().code
    }
  }
}
