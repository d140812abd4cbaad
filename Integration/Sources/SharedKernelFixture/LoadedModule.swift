import Foundation
import InjectPlugin

/// A class that exists only in this library, which links the kernel through the shared
/// `DeluxeInjectionDynamic` product: a host process that links the same product and opens this
/// library with `dlopen` injects its properties like its own.
public final class LoadedModuleService {
  @Inject public var endpoint: String
  @Inject public var retries: Int?
  public init() {}
}

/// The entry point the host finds with `dlsym` (a loaded module's only door to the host without
/// Swift-level imports): a new `LoadedModuleService`'s properties as `endpoint retries`, in memory the
/// caller frees with `free`.
@_cdecl("loaded_module_describe_service")
public func describeService() -> UnsafeMutablePointer<CChar>? {
  let service = LoadedModuleService()
  return strdup("\(service.endpoint) \(service.retries.map(String.init) ?? "nil")")
}
