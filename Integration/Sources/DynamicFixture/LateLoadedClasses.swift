import InjectPlugin

/// A class that exists only in this dynamic library, opened with `dlopen` by the integration tests:
/// the kernel must find it on the pass after the library is loaded. The library links its own copy
/// of `InjectionKernel` and `InjectPlugin`, as SwiftPM does for each image.
public final class LateLoadedService {
  @Inject public var endpoint: String
  @Inject public var retries: Int
  public var plain = 0
  public init() {}
}
