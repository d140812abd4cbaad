/// A marker type the kernel declares for itself: its conformance, in the same image as this code, names
/// this copy's `InjectionMarker` protocol descriptor (several images may each link their own copy of the
/// kernel). It marks nothing.
struct KernelProbe: InjectionMarker {
  typealias Value = Never
  static var plugin: PluginID { PluginID("InjectionKernel") }
}

/// An owner class for naming a specialization of `AssociatedProperty` (its descriptor); owns nothing.
final class KernelProbeOwner {}
