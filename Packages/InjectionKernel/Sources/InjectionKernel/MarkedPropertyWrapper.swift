/// The building block for marker property wrappers: adopt it, store a ``MarkedStorage``, and
/// forward the enclosing-instance subscript to ``read(_:_:)`` and ``write(_:_:_:)``.
///
/// ```swift
/// @propertyWrapper
/// public struct Tracked<Value>: MarkedPropertyWrapper {
///   public static var plugin: PluginID { PluginID("Tracked") }
///   public let storage: MarkedStorage<Value>
///   public init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
///     storage = MarkedStorage(fileID: fileID, line: line, column: column)
///   }
///   @inlinable public static subscript<Owner: AnyObject>(
///     _enclosingInstance object: Owner,
///     wrapped wrapped: ReferenceWritableKeyPath<Owner, Value>,
///     storage storage: ReferenceWritableKeyPath<Owner, Self>
///   ) -> Value {
///     get { read(object, storage) }
///     set { write(newValue, object, storage) }
///   }
///   @available(*, unavailable, message: "@Tracked works in classes only")
///   public var wrappedValue: Value { get { fatalError() } set { fatalError() } }
/// }
/// ```
///
/// Reads take an inlined fast path (a table lookup and a few atomic loads inside a read section, no lock,
/// no allocation) once any instance of the class has read the property; see ``MarkedStorage``.
public protocol MarkedPropertyWrapper: InjectionMarker {
  /// The per-instance state, inline in the instance: made in every initializer from the declaration's
  /// position (its `#fileID`, `#line` and `#column` default arguments) and never replaced for class
  /// owners. It must be the wrapper's first stored property: the kernel reads and writes its words
  /// through the instance's address.
  var storage: MarkedStorage<Value> { get }

  /// The marker's own arguments — what the declaration says about its property, the same for every
  /// instance: a key (`@Defaults("ui.volume")`), a variable name (`@Env("HOME")`), a storage option.
  /// `nil` (the default) when the marker has none.
  ///
  /// The kernel takes them from an instance's wrapper on its first access and keeps the first it sees
  /// per property; the plugin's getters and setters read them as
  /// ``OriginalAccessor/declarationArguments``, and anyone as ``Injection/declarationArguments(of:)``.
  /// Return a value that does not depend on the instance: arguments of later instances are not looked at.
  ///
  /// ```swift
  /// @propertyWrapper
  /// struct Env: MarkedPropertyWrapper {
  ///   let storage: MarkedStorage<String>
  ///   let name: String
  ///   init(_ name: String, fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
  ///     storage = MarkedStorage(fileID: fileID, line: line, column: column)
  ///     self.name = name
  ///   }
  ///   var declarationArguments: (any Sendable)? { name }
  ///   …
  /// }
  /// ```
  var declarationArguments: (any Sendable)? { get }
}

extension MarkedPropertyWrapper {
  /// No declaration arguments.
  @inlinable
  public var declarationArguments: (any Sendable)? { nil }
}

extension MarkedPropertyWrapper {
  /// The read of the wrapped property of a class instance; call it from the wrapper's
  /// `static subscript(_enclosingInstance:wrapped:storage:)` getter (Swift looks that subscript up on the
  /// wrapper type itself, so each wrapper declares it and forwards here).
  @inlinable
  @inline(__always)
  public static func read<Owner: AnyObject>(
    _ object: Owner, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) -> Value {
    let token: UInt
    if DeclarationTokens.projectionsCopyWrappers {
      token = Self.token(of: object, storageKeyPath)  // takes a lock: outside the section
      ReadSection.enter()
    } else {
      ReadSection.enter()
      token = Self.projectedToken(of: object, storageKeyPath)
    }
    let served = MarkedPropertyStorage<Value>.servedAnswer(of: object, token: token)
    ReadSection.exit()
    if let served { return served }
    return storage(of: object, token: token, storageKeyPath).answer(for: object)
  }

  /// The write of the wrapped property of a class instance; call it from the subscript's setter.
  @inlinable
  public static func write<Owner: AnyObject>(
    _ newValue: Value, _ object: Owner, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) {
    storage(of: object, token: Self.token(of: object, storageKeyPath), storageKeyPath).write(newValue, of: object)
  }

  /// The cataloged property this wrapper of `object` is, found as on a first access (which records the
  /// declaration arguments): for a projection (`$property`) or a plugin's helper that needs the
  /// property's descriptor, its injection (``Injection/injection(for:)``) or its arguments.
  @inlinable
  public static func property<Owner: AnyObject>(
    of object: Owner, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) -> PropertyDescriptor {
    storage(of: object, token: Self.token(of: object, storageKeyPath), storageKeyPath).slot.property
  }

  /// The declaration token of this wrapper of `object` (see ``MarkedStorage``): one load of the field
  /// in optimized builds, from ``DeclarationTokens`` in unoptimized ones (whose projection copies the
  /// whole wrapper). Call it outside read sections.
  @inlinable
  @inline(__always)
  static func token<Owner: AnyObject>(of object: Owner, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>)
    -> UInt
  {
    guard DeclarationTokens.projectionsCopyWrappers else { return ownToken(of: object, storageKeyPath) }
    return DeclarationTokens.token(for: storageKeyPath) { ownToken(of: object, storageKeyPath) }
  }

  /// The token `object`'s own wrapper holds, projected inside a read section of its own (call it
  /// outside sections).
  @inlinable
  static func ownToken<Owner: AnyObject>(of object: Owner, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>)
    -> UInt
  {
    ReadSection.enter()
    defer { ReadSection.exit() }
    return projectedToken(of: object, storageKeyPath)
  }

  /// The token read through the storage key path. Call it inside a read section: the optimizer folds the
  /// projection into one load of the token word when it sees the key path literal (the wrapper's
  /// subscript inlined into the property's accessor); a projection it does not fold copies the whole
  /// wrapper, retaining the held value, which a concurrent write can only release after the section.
  @inlinable
  @inline(__always)
  static func projectedToken<Owner: AnyObject>(
    of object: Owner, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) -> UInt {
    object[keyPath: storageKeyPath].storage.token
  }

  /// The storage of this property of `object`: from the field table, or — on the class's first access
  /// of the property — located by the kernel, which takes the wrapper's declaration arguments first.
  @inlinable
  @inline(__always)
  static func storage<Owner: AnyObject>(
    of object: Owner, token: UInt, _ storageKeyPath: ReferenceWritableKeyPath<Owner, Self>
  ) -> MarkedPropertyStorage<Value> {
    if let storage = MarkedPropertyStorage<Value>.located(in: object, token: token) { return storage }
    var token = token
    if DeclarationTokens.projectionsCopyWrappers {
      // The token its key path gave first; this instance's wrapper may hold another (one made in an
      // initializer has that initializer's position): read its own.
      token = ownToken(of: object, storageKeyPath)
      if let storage = MarkedPropertyStorage<Value>.located(in: object, token: token) { return storage }
    }
    let field = LocatedField(token: token, in: object, wrapperType: Self.self)
    if !field.argumentsSettled {
      // Read under the field's lock: a copy of the wrapper reads its held word, which writers change
      // only under that lock.
      let arguments = field.withLock { object[keyPath: storageKeyPath].declarationArguments }
      field.settle(arguments)
    }
    return MarkedPropertyStorage(held: field.held, slot: field.publish())
  }
}
