import ForcePlugin
import InjectionKernel
import Testing

// Fields whose stored form differs from a value held in `Any`: function types (another calling
// convention) and concrete metatypes (thin: no bytes at all). Writing such a value would crash at the
// call or overwrite the next field, so fills skip them and force rules throw.

private class CellBase {}
private final class CellSub: CellBase {}

private final class CallbackHost {
  var onDone: (@Sendable () -> Int)?
  var handler: @Sendable (Int) -> Int = { $0 }
  var kind: Int.Type = Int.self
  var after = "keep"
  var maybeKind: Int.Type?
  var small: UInt8 = 7  // right after the one-byte optional metatype
  var pair: (Int, String) = (0, "")
  var callbackPair: (Int, @Sendable () -> Int) = (0, { 0 })
  var cellType: CellBase.Type = CellBase.self  // a class's metatype is thick, like a value in Any
  var maybeCellType: CellBase.Type?
}

@Suite struct FieldRepresentationTests {
  @Test func aServiceBoxSkipsFunctionAndMetatypeFieldsAndFillsTheRest() {
    let box = ServiceBox()
    let callback: @Sendable () -> Int = { 7 }
    let handler: @Sendable (Int) -> Int = { $0 * 2 }
    #expect(box.register(callback, as: "onDone"))
    #expect(box.register(handler, as: "handler"))
    #expect(box.register(Int.self, as: "kind"))
    #expect(box.register(Int.self, as: "maybeKind"))
    #expect(box.register(CellSub.self, as: "cellType"))
    #expect(box.register(CellSub.self, as: "maybeCellType"))
    #expect(box.register((5, "five"), as: "pair"))
    #expect(box.register((1, callback), as: "callbackPair"))
    let host = CallbackHost()
    let report = box.fill(host)
    #expect(host.onDone == nil)
    #expect(host.handler(3) == 3)  // the field's own closure, untouched and callable
    #expect(host.after == "keep")  // the field after the thin metatype is intact
    #expect(host.maybeKind == nil)  // thin too: only the optional's tag byte
    #expect(host.small == 7)
    #expect(host.cellType == CellSub.self)
    #expect(host.maybeCellType == CellSub.self)
    #expect(host.pair == (5, "five"))
    for name in ["onDone", "handler", "kind", "maybeKind", "callbackPair"] {
      guard case .unsupportedType = report.skipReason(for: name) else {
        Issue.record(
          "\(name) was not skipped as an unsupported type: \(String(describing: report.skipReason(for: name)))")
        continue
      }
    }
  }

  @Test func aForceRuleGivingAValueToAFunctionFieldThrowsAndWritesNothing() throws {
    let injector = ForceInjector()
    let callback: @Sendable () -> Int = { 7 }
    try injector.forceInject { property in
      switch property.name {
      case "onDone": return .value(callback)
      case "after": return .value("changed")
      default: return .skip
      }
    }
    let host = CallbackHost()
    do {
      try injector.fill(host)
      Issue.record("expected unsupportedType")
    } catch ForceError.unsupportedType(let property, _) {
      #expect(property.hasSuffix("CallbackHost.onDone: Swift.Optional<@Sendable () -> Swift.Int>"))
    }
    #expect(host.after == "keep")  // a fill that throws writes nothing
    #expect(host.onDone == nil)
  }
}
