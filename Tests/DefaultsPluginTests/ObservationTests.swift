import DefaultsPlugin
import Foundation
import Testing

// Each test injects its own store into its own class: two tests injecting stores into one class in
// parallel would read and wait on each other's stores (a test waiting for a change that went to the other
// store hung, now and then).
private final class ObservedSettings {
  @Defaults("observed.volume") var volume = 0.5
}

private final class ObservedFrameSettings {
  @ArchivedDefaults var frame: WindowFrame?
}

private final class ShortLivedSettings {
  @Defaults var value = 0
}

private final class DroppedWhileObservedSettings {
  @Defaults var value = 0
}

private final class CancelledObserverSettings {
  @Defaults var value = 0
}

private final class NeverInjectedSettings {
  @Defaults var level = 0
}

private final class SwitchedStoreSettings {
  @Defaults var level = 0
}

@Suite struct ObservationTests {
  @Test(.timeLimit(.minutes(1))) func aWriteBeforeInjectionIsAChangeToo() async {
    // Before, only writes through an injected property signalled: this observer waited forever (review H58).
    let settings = NeverInjectedSettings()
    var levels = settings.$level.values.makeAsyncIterator()
    #expect(await levels.next() == 0)
    settings.level = 42
    #expect(await levels.next() == 42)
  }

  @Test(.timeLimit(.minutes(1))) func aCommitThatChangesWhatThePropertyReadsIsAChange() async throws {
    // Before, a commit choosing another store, or turning the plugin off, changed the value unseen (review H58).
    try Injection.injectDefaults(in: SwitchedStoreSettings.self, store: { _ in InMemoryDefaultsStore(["level": 1]) })
    let settings = SwitchedStoreSettings()
    var levels = settings.$level.values.makeAsyncIterator()
    #expect(await levels.next() == 1)
    try Injection.injectDefaults(in: SwitchedStoreSettings.self, store: { _ in InMemoryDefaultsStore(["level": 2]) })
    #expect(await levels.next() == 2)
    try Injection.rejectDefaults(in: SwitchedStoreSettings.self)
    #expect(await levels.next() == 0)  // a plain stored property again, holding its initial value
  }

  @Test func valuesStartWithTheCurrentOneAndFollowEachChange() async throws {
    let store = InMemoryDefaultsStore()
    try Injection.injectDefaults(in: ObservedSettings.self, store: { _ in store })
    let settings = ObservedSettings()
    var volumes = settings.$volume.values.makeAsyncIterator()
    #expect(await volumes.next() == 0.5)
    settings.volume = 0.8
    #expect(await volumes.next() == 0.8)
    ObservedSettings().volume = 0.8  // the same value again: not a change
    ObservedSettings().volume = 0.3  // another instance: the same setting
    #expect(await volumes.next() == 0.3)
    store.set(0.1, forKey: "observed.volume")  // a change made through the store itself
    #expect(await volumes.next() == 0.1)
    #expect(settings.$volume.property.name == "volume")
  }

  @Test func archivedValuesAreObservedToo() async throws {
    let store = InMemoryDefaultsStore()
    try Injection.injectDefaults(in: ObservedFrameSettings.self, store: { _ in store })
    let settings = ObservedFrameSettings()
    var frames = settings.$frame.values.makeAsyncIterator()
    #expect(await frames.next() == .some(nil))
    settings.frame = WindowFrame(x: 1, y: 2, width: 3, height: 4)
    #expect(await frames.next() == WindowFrame(x: 1, y: 2, width: 3, height: 4))
    settings.frame = nil
    #expect(await frames.next() == .some(nil))
  }

  @Test func theSequenceEndsWhenTheInstanceIsGone() async throws {
    let store = InMemoryDefaultsStore()
    try Injection.injectDefaults(in: ShortLivedSettings.self, store: { _ in store })
    var settings: ShortLivedSettings? = ShortLivedSettings()
    var values = settings!.$value.values.makeAsyncIterator()
    #expect(await values.next() == 0)
    settings = nil
    store.set(1, forKey: "value")
    #expect(await values.next() == nil)
  }

  @Test(.timeLimit(.minutes(1))) func aWaitingObserverEndsWhenTheInstanceIsDeallocated() async throws {
    // Before, the sequence ended only at the next change signal after the instance was gone: with no
    // further change, this loop waited for ever (a port of DeluxeInjection's tests found it).
    try Injection.injectDefaults(in: DroppedWhileObservedSettings.self, store: { _ in InMemoryDefaultsStore() })
    var settings: DroppedWhileObservedSettings? = DroppedWhileObservedSettings()
    let (started, startedSignal) = AsyncStream<Void>.makeStream()
    let observer = Task { [values = settings!.$value.values] in
      var seen: [Int] = []
      for await value in values {
        seen.append(value)
        startedSignal.yield()
      }
      return seen
    }
    var signals = started.makeAsyncIterator()
    await signals.next()  // the loop holds its first value and waits for a change
    settings = nil
    // Before the fix the loop never ended; cancelling it after a while keeps the failure from hanging.
    let deadline = Task {
      try await Task.sleep(for: .seconds(20))
      observer.cancel()
    }
    #expect(await observer.value == [0])
    deadline.cancel()
    #expect((try? await deadline.value) == nil, "the loop ended only because it was cancelled")
  }

  @Test func aCancelledObserverStops() async throws {
    let store = InMemoryDefaultsStore()
    try Injection.injectDefaults(in: CancelledObserverSettings.self, store: { _ in store })
    let settings = CancelledObserverSettings()
    let observer = Task {
      var seen = 0
      for await _ in settings.$value.values { seen += 1 }
      return seen
    }
    observer.cancel()
    let seen = await observer.value
    #expect(seen <= 1)
  }
}
