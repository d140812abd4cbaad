import InjectionKernel

/// A marker declared in a second library target, so discovery is exercised across modules.
@propertyWrapper
public struct Fixture<Value>: MarkedPropertyWrapper {
  public static var plugin: PluginID { FixturePlugin.id }
  public let storage: MarkedStorage<Value>
  public init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
    storage = MarkedStorage(fileID: fileID, line: line, column: column)
  }
  @inlinable
  public static subscript<Owner: AnyObject>(
    _enclosingInstance object: Owner,
    wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
    storage storage: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    get { read(object, storage) }
    set { write(newValue, object, storage) }
  }
  @available(*, unavailable, message: "@Fixture works in classes only")
  public var wrappedValue: Value {
    get { fatalError() }
    set { fatalError() }  // swift-format-ignore
  }
}

/// The plugin owning `@Fixture`.
public enum FixturePlugin: InjectionPlugin {
  public static let id = PluginID("Fixture")
  public static var markerTypes: [any InjectionMarker.Type] { [Fixture<Never>.self] }
}

/// A class of the second module with two marked properties and one plain one.
public final class LibraryHost {
  @Fixture public var name: String
  @Fixture public var count: Int
  public var plain = 0
  public init() {}
}

/// A generic class of the second module.
public final class LibraryBox<Element> {
  @Fixture public var element: Element
  public init() {}
}

/// A class whose marked property is private.
public final class LibraryPrivateHost {
  @Fixture private var secret: Double
  public init() {}
}
