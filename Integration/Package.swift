// swift-tools-version: 6.0
import PackageDescription

/// The integration suite: the demo app and tests that need more than one image or several plugins
/// together. It depends on the product's root package by path, as an app would.
let package = Package(
  name: "DeluxeInjectionIntegration",
  products: [
    // Loaded with dlopen by the tests, so it must be its own image.
    .library(name: "DynamicFixture", type: .dynamic, targets: ["DynamicFixture"])
  ],
  dependencies: [.package(name: "DeluxeInjection", path: "..")],
  targets: [
    .executableTarget(
      name: "Demo",
      dependencies: [
        .product(name: "InjectPlugin", package: "DeluxeInjection"),
        .product(name: "LazyPlugin", package: "DeluxeInjection"),
        .product(name: "ImperativePlugin", package: "DeluxeInjection"),
      ]),
    .executableTarget(name: "LazyOnly", dependencies: [.product(name: "LazyPlugin", package: "DeluxeInjection")]),
    .target(name: "AuditPlugin", dependencies: [.product(name: "InjectionKernel", package: "DeluxeInjection")]),
    // A third-party plugin whose marker takes a declaration argument: `@Env("HOME")`.
    .target(
      name: "EnvPlugin", dependencies: [.product(name: "InjectionKernel", package: "DeluxeInjection")],
      exclude: ["README.md"]),
    .testTarget(name: "EnvPluginTests", dependencies: ["EnvPlugin"]),
    .target(
      name: "DynamicFixture",
      dependencies: [.product(name: "InjectPlugin", package: "DeluxeInjection")]),
    .testTarget(
      name: "IntegrationTests",
      dependencies: [
        "AuditPlugin",
        .product(name: "InjectPlugin", package: "DeluxeInjection"),
        .product(name: "LazyPlugin", package: "DeluxeInjection"),
        .product(name: "ImperativePlugin", package: "DeluxeInjection"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
