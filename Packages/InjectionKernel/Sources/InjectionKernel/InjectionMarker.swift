/// A property-wrapper type that marks stored properties for one plugin.
///
/// The kernel finds marked properties by looking at the field records of every class for fields whose
/// type is a marker, so marking costs nothing at start-up and needs no registration. A third-party
/// plugin's wrapper adopts ``MarkedPropertyWrapper``, which refines this protocol with the storage, the
/// reads and the writes that make injections reach the property:
///
/// ```swift
/// @propertyWrapper
/// public struct Tracked<Value>: MarkedPropertyWrapper {
///   public static var plugin: PluginID { TrackedPlugin.id }
///   public let storage: MarkedStorage<Value>
///   // … the initializers and the enclosing-instance subscript shown in `MarkedPropertyWrapper`
/// }
/// ```
///
/// A wrapper that adopts only `InjectionMarker` is cataloged (reports and checks list its properties),
/// but its reads never reach the kernel: use such a marker for an associated property
/// (``AssociatedProperty``), whose reads go through the kernel's associated storage, never for a stored
/// property. Markers must be structs or enums (the kernel reads their nominal type descriptor).
public protocol InjectionMarker: SendableMetatype {
  /// The type of the property's value, as the user declared it (`Settings` for `@Inject var s: Settings`).
  associatedtype Value

  /// The plugin that owns properties marked with this type.
  static var plugin: PluginID { get }

  /// How to inject a property of this marker, shown when a read finds nothing to return.
  ///
  /// For example `"Injection.inject(Settings.self)"`.
  static func injectionHint(for property: PropertyDescriptor) -> String

  /// Whether every property of this marker holds a value of its own without an injection — its
  /// declarations must give an initial value (or be optional) — so that a read never stops for want of
  /// one: completeness checks do not list such properties as missing. `false` by default.
  static var propertiesAlwaysHoldAValue: Bool { get }
}

extension InjectionMarker {
  /// `false`: a property of this marker may have nothing to return until it is injected.
  public static var propertiesAlwaysHoldAValue: Bool { false }

  /// The declared value type, type-erased.
  public static var valueType: Any.Type { Value.self }

  /// A generic hint naming the plugin.
  public static func injectionHint(for property: PropertyDescriptor) -> String {
    "an injection from \(plugin)"
  }
}

/// The identity of a plugin: a stable, human-readable name such as `"Inject"`.
public struct PluginID: Hashable, Sendable, CustomStringConvertible, Comparable {
  /// The plugin's name, used in reports and errors.
  public let name: String

  /// Creates an identifier; names must be unique among the plugins of a process.
  public init(_ name: String) { self.name = name }

  /// The plugin's name.
  public var description: String { name }

  /// Orders identifiers by name.
  public static func < (lhs: PluginID, rhs: PluginID) -> Bool { lhs.name < rhs.name }
}

/// A plugin: a set of marker types whose properties it injects.
///
/// Plugins never enumerate classes themselves: the kernel's shared pass catalogs every marked property
/// once, and `InjectionKernel/properties(of:)` hands a plugin exactly the properties of its markers.
///
/// ```swift
/// enum TrackedPlugin: InjectionPlugin {
///   static let id = PluginID("Tracked")
///   static var markerTypes: [any InjectionMarker.Type] { [Tracked<Never>.self] }
/// }
/// ```
public protocol InjectionPlugin {
  /// The plugin's identity, the same one its markers return from ``InjectionMarker/plugin``.
  static var id: PluginID { get }

  /// One specialization of each marker type the plugin owns (any type argument will do).
  static var markerTypes: [any InjectionMarker.Type] { get }
}
