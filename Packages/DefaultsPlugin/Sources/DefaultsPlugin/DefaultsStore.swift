public import Foundation
import Synchronization

/// Where `@Defaults` properties keep their values: a key-value store of property-list objects.
///
/// ``UserDefaultsStore`` (the default, `UserDefaults.standard`) and ``InMemoryDefaultsStore`` come with
/// the plugin; adopt it for a store of your own. Calls may come from any thread, concurrently.
public protocol DefaultsStore: AnyObject, Sendable {
  /// A name for reports and errors, such as `UserDefaults.standard`.
  var name: String { get }
  /// The object stored under `key`, if any.
  func object(forKey key: String) -> Any?
  /// Stores a property-list object under `key`.
  func set(_ object: Any, forKey key: String)
  /// Removes `key`.
  func removeObject(forKey key: String)
  /// Writes everything stored so far through to durable storage, now.
  func synchronize()
}

/// A `UserDefaults` as a ``DefaultsStore``, made durable: values written through it are written to disk
/// when the process exits normally even if nobody calls `synchronize()` (on Linux, the toolchain's
/// `UserDefaults` writes its file only then; without it, every write of the run would be lost).
///
/// On Linux a suite's file is `$XDG_CONFIG_HOME/<suite>.plist` (`~/.config/` when `XDG_CONFIG_HOME` is
/// not set), and `UserDefaults.standard`'s is named after the executable. A suite name that is an
/// absolute path (`/var/lib/app/settings`) puts the file there instead (`/var/lib/app/settings.plist`).
///
/// On Linux every call of every `UserDefaultsStore` is serialized by one lock: the toolchain's
/// `UserDefaults` is not safe under concurrent use (checked on Swift 6.3.1: with threads setting keys of
/// one suite, a key just set reads back as absent a few hundred times in 24,000 writes). Code that calls
/// `UserDefaults` directly on other threads at the same time is not covered by that lock.
public final class UserDefaultsStore: DefaultsStore, @unchecked Sendable {
  // `defaults` is used under `Self.serialized` on Linux (documented thread-safe on Apple platforms);
  // `unsynchronized` is atomic.

  /// The defaults.
  public let defaults: UserDefaults
  /// `UserDefaults.standard` or `UserDefaults(suiteName: "…")`.
  public let name: String
  /// Whether a write happened since the last `synchronize()` (then the store is in the exit flush list).
  private let unsynchronized = Atomic<Bool>(false)

  /// `UserDefaults.standard`: the default store of `@Defaults` properties.
  public static let standard = UserDefaultsStore(.standard, name: "UserDefaults.standard")

  /// A store over `defaults`, called `name` in reports.
  public init(_ defaults: UserDefaults, name: String) {
    self.defaults = defaults
    self.name = name
    DefaultsObservation.observeExternalChanges(of: defaults)
  }

  /// A store over the suite `suiteName` (`nil` if `UserDefaults` refuses the name).
  public convenience init?(suiteName: String) {
    guard let defaults = UserDefaults(suiteName: suiteName) else { return nil }
    self.init(defaults, name: "UserDefaults(suiteName: \"\(suiteName)\")")
  }

  /// The object stored under `key`.
  public func object(forKey key: String) -> Any? { Self.serialized { defaults.object(forKey: key) } }

  /// Stores `object` under `key`; it reaches disk at `synchronize()` or at the latest at exit.
  public func set(_ object: Any, forKey key: String) {
    Self.serialized { defaults.set(object, forKey: key) }
    noteWrite()
  }

  /// Removes `key`. On Linux the removal is written to disk at once: the toolchain's `UserDefaults` keeps
  /// answering a removed key with the value its file holds until the next `synchronize()` (checked on
  /// Swift 6.3.1), which would make `nil` read back as the old value. Elsewhere it reaches disk at
  /// `synchronize()` or at the latest at exit.
  public func removeObject(forKey key: String) {
    Self.serialized { defaults.removeObject(forKey: key) }
    #if canImport(Darwin)
      noteWrite()
    #else
      synchronize()
    #endif
  }

  /// Writes the defaults to disk now.
  public func synchronize() {
    unsynchronized.store(false, ordering: .releasing)
    _ = Self.serialized { defaults.synchronize() }
  }

  #if canImport(Darwin)
    private static func serialized<Result>(_ body: () -> Result) -> Result { body() }
  #else
    /// One lock for every store: the toolchain's `UserDefaults` shares its state between suites. It counts
    /// the calls it serialized (its state is not `Void`: the thread sanitizer reports accesses to a
    /// zero-sized state, which sits at the end of the lock object, as races).
    private static let lock = LockedState<Int>(0)

    private static func serialized<Result>(_ body: () -> Result) -> Result {
      lock.withLock { calls in
        calls &+= 1
        return body()
      }
    }
  #endif

  private func noteWrite() {
    if !unsynchronized.exchange(true, ordering: .acquiringAndReleasing) { ExitFlush.register(self) }
  }
}

/// A store in memory, for tests and previews: nothing reaches disk, nothing is shared with other stores.
///
/// ```swift
/// try Injection.withOverrides({ lets in lets.useDefaultsStore(InMemoryDefaultsStore()) }) {
///   // every @Defaults property of every instance reads and writes the in-memory store, in this task
/// }
/// ```
public final class InMemoryDefaultsStore: DefaultsStore {
  private let values: LockedState<[String: Any]>
  /// `InMemoryDefaultsStore`, or the name given.
  public let name: String

  /// A store holding `values` (property-list objects, or anything to test bad stored data with).
  public init(_ values: [String: Any] = [:], name: String = "InMemoryDefaultsStore") {
    self.values = LockedState(values)
    self.name = name
  }

  /// The object stored under `key`.
  public func object(forKey key: String) -> Any? { values.withLock { $0[key] } }

  /// Stores `object` under `key`; observers of `@Defaults` properties hear of it.
  public func set(_ object: Any, forKey key: String) {
    values.withLock { $0[key] = object }
    DefaultsObservation.post()
  }

  /// Removes `key`; observers of `@Defaults` properties hear of it.
  public func removeObject(forKey key: String) {
    values.withLock { $0[key] = nil }
    DefaultsObservation.post()
  }

  /// Nothing to do: the store is memory.
  public func synchronize() {}

  /// The keys stored now, sorted.
  public var keys: [String] { values.withLock { $0.keys.sorted() } }
}

/// The stores written to since their last `synchronize()`, synchronized when the process exits normally
/// (`exit()` or returning from `main`).
enum ExitFlush {
  private static let pending = LockedState<[ObjectIdentifier: UserDefaultsStore]>([:])
  private static let installed: Void = {
    atexit { ExitFlush.flushAll() }
  }()

  /// Synchronizes `store` at exit at the latest.
  static func register(_ store: UserDefaultsStore) {
    _ = installed
    pending.withLock { $0[ObjectIdentifier(store)] = store }
  }

  /// Synchronizes every store written to since its last synchronization.
  static func flushAll() {
    let stores = pending.withLock { pending in
      defer { pending.removeAll() }
      return Array(pending.values)
    }
    for store in stores { store.synchronize() }
  }
}
