// swift-tools-version: 6.0
import PackageDescription

/// Benchmarks comparing DeluxeInjection with plain Swift, Swinject and swift-dependencies, run by
/// `Scripts/bench.sh`. Those two are dependencies of this package only, never of the product.
let package = Package(
  name: "DeluxeInjectionBenchmarks",
  dependencies: [
    .package(name: "DeluxeInjection", path: "../.."),
    .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1"),
  ],
  targets: [
    // Host classes live in their own module, as an app's classes would, apart from the runner; the
    // wrappers come from the product's library modules.
    .target(
      name: "BenchHosts",
      dependencies: [
        .product(name: "InjectPlugin", package: "DeluxeInjection"),
        .product(name: "LazyPlugin", package: "DeluxeInjection"),
        .product(name: "DefaultsPlugin", package: "DeluxeInjection"),
        .product(name: "AssociatePlugin", package: "DeluxeInjection"),
        .product(name: "Dependencies", package: "swift-dependencies"),
        .product(name: "Swinject", package: "Swinject"),
      ]),
    .executableTarget(
      name: "Benchmarks",
      dependencies: [
        "BenchHosts",
        .product(name: "InjectPlugin", package: "DeluxeInjection"),
        .product(name: "LazyPlugin", package: "DeluxeInjection"),
        .product(name: "ImperativePlugin", package: "DeluxeInjection"),
        .product(name: "ForcePlugin", package: "DeluxeInjection"),
        .product(name: "DefaultsPlugin", package: "DeluxeInjection"),
        .product(name: "AssociatePlugin", package: "DeluxeInjection"),
        .product(name: "Swinject", package: "Swinject"),
      ],
      // The catalog fixtures (Scripts/generate-catalog-fixture.py) are compiled against this runner's
      // modules and link no kernel of their own: their `@Inject` symbols resolve to the runner's copy
      // when they are opened with dlopen, so their 150 marked properties are this kernel's to resolve,
      // as an app's own classes would be.
      linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]),
  ],
  swiftLanguageModes: [.v6]
)
