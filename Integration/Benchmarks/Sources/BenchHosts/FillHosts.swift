// The host that the fill figures fill: five plain stored properties, no marker.

/// Five dependencies an app would assign by hand after creating the object, or fill by name.
public final class FillHost {
  /// Dependency 0.
  public var first: Service?
  /// Dependency 1.
  public var second: Service?
  /// Dependency 2.
  public var third: Service?
  /// Dependency 3.
  public var fourth: Service?
  /// Dependency 4.
  public var fifth: Service?
  /// An empty host.
  public init() {}
}
