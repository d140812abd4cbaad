#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Functions of the Swift runtime, looked up by name with `dlsym`: naming a runtime symbol from Swift
/// (`@_silgen_name`) is reserved to the runtime.
enum RuntimeSymbols {
  /// The exported function `name` as `Function` (a `@convention(c)` type matching its C declaration),
  /// or `nil` if the runtime does not export it.
  static func function<Function>(named name: String, as _: Function.Type) -> Function? {
    #if canImport(Darwin)
      let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #else
      let handle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #endif
    guard let symbol = dlsym(handle, name) else { return nil }
    return unsafeBitCast(symbol, to: Function.self)
  }
}
