/// One property read per call, kept out of line so the caller's loop can neither hoist the read nor
/// see through it; the instance changes from call to call. Each figure is the call plus the read,
/// the baseline's included, so ratios compare like with like.
public enum Reads {
  /// A plain stored-property read.
  @inline(never) public static func plain(_ host: PlainHost) -> Int { host.service.value }
  /// A plain stored `Int` read: no reference counting, unlike a class-typed read through a getter.
  @inline(never) public static func plainInt(_ host: PlainHost) -> Int { host.count }
  /// An `@Inject` `Int` read on a final class.
  @inline(never) public static func finalInt(_ host: FinalHost) -> Int { host.count }
  /// An `@Inject` read on a final class.
  @inline(never) public static func final(_ host: FinalHost) -> Int { host.service.value }
  /// An `@Inject` read declared in the base class, through a subclass instance.
  @inline(never) public static func subclass(_ host: BaseHost) -> Int { host.service.value }
  /// An `@Inject` read in a generic class.
  @inline(never) public static func generic(_ host: GenericHost<Int>) -> Int { host.service.value }
  /// A `@Lazy` read after creation.
  @inline(never) public static func lazy(_ host: LazyHost) -> Int { host.items.count }
  /// A Swift `lazy var` read after creation.
  @inline(never) public static func swiftLazy(_ host: LazyHost) -> Int { host.swiftLazyItems.count }
}

/// One property write per call, kept out of line like ``Reads``; the instance changes from call to call.
public enum Writes {
  /// A plain stored-property write.
  @inline(never) public static func plain(_ host: PlainHost, _ service: Service) { host.service = service }
  /// An `@Inject` write on a final class: the replaced value is released once no read can still use it.
  @inline(never) public static func final(_ host: FinalHost, _ service: Service) { host.service = service }
}
