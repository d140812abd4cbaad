import Foundation
import InjectPlugin
import TestSupport
import Testing

// Each test has its own types: tests run in parallel, and the rules of a type are process-wide outside a
// child injector (every round runs in a child injector of its own, all the same).

private final class ReplayTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class ReplayToolHost {
  @Inject var tool: ReplayTool?
}
private struct ReplayToolStructHost {
  @Inject var tool: ReplayTool?
}
private final class ReplayToolModule: InjectionModule {
  let source: String
  init(_ source: String) { self.source = source }
  func configure(_ lets: InjectionRules) throws { try lets.inject(ReplayTool.self).value(ReplayTool(source)) }
}

private final class NamedReplayTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class NamedReplayToolHost {
  @Inject var x: NamedReplayTool
}
private final class NamedReplayToolModule: InjectionModule {
  let source: String
  init(_ source: String) { self.source = source }
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(NamedReplayTool.self, named: "x").value(NamedReplayTool(source))
  }
}

private final class RejectedTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class RejectedToolHost {
  @Inject var tool: RejectedTool?
  @Inject var x: RejectedTool?
}
private struct RejectedToolStructHost {
  @Inject var tool: RejectedTool?
}
private final class RejectedToolModule: InjectionModule {
  let source: String
  init(_ source: String) { self.source = source }
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(RejectedTool.self).value(RejectedTool(source))
    try lets.inject(RejectedTool.self, named: "x").value(RejectedTool("\(source) x"))
  }
}

private final class ReboundTool: Sendable {
  let source: String
  init(_ source: String) { self.source = source }
}
private final class ReboundToolHost {
  @Inject var tool: ReboundTool?
  @Inject var x: ReboundTool?
}
private struct ReboundToolStructHost {
  @Inject var tool: ReboundTool?
}
private final class ReboundToolModule: InjectionModule {
  let source: String
  init(_ source: String) { self.source = source }
  func configure(_ lets: InjectionRules) throws {
    try lets.inject(ReboundTool.self).value(ReboundTool(source))
    try lets.inject(ReboundTool.self, named: "x").value(ReboundTool("\(source) x"))
  }
}

/// Removing a module brings back the rules beneath its own. Worked out from a copy of the container's
/// state and committed afterwards, that replay went stale when another thread's removal (or `rejectAll`)
/// committed in between: module A's rule came back after A itself was removed (1,730 in 2,000 rounds in
/// the review's probe). Probabilistic: each test runs many rounds, each in a child injector of its own.
@Suite struct ModuleRemovalReplayTests {
  /// The app binds the type, module A binds it, module B binds it on top; A and B are removed at once.
  @Test func twoModulesRemovedAtOnceLeaveTheAppsBinding() throws {
    var failures: [String] = []  // the first few
    var failed = 0
    for round in 0..<1000 {
      let child = try Injection.childInjector { try $0.inject(ReplayTool.self).value(ReplayTool("app")) }
      defer { child.end() }
      let modules = [ReplayToolModule("A"), ReplayToolModule("B")]
      try child.run { for module in modules { try Injection.addModule(module) } }
      concurrently(threads: 2) { thread in _ = try? child.run { try Injection.removeModule(modules[thread]) } }
      let resolved = (try? child.resolve(ReplayTool.self))?.source ?? "nothing"
      let (inClass, inStruct, loaded) = child.run {
        (
          ReplayToolHost().tool?.source ?? "nil", ReplayToolStructHost().tool?.source ?? "nil",
          Injection.loadedModules.count { $0 is ReplayToolModule }
        )
      }
      if resolved != "app" || inClass != "app" || inStruct != "app" || loaded != 0 {
        failed += 1
        if failures.count < 5 {
          failures.append("round \(round): resolve \(resolved), class \(inClass), struct \(inStruct), loaded \(loaded)")
        }
      }
    }
    #expect(failed == 0, "\(failed) in 1,000 rounds; the first: \(failures)")
  }

  /// The same with a named binding: the name reads the app's binding again.
  @Test func twoModulesRemovedAtOnceLeaveTheAppsNamedBinding() throws {
    var failures: [String] = []  // the first few
    var failed = 0
    for round in 0..<1000 {
      let child = try Injection.childInjector {
        try $0.inject(NamedReplayTool.self, named: "x").value(NamedReplayTool("app"))
      }
      defer { child.end() }
      let modules = [NamedReplayToolModule("A"), NamedReplayToolModule("B")]
      try child.run { for module in modules { try Injection.addModule(module) } }
      concurrently(threads: 2) { thread in _ = try? child.run { try Injection.removeModule(modules[thread]) } }
      let resolved = (try? child.resolve(NamedReplayTool.self, named: "x"))?.source ?? "nothing"
      let (inClass, loaded) = child.run {
        (NamedReplayToolHost().x.source, Injection.loadedModules.count { $0 is NamedReplayToolModule })
      }
      if resolved != "app" || inClass != "app" || loaded != 0 {
        failed += 1
        if failures.count < 5 {
          failures.append("round \(round): resolve \(resolved), class \(inClass), loaded \(loaded)")
        }
      }
    }
    #expect(failed == 0, "\(failed) in 1,000 rounds; the first: \(failures)")
  }

  /// A removal racing `rejectAll`: whichever commits first, nothing is bound afterwards (before, the
  /// removal's replay of the rules beneath the module's brought them back after `rejectAll`).
  @Test func aRemovalRacingRejectAllBringsNothingBack() throws {
    var failures: [String] = []  // the first few
    var failed = 0
    for round in 0..<1000 {
      let child = try Injection.childInjector { lets in
        try lets.inject(RejectedTool.self).value(RejectedTool("app"))
        try lets.inject(RejectedTool.self, named: "x").value(RejectedTool("app x"))
      }
      defer { child.end() }
      let modules = [RejectedToolModule("A"), RejectedToolModule("B")]
      try child.run { for module in modules { try Injection.addModule(module) } }
      concurrently(threads: 2) { thread in
        if thread == 0 {
          _ = try? child.run { try Injection.removeModule(modules[1]) }
        } else {
          _ = try? child.run { try Injection.rejectAllInjections() }
        }
      }
      let resolved = (try? child.resolve(RejectedTool.self))?.source ?? "nothing"
      let resolvedX = (try? child.resolve(RejectedTool.self, named: "x"))?.source ?? "nothing"
      let (inClass, inClassX, inStruct, loaded) = child.run {
        let host = RejectedToolHost()
        return (
          host.tool?.source ?? "nil", host.x?.source ?? "nil", RejectedToolStructHost().tool?.source ?? "nil",
          Injection.loadedModules.count { $0 is RejectedToolModule }
        )
      }
      if resolved != "nothing" || resolvedX != "nothing" || inClass != "nil" || inClassX != "nil" || inStruct != "nil"
        || loaded != 0
      {
        failed += 1
        if failures.count < 5 {
          failures.append(
            "round \(round): resolve \(resolved), named \(resolvedX), class \(inClass), named \(inClassX), "
              + "struct \(inStruct), loaded \(loaded)")
        }
      }
    }
    #expect(failed == 0, "\(failed) in 1,000 rounds; the first: \(failures)")
  }

  /// The app binding the type while a module binding it is removed: the app's binding is the newest
  /// whichever commits first, so it decides for the type alone (properties, structs, resolve), and the
  /// name keeps the binding of the module still loaded (a name beats the type alone).
  @Test func aBindingRacingARemovalWins() throws {
    var failures: [String] = []  // the first few
    var failed = 0
    for round in 0..<1000 {
      let child = try Injection.childInjector { lets in
        try lets.inject(ReboundTool.self).value(ReboundTool("app"))
        try lets.inject(ReboundTool.self, named: "x").value(ReboundTool("app x"))
      }
      defer { child.end() }
      let modules = [ReboundToolModule("A"), ReboundToolModule("B")]
      try child.run { for module in modules { try Injection.addModule(module) } }
      concurrently(threads: 2) { thread in
        if thread == 0 {
          _ = try? child.run { try Injection.removeModule(modules[1]) }
        } else {
          _ = try? child.run { try Injection.inject(ReboundTool.self).value(ReboundTool("new")) }
        }
      }
      let resolved = (try? child.resolve(ReboundTool.self))?.source ?? "nothing"
      let resolvedX = (try? child.resolve(ReboundTool.self, named: "x"))?.source ?? "nothing"
      let (inClass, inClassX, inStruct) = child.run {
        let host = ReboundToolHost()
        return (host.tool?.source ?? "nil", host.x?.source ?? "nil", ReboundToolStructHost().tool?.source ?? "nil")
      }
      if resolved != "new" || resolvedX != "A x" || inClass != "new" || inClassX != "A x" || inStruct != "new" {
        failed += 1
        if failures.count < 5 {
          failures.append(
            "round \(round): resolve \(resolved), named \(resolvedX), class \(inClass), named \(inClassX), "
              + "struct \(inStruct)")
        }
      }
    }
    #expect(failed == 0, "\(failed) in 1,000 rounds; the first: \(failures)")
  }
}
