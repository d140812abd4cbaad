import EnvPlugin
import InjectionKernel
import Testing

// The README's example, compiled and run inside a scope with variables of the test's own.

private final class ServerConfig {
  @Env("HOME") var home: String
  @Env("PORT") var port = 8080
  @Env("LOG_LEVEL") var logLevel: String?
}

@Suite struct EnvReadmeExamples {
  @Test func readsTheEnvironment() throws {
    try Injection.withOverrides({ lets in lets.useEnvironment(["HOME": "/home/kim"]) }) {
      try Injection.injectEnvironment()
      let config = ServerConfig()
      #expect(config.home == "/home/kim" && config.port == 8080 && config.logLevel == nil)
    }
  }
}
