// swift-tools-version: 6.0
import PackageDescription

/// One product per folder under `Packages/`; every plugin depends on `InjectionKernel` alone.
let package = Package(
  name: "DeluxeInjection",
  products: [
    .library(name: "InjectionKernel", targets: ["InjectionKernel"]),
    .library(name: "InjectPlugin", targets: ["InjectPlugin"]),
    .library(name: "LazyPlugin", targets: ["LazyPlugin"]),
    .library(name: "ImperativePlugin", targets: ["ImperativePlugin"]),
    .library(name: "ForcePlugin", targets: ["ForcePlugin"]),
    .library(name: "DefaultsPlugin", targets: ["DefaultsPlugin"]),
    .library(name: "InjectionTesting", targets: ["InjectionTesting"]),
    .library(name: "AssociatePlugin", targets: ["AssociatePlugin"]),
    // The kernel and every plugin in one shared library, for processes of several images (an app that
    // `dlopen`s plugins or modules): each image that links the static products above carries its own
    // kernel, and a kernel injects only properties whose markers are its own. Depend on this product
    // alone — in the app and in every library it loads — so that all of them share one kernel.
    .library(
      name: "DeluxeInjectionDynamic", type: .dynamic,
      targets: [
        "InjectionKernel", "InjectPlugin", "LazyPlugin", "ImperativePlugin", "ForcePlugin", "DefaultsPlugin",
        "AssociatePlugin",
      ]),
  ],
  targets: [
    .target(
      name: "InjectionKernel", dependencies: ["InjectionReadSections", "InjectionOwnerLifetime"],
      path: "Packages/InjectionKernel/Sources/InjectionKernel"),
    // The kernel's read sections (thread-local reader records and the writer's wait), in C: Swift has no
    // thread-local storage that an inlined read can reach in one instruction.
    .target(name: "InjectionReadSections", path: "Packages/InjectionKernel/Sources/InjectionReadSections"),
    // The deallocation hook that releases associated values with their owner on Linux, in C: it is
    // called with the Swift calling convention from the runtime and edits class metadata.
    .target(name: "InjectionOwnerLifetime", path: "Packages/InjectionKernel/Sources/InjectionOwnerLifetime"),
    .target(
      name: "InjectPlugin", dependencies: ["InjectionKernel"], path: "Packages/InjectPlugin/Sources/InjectPlugin"),
    .target(name: "LazyPlugin", dependencies: ["InjectionKernel"], path: "Packages/LazyPlugin/Sources/LazyPlugin"),
    .target(
      name: "ImperativePlugin", dependencies: ["InjectionKernel"],
      path: "Packages/ImperativePlugin/Sources/ImperativePlugin"),
    .target(name: "ForcePlugin", dependencies: ["InjectionKernel"], path: "Packages/ForcePlugin/Sources/ForcePlugin"),
    .target(
      name: "DefaultsPlugin", dependencies: ["InjectionKernel"], path: "Packages/DefaultsPlugin/Sources/DefaultsPlugin"),
    .target(
      name: "AssociatePlugin", dependencies: ["InjectionKernel"],
      path: "Packages/AssociatePlugin/Sources/AssociatePlugin"),
    .testTarget(
      name: "AssociatePluginTests",
      dependencies: ["AssociatePlugin", "InjectPlugin", "ImperativePlugin", "TestSupport"],
      path: "Tests/AssociatePluginTests"),
    .testTarget(
      name: "DefaultsPluginTests",
      dependencies: ["DefaultsPlugin", "ImperativePlugin", "InjectionTesting", "TestSupport"],
      path: "Tests/DefaultsPluginTests"),
    // Test overrides for every plugin: Swift Testing traits over the kernel's override scopes.
    .target(
      name: "InjectionTesting", dependencies: ["InjectionKernel"],
      path: "Packages/InjectionTesting/Sources/InjectionTesting"),
    .testTarget(
      name: "InjectionTestingTests",
      dependencies: ["InjectionTesting", "InjectPlugin", "LazyPlugin", "ImperativePlugin", "TestSupport"],
      path: "Tests/InjectionTestingTests"),
    .testTarget(
      name: "ForcePluginTests", dependencies: ["ForcePlugin", "InjectPlugin", "ImperativePlugin", "TestSupport"],
      path: "Tests/ForcePluginTests"),
    .testTarget(
      name: "ImperativePluginTests", dependencies: ["ImperativePlugin", "InjectPlugin", "LazyPlugin", "TestSupport"],
      path: "Tests/ImperativePluginTests"),
    .testTarget(
      name: "LazyPluginTests", dependencies: ["LazyPlugin", "ImperativePlugin", "TestSupport"],
      path: "Tests/LazyPluginTests"),
    .testTarget(
      name: "InjectPluginTests",
      dependencies: ["InjectPlugin", "TestSupport"],
      path: "Tests/InjectPluginTests"
    ),
    .testTarget(
      name: "InjectionKernelTests",
      dependencies: ["InjectionKernel", "InjectionReadSections", "KernelTestFixtures", "TestSupport"],
      path: "Tests/InjectionKernelTests"
    ),
    // Test helpers shared by the test targets.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    // A second library target, linked into the test image, so discovery is proven across modules.
    .target(
      name: "KernelTestFixtures",
      dependencies: ["InjectionKernel"],
      path: "Tests/KernelTestFixtures"
    ),
  ],
  swiftLanguageModes: [.v6]
)

// Language settings shared by every target.
for target in package.targets where !["InjectionReadSections", "InjectionOwnerLifetime"].contains(target.name) {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  target.swiftSettings = settings
}
