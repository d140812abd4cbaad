#if canImport(Foundation)
  public import Foundation
#endif

/// The marker of associate-backed properties: it names ``AssociatePlugin`` and the value type. You meet
/// it only through ``Associated``, ``WeaklyAssociated`` and ``CopyAssociated``.
public struct Associate<Value>: InjectionMarker {
  /// The plugin owning associate-backed properties.
  public static var plugin: PluginID { AssociatePlugin.id }

  /// How to turn associate-backed properties on (shown when a read finds nothing to return).
  public static func injectionHint(for property: PropertyDescriptor) -> String { "Injection.injectAssociate()" }
}

/// The plugin of associate-backed properties: stored properties declared in extensions of any class,
/// and `static` ones on class objects.
public enum AssociatePlugin: InjectionPlugin {
  /// `Associate`.
  public static let id = PluginID("Associate")
  /// ``Associate``.
  public static var markerTypes: [any InjectionMarker.Type] { [Associate<Never>.self] }
}

/// Declares a stored property of type `Value?` in an extension — of your own class or of one from
/// another module — that holds its value strongly, as a plain stored property does. Nest a class named
/// after the property (its first word lowercased gives the property's name) and forward the property's
/// accessors to it:
///
/// ```swift
/// extension Player {
///   final class Nickname: Associated<Player, String> {}
///   var nickname: String? {
///     get { Nickname[self] }
///     set { Nickname[self] = newValue }
///   }
/// }
/// ```
///
/// `Nickname[Player.self]` is the same property on the class object, for a `static var`. Each owner's
/// value is released when the owner dies; reads and writes are safe from any thread and inside the
/// owner's `deinit`. The kernel catalogs the property (`Module.Player.nickname: Swift.Optional<Swift.String>`)
/// before any access, so selections see it (and reports, while `rejectAssociate` turns it off).
///
/// The property is optional, as Objective-C's were: an owner that never stored a value reads `nil` (so
/// the imperative block's completeness check never waits for one). Give a default in the getter
/// (`Nickname[self] ?? "player"`) when the property should not be optional.
open class Associated<Owner: AnyObject, Value>: AssociatedProperty<Owner, Associate<Value?>> {}

/// Declares an extension property that holds its object weakly: a read returns `nil` once the object is
/// gone.
///
/// ```swift
/// extension Player {
///   final class Coach: WeaklyAssociated<Player, Trainer> {}
///   var coach: Trainer? {
///     get { Coach[self] }
///     set { Coach[self] = newValue }
///   }
/// }
/// ```
open class WeaklyAssociated<Owner: AnyObject, Object: AnyObject>: AssociatedProperty<Owner, Associate<Object?>> {
  /// `true`: the owner holds the object weakly.
  open override class var holdsWeakly: Bool { true }
}

#if canImport(Foundation)
  /// Declares an extension property that stores a copy of each value written (`NSCopying`'s `copy`,
  /// or `mutableCopy` when the property's type is a mutable class), as an Objective-C `copy` property
  /// does. Value types are copies already: use ``Associated`` for them.
  ///
  /// ```swift
  /// extension Player {
  ///   final class Motto: CopyAssociated<Player, NSString> {}
  ///   var motto: NSString? {
  ///     get { Motto[self] }
  ///     set { Motto[self] = newValue }
  ///   }
  /// }
  /// ```
  open class CopyAssociated<Owner: AnyObject, Object: NSCopying>: AssociatedProperty<Owner, Associate<Object?>> {
    /// A copy of `newValue`.
    open override class func storedForm(of newValue: Object?) -> Object? {
      guard let newValue else { return nil }
      let copy = newValue.copy(with: nil)
      if let copy = copy as? Object { return copy }
      if let mutable = newValue as? any NSMutableCopying, let copy = mutable.mutableCopy(with: nil) as? Object {
        return copy
      }
      // The copy's own type too (found by review H85: the message named only the type it is not).
      Injection.stop(
        "\(property.description) was set, but a copy of \(Injection.typeName(type(of: newValue))) is a "
          + "\(Injection.typeName(type(of: copy))), no \(Injection.typeName(Object.self)): declare the property "
          + "with the type its copy has")
    }
  }
#endif
