import Foundation
public import InjectionKernel
import Synchronization

/// `$property` of a `@Defaults` or `@ArchivedDefaults` property: its descriptor, and its values as they
/// change.
///
/// ```swift
/// for await volume in player.$volume.values {
///   mixer.apply(volume)
/// }
/// ```
public struct DefaultsProjection<Value> {
  /// The property.
  public let property: PropertyDescriptor
  let read: ReadAgain<Value>
  let same: @Sendable (Value, Value) -> Bool

  init<Owner: AnyObject, Wrapper: MarkedPropertyWrapper>(
    property: PropertyDescriptor, owner: Owner, storage: ReferenceWritableKeyPath<Owner, Wrapper>,
    same: @escaping @Sendable (Value, Value) -> Bool
  ) where Wrapper.Value == Value {
    self.property = property
    read = ReadAgain(owner: owner, storage: storage)
    self.same = same
  }
}

extension DefaultsProjection where Value: Sendable {
  /// The property's value now, then each new value: after every write through a `@Defaults` property
  /// of the process, every write to an ``InMemoryDefaultsStore``, and on Apple platforms every
  /// `UserDefaults.didChangeNotification` (Linux's `UserDefaults` posts none, so a change made by calling
  /// `UserDefaults` directly is seen only with the next of the others). Equal successive values are
  /// reported once. Each element is the value when the iteration asks for it: writes faster than the
  /// loop give only the newest of them. It does not keep the instance alive: the sequence ends when the
  /// instance is deallocated or the iterating task is cancelled.
  public var values: DefaultsValues<Value> { DefaultsValues(read: read, same: same) }
}

/// The values of one `@Defaults` property as they change (see ``DefaultsProjection/values``).
public struct DefaultsValues<Value: Sendable>: AsyncSequence, Sendable {
  /// The property's values.
  public typealias Element = Value
  /// Never fails.
  public typealias Failure = Never
  let read: ReadAgain<Value>
  let same: @Sendable (Value, Value) -> Bool

  /// Starts listening: the first element is the value at this moment.
  public func makeAsyncIterator() -> Iterator {
    Iterator(read: read, same: same, changes: DefaultsObservation.subscribe(endingWith: read.owner))
  }

  /// Reads the property again after each change signal.
  public struct Iterator: AsyncIteratorProtocol {
    let read: ReadAgain<Value>
    let same: @Sendable (Value, Value) -> Bool
    let changes: DefaultsObservation.Subscription
    var last: Value?

    init(
      read: ReadAgain<Value>, same: @escaping @Sendable (Value, Value) -> Bool,
      changes: DefaultsObservation.Subscription
    ) {
      self.read = read
      self.same = same
      self.changes = changes
    }

    /// The value now (first call), then the next different value.
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
      guard let last else {
        guard let value = read.value() else { return nil }
        self.last = value
        return value
      }
      while await changes.next(isolation: actor) {
        guard let value = read.value() else { return nil }
        if same(last, value) { continue }
        self.last = value
        return value
      }
      return nil
    }

    /// The value now (first call), then the next different value.
    public mutating func next() async -> Value? { await next(isolation: nil) }
  }
}

/// Reads a property again for an observer, without keeping its instance alive.
struct ReadAgain<Value>: @unchecked Sendable {
  // Touches only the marked property, whose reads the kernel makes safe from any thread.
  private let weakOwner: WeakReference
  private let readProperty: (AnyObject) -> Value

  init<Owner: AnyObject, Wrapper: MarkedPropertyWrapper>(
    owner: Owner, storage: ReferenceWritableKeyPath<Owner, Wrapper>
  ) where Wrapper.Value == Value {
    weakOwner = WeakReference(owner)
    readProperty = { Wrapper.read(unsafeDowncast($0, to: Owner.self), storage) }
  }

  /// The property's value, or `nil` once the instance is gone.
  func value() -> Value? { weakOwner.object.map(readProperty) }

  /// The instance, while it lives.
  var owner: AnyObject? { weakOwner.object }
}

/// A weak reference.
final class WeakReference: @unchecked Sendable {  // `object` is only read; weak loads are atomic
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

/// The change signal observers of `@Defaults` properties wait on.
@usableFromInline enum DefaultsObservation {
  private static let observers = LockedState<[Int: AsyncStream<Void>.Continuation]>([:])
  private static let nextID = Atomic<Int>(0)
  private static let count = Atomic<Int>(0)

  /// Wakes every observer (cheap when there is none).
  @usableFromInline static func post() {
    guard count.load(ordering: .acquiring) > 0 else { return }
    for continuation in observers.withLock({ Array($0.values) }) { continuation.yield() }
  }

  /// A new observer's signal, which ends once `owner` is deallocated (at once when it is `nil`: gone).
  static func subscribe(endingWith owner: AnyObject?) -> Subscription {
    let id = nextID.add(1, ordering: .relaxed).newValue
    let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    continuation.onTermination = { _ in unsubscribe(id) }
    observers.withLock { $0[id] = continuation }
    count.add(1, ordering: .releasing)
    let ownerDeath = owner.map { Injection.onDeallocation(of: $0) { continuation.finish() } }
    if owner == nil { continuation.finish() }
    return Subscription(stream: stream, continuation: continuation, ownerDeath: ownerDeath)
  }

  private static func unsubscribe(_ id: Int) {
    if observers.withLock({ $0.removeValue(forKey: id) }) != nil { count.subtract(1, ordering: .releasing) }
  }

  /// One observer's signal; ends (and unsubscribes) with its iterator, or when the observed instance is
  /// deallocated.
  final class Subscription {
    private var iterator: AsyncStream<Void>.Iterator
    private let continuation: AsyncStream<Void>.Continuation
    /// Ends the signal when the instance is deallocated; withdrawn with the iterator, so that a
    /// long-lived instance keeps no action of observers long gone.
    private let ownerDeath: DeallocationObservation?

    init(
      stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation, ownerDeath: DeallocationObservation?
    ) {
      iterator = stream.makeAsyncIterator()
      self.continuation = continuation
      self.ownerDeath = ownerDeath
    }

    deinit {
      ownerDeath?.cancel()
      continuation.finish()
    }

    /// Waits for the next signal; `false` when the waiting task was cancelled or the instance is gone.
    func next(isolation actor: isolated (any Actor)?) async -> Bool {
      await iterator.next(isolation: actor) != nil
    }
  }

  /// On Apple platforms, a change made through `defaults` anywhere in the process wakes observers.
  static func observeExternalChanges(of defaults: UserDefaults) {
    #if canImport(Darwin)
      _ = NotificationCenter.default.addObserver(
        forName: UserDefaults.didChangeNotification, object: defaults, queue: nil
      ) { _ in post() }
    #endif
  }
}
