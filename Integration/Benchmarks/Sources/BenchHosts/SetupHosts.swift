import InjectPlugin

// 50 classes with 3 `@Inject` properties each (written out by a loop when the harness was made):
// the 150 properties an imperative block injects in the set-up figure.

/// Set-up fixture class 0.
public final class SetupHost0 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 1.
public final class SetupHost1 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 2.
public final class SetupHost2 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 3.
public final class SetupHost3 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 4.
public final class SetupHost4 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 5.
public final class SetupHost5 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 6.
public final class SetupHost6 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 7.
public final class SetupHost7 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 8.
public final class SetupHost8 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 9.
public final class SetupHost9 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 10.
public final class SetupHost10 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 11.
public final class SetupHost11 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 12.
public final class SetupHost12 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 13.
public final class SetupHost13 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 14.
public final class SetupHost14 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 15.
public final class SetupHost15 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 16.
public final class SetupHost16 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 17.
public final class SetupHost17 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 18.
public final class SetupHost18 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 19.
public final class SetupHost19 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 20.
public final class SetupHost20 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 21.
public final class SetupHost21 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 22.
public final class SetupHost22 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 23.
public final class SetupHost23 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 24.
public final class SetupHost24 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 25.
public final class SetupHost25 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 26.
public final class SetupHost26 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 27.
public final class SetupHost27 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 28.
public final class SetupHost28 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 29.
public final class SetupHost29 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 30.
public final class SetupHost30 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 31.
public final class SetupHost31 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 32.
public final class SetupHost32 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 33.
public final class SetupHost33 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 34.
public final class SetupHost34 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 35.
public final class SetupHost35 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 36.
public final class SetupHost36 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 37.
public final class SetupHost37 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 38.
public final class SetupHost38 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 39.
public final class SetupHost39 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 40.
public final class SetupHost40 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 41.
public final class SetupHost41 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 42.
public final class SetupHost42 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 43.
public final class SetupHost43 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 44.
public final class SetupHost44 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 45.
public final class SetupHost45 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 46.
public final class SetupHost46 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 47.
public final class SetupHost47 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 48.
public final class SetupHost48 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// Set-up fixture class 49.
public final class SetupHost49 {
  /// Injected property 0.
  @Inject public var p0: Int
  /// Injected property 1.
  @Inject public var p1: Int
  /// Injected property 2.
  @Inject public var p2: Int
  /// An empty host.
  public init() {}
}

/// The 50 set-up classes.
public let setupHostClasses: [AnyClass] = [
  SetupHost0.self,
  SetupHost1.self,
  SetupHost2.self,
  SetupHost3.self,
  SetupHost4.self,
  SetupHost5.self,
  SetupHost6.self,
  SetupHost7.self,
  SetupHost8.self,
  SetupHost9.self,
  SetupHost10.self,
  SetupHost11.self,
  SetupHost12.self,
  SetupHost13.self,
  SetupHost14.self,
  SetupHost15.self,
  SetupHost16.self,
  SetupHost17.self,
  SetupHost18.self,
  SetupHost19.self,
  SetupHost20.self,
  SetupHost21.self,
  SetupHost22.self,
  SetupHost23.self,
  SetupHost24.self,
  SetupHost25.self,
  SetupHost26.self,
  SetupHost27.self,
  SetupHost28.self,
  SetupHost29.self,
  SetupHost30.self,
  SetupHost31.self,
  SetupHost32.self,
  SetupHost33.self,
  SetupHost34.self,
  SetupHost35.self,
  SetupHost36.self,
  SetupHost37.self,
  SetupHost38.self,
  SetupHost39.self,
  SetupHost40.self,
  SetupHost41.self,
  SetupHost42.self,
  SetupHost43.self,
  SetupHost44.self,
  SetupHost45.self,
  SetupHost46.self,
  SetupHost47.self,
  SetupHost48.self,
  SetupHost49.self,
]
