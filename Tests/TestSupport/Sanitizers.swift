import Foundation

/// Whether the address sanitizer's runtime is linked into this process: its allocator keeps freed memory
/// in quarantine, so a new object never gets a freed object's address.
public let addressSanitizerIsActive = runtimeSymbolExists("__asan_init")

/// Whether a sanitizer runtime (address or thread) is linked into this process; each makes allocation-
/// heavy tests many times slower.
public let sanitizerIsActive = addressSanitizerIsActive || runtimeSymbolExists("__tsan_init")

private func runtimeSymbolExists(_ name: String) -> Bool {
  #if canImport(Glibc)
    let scope: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
  #else
    let scope = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
  #endif
  return dlsym(scope, name) != nil
}
