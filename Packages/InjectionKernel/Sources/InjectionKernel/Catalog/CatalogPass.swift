/// What one enumeration pass of the `PropertyCatalog` scanned and found.
public struct CatalogPass: Sendable, CustomStringConvertible {
  /// Images whose metadata was read for the first time (0 when classes were given explicitly).
  public let images: Int
  /// Classes whose field records were read.
  public let classes: Int
  /// Field records compared against the marker types.
  public let fields: Int
  /// Marker types known after the pass.
  public let markerTypes: Int
  /// Marked properties found (of marker types conforming to this copy of the kernel).
  public let markedProperties: Int
  /// Marked properties whose marker conforms to another copy of `InjectionKernel` — an image that links
  /// the kernel statically on its own, as SwiftPM does for each image. That copy catalogs and injects
  /// them; this one only counts them.
  public let markedByOtherKernelCopies: Int
  /// Nanoseconds spent finding the images, the marker types and the marked fields (no metadata is
  /// instantiated in this part).
  public let scanNanoseconds: UInt64
  /// Wall-clock duration in nanoseconds: the scan plus resolving the non-generic classes with marked
  /// fields (their metadata, offsets and value types).
  public let nanoseconds: UInt64

  /// One line, for logs and benchmarks.
  public var description: String {
    "\(images) images, \(classes) classes, \(fields) fields, \(markedProperties) marked properties "
      + (markedByOtherKernelCopies > 0 ? "(+\(markedByOtherKernelCopies) of another kernel copy) " : "")
      + "(\(markerTypes) marker types) in \(Double(nanoseconds) / 1000) µs "
      + "(scan \(Double(scanNanoseconds) / 1000) µs)"
  }
}

/// Where the kernel looks for classes.
public enum ClassDiscovery: Sendable {
  /// Every Swift class of every loaded image, without the classes opting in (the default). Images
  /// opened later with `dlopen` are found by the next pass.
  case loadedImages
  /// Only these classes (and, on first access, any other class whose marked property is read).
  case classes([AnyClass])
}
