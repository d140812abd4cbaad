import AssociatePlugin
import MatrixSupport
import Testing

// AssociatePlugin alone (plus the kernel-only @Probe): stored properties in extensions, beside a marked
// stored property of the same class.

private final class Ticket {
  @Probe var probe: String?
}

extension Ticket {
  final class Seat: Associated<Ticket, String> {}
  var seat: String? {
    get { Seat[self] }
    set { Seat[self] = newValue }
  }
}

private final class Badge {
  @Probe var probe: String?
}

extension Badge {
  final class Holder: Associated<Badge, Holder.Person> {
    final class Person {}
  }
  var holder: Holder.Person? {
    get { Holder[self] }
    set { Holder[self] = newValue }
  }
}

private final class Pass {
  @Probe var probe: String?
}

extension Pass {
  final class Gate: Associated<Pass, Int> {}
  var gate: Int? {
    get { Gate[self] }
    set { Gate[self] = newValue }
  }
}

@Suite struct AssociateAloneTests {
  @Test func eachOwnerHasItsOwnValueBesideAProbe() throws {
    try Injection.probe("probed", in: Ticket.self)
    let ticket = Ticket()
    ticket.seat = "12A"
    #expect(ticket.seat == "12A" && Ticket().seat == nil && ticket.probe == "probed")
    try Injection.rejectProbe(in: Ticket.self)
    #expect(ticket.probe == nil && ticket.seat == "12A")
  }

  @Test func valuesAreReleasedWithTheirOwner() throws {
    try Injection.probe("probed", in: Badge.self)
    weak var released: Badge.Holder.Person?
    do {
      let badge = Badge()
      let person = Badge.Holder.Person()
      badge.holder = person
      released = person
      #expect(badge.probe == "probed")
    }
    #expect(released == nil)
  }

  @Test func aRejectedAssociatedPropertyStopsItsUse() async {
    await #expect(processExitsWith: .failure) {
      try Injection.rejectAssociate(in: Pass.self)
      _ = Pass().gate
    }
    // In this process nothing was rejected: the property and the probe still work.
    let pass = Pass()
    pass.gate = 7
    #expect(pass.gate == 7 && pass.probe == nil)
  }
}
