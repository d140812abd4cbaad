// swift-tools-version: 6.0
import PackageDescription

let kernel = Target.Dependency.product(name: "InjectionKernel", package: "DeluxeInjection")
let inject = Target.Dependency.product(name: "InjectPlugin", package: "DeluxeInjection")
let lazy = Target.Dependency.product(name: "LazyPlugin", package: "DeluxeInjection")
let defaults = Target.Dependency.product(name: "DefaultsPlugin", package: "DeluxeInjection")
let force = Target.Dependency.product(name: "ForcePlugin", package: "DeluxeInjection")
let imperative = Target.Dependency.product(name: "ImperativePlugin", package: "DeluxeInjection")
let testing = Target.Dependency.product(name: "InjectionTesting", package: "DeluxeInjection")
let dynamic = Target.Dependency.product(name: "DeluxeInjectionDynamic", package: "DeluxeInjection")

/// A matrix test target in `Tests/Matrix/<name>`, depending on `products` and the `@Probe` marker only.
func matrix(_ name: String, _ products: [Target.Dependency]) -> Target {
  .testTarget(name: name, dependencies: products + ["MatrixSupport"], path: "Tests/Matrix/\(name)")
}

/// The integration suite: the demo app and tests that need more than one image or several plugins
/// together. It depends on the product's root package by path, as an app would.
let package = Package(
  name: "DeluxeInjectionIntegration",
  products: [
    // Loaded with dlopen by the tests, so it must be its own image.
    .library(name: "DynamicFixture", type: .dynamic, targets: ["DynamicFixture"]),
    // Loaded with dlopen by SharedKernelHost; both link the kernel through DeluxeInjectionDynamic.
    .library(name: "SharedKernelFixture", type: .dynamic, targets: ["SharedKernelFixture"]),
  ],
  dependencies: [.package(name: "DeluxeInjection", path: "..")],
  targets: [
    // The demo app, a small notes tool wired entirely by the plugins.
    .executableTarget(name: "Demo", dependencies: [inject, lazy, defaults, force, imperative]),
    // Runs the built demo twice against a scratch configuration directory.
    .testTarget(name: "DemoTests"),
    .executableTarget(name: "LazyOnly", dependencies: [.product(name: "LazyPlugin", package: "DeluxeInjection")]),
    // Two third-party plugins, written against InjectionKernel's public API only, each with its README
    // (whose examples its tests' ReadmeExamples.swift compiles).
    .target(name: "AuditPlugin", dependencies: [kernel], exclude: ["README.md"]),
    .testTarget(name: "AuditPluginTests", dependencies: ["AuditPlugin"]),
    // A third-party plugin whose marker takes a declaration argument: `@Env("HOME")`.
    .target(name: "EnvPlugin", dependencies: [kernel], exclude: ["README.md"]),
    .testTarget(name: "EnvPluginTests", dependencies: ["EnvPlugin"]),
    .target(
      name: "DynamicFixture",
      dependencies: [.product(name: "InjectPlugin", package: "DeluxeInjection")]),
    // Several images, one kernel: a host and a library it opens with dlopen share the kernel of the
    // DeluxeInjectionDynamic product.
    .target(name: "SharedKernelFixture", dependencies: [dynamic]),
    .executableTarget(name: "SharedKernelHost", dependencies: [dynamic]),
    .testTarget(
      name: "IntegrationTests",
      dependencies: [
        "AuditPlugin",
        .product(name: "InjectPlugin", package: "DeluxeInjection"),
        .product(name: "LazyPlugin", package: "DeluxeInjection"),
        .product(name: "ImperativePlugin", package: "DeluxeInjection"),
      ]),
    // The combination matrix: one test target per combination of products, each depending on those
    // products only (and on MatrixSupport's kernel-only @Probe marker, which every fixture carries).
    .target(name: "MatrixSupport", dependencies: [kernel], path: "Tests/Matrix/MatrixSupport"),
    matrix("KernelAloneTests", [kernel]),
    matrix("InjectAloneTests", [inject]),
    matrix("LazyAloneTests", [lazy]),
    matrix("DefaultsAloneTests", [defaults]),
    matrix("ForceAloneTests", [force]),
    matrix("ImperativeAloneTests", [imperative]),
    matrix("TestingAloneTests", [kernel, testing]),
    matrix("InjectWithImperativeTests", [inject, imperative]),
    matrix("LazyWithImperativeTests", [lazy, imperative]),
    matrix("DefaultsWithImperativeTests", [defaults, imperative]),
    matrix("ForceWithImperativeTests", [force, imperative]),
    matrix("AllPluginsWithTestingTests", [inject, lazy, defaults, force, imperative, testing]),
    matrix("ThirdPartyPluginsTests", [kernel, "AuditPlugin", "EnvPlugin"]),
  ],
  swiftLanguageModes: [.v6]
)
