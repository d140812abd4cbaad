import Foundation
import InjectPlugin

// A host process linking the kernel through the shared `DeluxeInjectionDynamic` product: it opens the
// `SharedKernelFixture` library with `dlopen`, injects a property that only that library declares, and
// lets the library read it. IntegrationTests runs it and checks what it prints.

let executable = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
let library = executable.deletingLastPathComponent().appendingPathComponent("libSharedKernelFixture.so").path
// Never `dlclose` a Swift image: the runtime keeps its metadata registered (and so does the catalog).
guard let image = dlopen(library, RTLD_NOW) else {
  FileHandle.standardError.write(Data("cannot open \(library): \(String(cString: dlerror()))\n".utf8))
  exit(1)
}

// The host has never seen the library's types: it finds the property in the shared catalog.
let loaded = Injection.markedProperties().filter { $0.className == "SharedKernelFixture.LoadedModuleService" }
print("properties found in the loaded image: \(loaded.map(\.name).sorted().joined(separator: ", "))")
print("marked by another kernel copy: \(Injection.catalogPasses.last?.markedByOtherKernelCopies ?? -1)")

try Injection.inject(String.self).filter { $0.className == "SharedKernelFixture.LoadedModuleService" }
  .value("https://api.example.org")
try Injection.inject(Int?.self).named("retries").value(3)

typealias Describe = @convention(c) () -> UnsafeMutablePointer<CChar>?
guard let symbol = dlsym(image, "loaded_module_describe_service"),
  let description = unsafeBitCast(symbol, to: Describe.self)()
else {
  FileHandle.standardError.write(Data("loaded_module_describe_service is missing\n".utf8))
  exit(1)
}
print("the loaded image reads: \(String(cString: description))")
free(description)
print(Injection.report())
