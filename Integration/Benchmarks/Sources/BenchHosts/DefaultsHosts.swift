import DefaultsPlugin
import Foundation

/// A class with `@Defaults` properties, as an app's settings object would be.
public final class DefaultsHost {
  @Defaults("bench.volume") public var volume = 0.5
  @Defaults("bench.level") public var level: Double?
  public init() {}
}

/// The same settings through `UserDefaults` by hand: what `@Defaults` replaces.
public final class ByHandHost {
  let defaults: UserDefaults
  public init(_ defaults: UserDefaults) { self.defaults = defaults }
  public var volume: Double {
    get { defaults.object(forKey: "bench.byHand") as? Double ?? 0.5 }
    set { defaults.set(newValue, forKey: "bench.byHand") }
  }
}

/// One read or write per call, kept out of line like ``Reads``.
public enum SettingsAccess {
  /// A `@Defaults` read.
  @inline(never) public static func read(_ host: DefaultsHost) -> Int { Int(host.volume * 4) }
  /// A read through `UserDefaults` by hand.
  @inline(never) public static func readByHand(_ host: ByHandHost) -> Int { Int(host.volume * 4) }
  /// A `@Defaults` write of a property with an initial value.
  @inline(never) public static func write(_ host: DefaultsHost, _ value: Double) { host.volume = value }
  /// A `@Defaults` write of an optional without an initial value.
  @inline(never) public static func writeOptional(_ host: DefaultsHost, _ value: Double) { host.level = value }
  /// A write through `UserDefaults` by hand.
  @inline(never) public static func writeByHand(_ host: ByHandHost, _ value: Double) { host.volume = value }
}
