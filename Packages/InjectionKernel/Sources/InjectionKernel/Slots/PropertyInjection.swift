/// The type-erased face of a ``PropertyInjection``, as slots and reports see it.
public class AnyPropertyInjection: @unchecked Sendable {  // immutable after init
  /// The value type the injection was built for; a property of another type refuses it.
  public let valueType: Any.Type
  /// A short description for reports, such as `value Settings` or `getter`.
  public let summary: String
  /// What the plugin has to say about the property now (a problem it met, say), appended to its line of
  /// ``Injection/report()``; `nil` or a `nil` result adds nothing.
  public let reportNote: (@Sendable () -> String?)?
  /// For the injection the kernel gives a `T?` property from a rule made for `T` (see
  /// ``PropertySelection/includingOptionals()``), that rule's own injection; `nil` otherwise. Plugins that
  /// keep something per injection find it through this.
  public let unwrappedSource: AnyPropertyInjection?

  init(
    valueType: Any.Type, summary: String, reportNote: (@Sendable () -> String?)? = nil,
    unwrappedSource: AnyPropertyInjection? = nil
  ) {
    self.valueType = valueType
    self.summary = summary
    self.reportNote = reportNote
    self.unwrappedSource = unwrappedSource
  }

  /// The same injection for a property declared `Value?` (see ``PropertySelection/includingOptionals()``),
  /// or `nil` when it cannot be given to one (getters and setters work on `Value`'s storage).
  func wrappedInOptional() -> AnyPropertyInjection? { nil }

  /// Whether reads stay plain (``PropertyInjection/Read/original``: a setter alone): such an injection gives
  /// a read nothing, so a non-optional property with nothing stored still stops at its read.
  var leavesReadsPlain: Bool { false }
}

/// What reads and writes of an injected property do: the Swift form of DeluxeInjection's getter and
/// setter blocks.
///
/// Plugins build these and hand them to a ``InjectionRules`` batch; the kernel installs them into the
/// class-level slot of every selected property, so every instance, existing and future, sees them.
///
/// The injected value, factory and closures are shared by every instance of the selected classes and may
/// run on any thread that reads the property. The closures are `@Sendable`; a plugin verb that hands one
/// value to every instance (`.value`, `.shared`) should require `Value: Sendable` and accept an
/// ``UncheckedSendable`` for a value its caller vouches for, as InjectPlugin's verbs do.
public final class PropertyInjection<Value>: AnyPropertyInjection, @unchecked Sendable {  // immutable
  /// A getter: the instance, its storage (`inout`, like DeluxeInjection's `id *ivar`) and the property's
  /// behaviour without this injection. Runs under the instance's storage lock.
  public typealias Getter =
    @Sendable (_ target: AnyObject, _ storage: inout Value?, _ original: OriginalAccessor<Value>) -> Value
  /// A setter: the instance, its storage, the new value and the behaviour without this injection.
  public typealias Setter =
    @Sendable (
      _ target: AnyObject, _ storage: inout Value?, _ newValue: Value, _ original: OriginalAccessor<Value>
    ) -> Void
  /// Builds a value for one instance.
  public typealias Factory = @Sendable (_ target: AnyObject) -> Value

  /// How a read finds its value.
  public enum Read: @unchecked Sendable {  // payloads are immutable; see the type's note on sharing
    /// The instance's stored value if any, otherwise this value.
    case value(Value)
    /// The instance's stored value if any, otherwise one value created on the first read anywhere.
    case shared(SharedValue<Value>)
    /// Every read calls the getter.
    case getter(Getter)
    /// When the instance's storage is empty, the factory fills it; with `once`, at most once per instance.
    case fill(Factory, once: Bool)
    /// The property's own behaviour: its stored value (a plain read).
    case original
  }

  /// How reads behave.
  public let read: Read
  /// How writes behave; `nil` stores the new value (setting `nil` on an optional empties the storage).
  public let write: Setter?

  /// Creates an injection; `summary` appears in ``Injection/report()``, followed by what `reportNote`
  /// returns at the time of the report, if anything.
  public init(read: Read, write: Setter? = nil, summary: String, reportNote: (@Sendable () -> String?)? = nil) {
    self.read = read
    self.write = write
    super.init(valueType: Value.self, summary: summary, reportNote: reportNote)
  }

  /// An injection for `Value` made from `source`, the injection of a rule for `Value`'s wrapped type.
  init(read: Read, summary: String, wrapping source: AnyPropertyInjection) {
    self.read = read
    self.write = nil
    super.init(valueType: Value.self, summary: summary, reportNote: source.reportNote, unwrappedSource: source)
  }

  override var leavesReadsPlain: Bool {
    if case .original = read { return true }
    return false
  }

  override func wrappedInOptional() -> AnyPropertyInjection? {
    guard write == nil else { return nil }
    switch read {
    case .value(let value): return PropertyInjection<Value?>(read: .value(value), summary: summary, wrapping: self)
    case .shared(let shared):
      // Every `Value?` property reads the one shared value, which `shared` makes once: created outside this
      // wrapper's own lock, so that a wait for it is only ever `shared`'s (a container sees its waits).
      return PropertyInjection<Value?>(
        read: .shared(SharedValue(onceElsewhere: { shared.get() }, keptElsewhere: { shared.isKeptByAScope })),
        summary: summary, wrapping: self)
    case .fill(let factory, let once):
      return PropertyInjection<Value?>(read: .fill({ factory($0) }, once: once), summary: summary, wrapping: self)
    case .getter, .original: return nil
    }
  }
}

/// The behaviour of a property without its injection, handed to getters and setters.
///
/// The storage is passed to your closure `inout`, so the original reads and writes the storage you
/// give it rather than the instance's (which your closure is holding):
///
/// ```swift
/// PropertyInjection<Int>(read: .getter { _, storage, original in original.get(storage) + 1 }, summary: "plus one")
/// ```
public struct OriginalAccessor<Value>: Sendable {
  @usableFromInline let slot: InjectionSlot

  @inlinable
  init(slot: InjectionSlot) { self.slot = slot }

  /// The stored value; `nil` for an optional property with nothing stored. For a non-optional property
  /// with nothing stored this stops the program with a message naming the property and how to inject it.
  @inlinable
  public func get(_ storage: Value?) -> Value {
    if let storage { return storage }
    if let none = slot.none(as: Value.self) { return none }
    slot.stopForMissingValue()
  }

  /// Stores `newValue`; `nil` on an optional property empties the storage.
  public func set(_ storage: inout Value?, _ newValue: Value) {
    if slot.isOptional, OptionalTypes.isNone(newValue) {
      storage = nil
    } else {
      storage = newValue
    }
  }
}
