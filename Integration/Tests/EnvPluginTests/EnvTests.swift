import EnvPlugin
import Foundation
import InjectionKernel
import Testing

private final class ProcessConfig {
  @Env("PATH") var path: String
  @Env("DELUXE_ENV_SURELY_UNSET_7F3A") var missing: String?
  @Env("DELUXE_ENV_SURELY_UNSET_7F3A") var withDefault = 8080
}

private final class ServerConfig {
  @Env("HOME") var home: String
  @Env("PORT") var port = 8080
  @Env("LOG_LEVEL") var logLevel: String?
  @Env("VERBOSE") var verbose = false
  @Env("RATIO") var ratio: Double?
}

private final class StopConfig {
  @Env("DELUXE_ENV_SURELY_UNSET_7F3A") var required: String
  @Env("DELUXE_ENV_NOT_A_NUMBER") var port: Int
}

@Suite struct EnvTests {
  @Test func propertiesReadTheProcessEnvironmentByTheirDeclaredName() throws {
    try Injection.injectEnvironment(in: ProcessConfig.self)
    let config = ProcessConfig()
    #expect(config.path == ProcessInfo.processInfo.environment["PATH"])
    #expect(config.missing == nil)
    #expect(config.withDefault == 8080)
  }

  @Test func theDeclarationArgumentReachesTheKernel() throws {
    try Injection.injectEnvironment(in: ProcessConfig.self)
    _ = ProcessConfig().path
    let property = try Injection.property(named: "path", of: ProcessConfig.self)
    #expect(Injection.declarationArguments(of: property) as? String == "PATH")
  }

  @Test func aScopeReadsItsOwnVariablesAndConvertsThem() throws {
    try Injection.withOverrides({ lets in
      lets.injectEnvironment(in: ServerConfig.self)
      lets.useEnvironment(["HOME": "/home/kim", "PORT": "9000", "VERBOSE": "yes", "RATIO": "0.25"])
    }) {
      let config = ServerConfig()
      #expect(config.home == "/home/kim")
      #expect(config.port == 9000)
      #expect(config.logLevel == nil)
      #expect(config.verbose)
      #expect(config.ratio == 0.25)
    }
    #expect(!Injection.isInjected(ServerConfig.self, "home"))
  }

  @Test func anUnsetRequiredVariableStopsWithItsName() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      try Injection.injectEnvironment(in: StopConfig.self)
      _ = StopConfig().required
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      stderr.hasPrefix(
        "EnvPluginTests.StopConfig.required: Swift.String reads the environment variable "
          + "DELUXE_ENV_SURELY_UNSET_7F3A, which is not set: set it, give the property an initial value, or make "
          + "it optional."))
  }

  @Test func aValueOfTheWrongFormStopsWithTheValue() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      setenv("DELUXE_ENV_NOT_A_NUMBER", "eighty", 1)  // a process of its own: no other thread reads it
      try Injection.injectEnvironment(in: StopConfig.self)
      _ = StopConfig().port
    }
    let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      stderr.hasPrefix(
        "EnvPluginTests.StopConfig.port: Swift.Int reads the environment variable DELUXE_ENV_NOT_A_NUMBER, whose "
          + "value \"eighty\" does not convert to Int."))
  }
}
