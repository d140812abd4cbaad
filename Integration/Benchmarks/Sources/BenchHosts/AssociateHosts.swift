import AssociatePlugin

/// The host of the associated-property figures: one plain stored property beside one declared in an
/// extension, both holding a `Service`.
public final class AssociateHost {
  /// The plain stored property (the baseline).
  public var plain: Service?
  /// An empty host.
  public init() {}
}

extension AssociateHost {
  /// The extension property's declaration (see AssociatePlugin's README).
  public final class Associate: Associated<AssociateHost, Service> {}

  /// Per-instance storage in an extension, released with the host.
  public var associate: Service? {
    get { Associate[self] }
    set { Associate[self] = newValue }
  }
}

/// An owner of the churn figure: created, given an associated value, dropped.
public final class ChurnedOwner {
  /// An empty owner.
  public init() {}
}

extension ChurnedOwner {
  /// The churned property's declaration.
  public final class Cargo: Associated<ChurnedOwner, Service> {}

  /// The churned property.
  public var cargo: Service? {
    get { Cargo[self] }
    set { Cargo[self] = newValue }
  }
}
