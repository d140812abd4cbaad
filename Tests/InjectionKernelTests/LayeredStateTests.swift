import InjectionKernel
import Testing

private struct Handler: Sendable, Equatable {
  let name: String
  let version: Int
}

/// A layered `ScopedState`: a scope's copy is its own changes on top of what lies beneath, which may
/// change after the scope's first change. Each test makes a state of its own.
@Suite struct LayeredStateTests {
  private static func handlers() -> ScopedState<LayeredList<Handler>> {
    ScopedState(
      LayeredList<Handler>(replacing: { older, newer in older.name == newer.name }),
      layering: LayeredList<Handler>.layering)
  }

  private static func names(_ state: ScopedState<LayeredList<Handler>>) -> [String] {
    state.value.elements.map { "\($0.name)\($0.version)" }
  }

  @Test func aScopeSeesWhatIsAddedBeneathItAfterItsOwnChange() throws {
    let state = Self.handlers()
    state.update { $0.add(Handler(name: "audit", version: 1)) }
    try Injection.withOverrides({ _ in }) {
      state.update { $0.add(Handler(name: "mock", version: 1)) }
      Injection.outsideOverrides {
        state.update { $0.add(Handler(name: "metrics", version: 1)) }
        state.update { $0.add(Handler(name: "audit", version: 2)) }  // replaces audit1 beneath
      }
      // Beneath first, the scope's own on top.
      #expect(Self.names(state) == ["metrics1", "audit2", "mock1"])
      #expect(state.isOverriddenForCurrentTask)
    }
    #expect(Self.names(state) == ["metrics1", "audit2"])
  }

  @Test func aScopeThatReplacesOrEmptiesKeepsThatOverWhatComesBeneathLater() throws {
    let state = Self.handlers()
    state.update { $0.add(Handler(name: "audit", version: 1)) }
    try Injection.withOverrides({ _ in }) {
      state.update { $0.add(Handler(name: "audit", version: 9)) }
      Injection.outsideOverrides { state.update { $0.add(Handler(name: "audit", version: 2)) } }
      // The scope's own replacement is newer than anything beneath it.
      #expect(Self.names(state) == ["audit9"])

      state.update { $0.removeAll() }
      Injection.outsideOverrides { state.update { $0.add(Handler(name: "late", version: 1)) } }
      #expect(Self.names(state).isEmpty)  // emptied in the scope: what lies beneath stays hidden
      state.update { $0.add(Handler(name: "own", version: 1)) }
      #expect(Self.names(state) == ["own1"])
    }
    #expect(Self.names(state) == ["audit2", "late1"])
  }

  @Test func nestedScopesStackTheirChanges() throws {
    let state = Self.handlers()
    try Injection.withOverrides({ _ in }) {
      state.update { $0.add(Handler(name: "outer", version: 1)) }
      try Injection.withOverrides({ _ in }) {
        state.update { $0.add(Handler(name: "inner", version: 1)) }
        Injection.outsideOverrides { state.update { $0.add(Handler(name: "process", version: 1)) } }
        #expect(Self.names(state) == ["process1", "outer1", "inner1"])
      }
      #expect(Self.names(state) == ["process1", "outer1"])
    }
  }
}
